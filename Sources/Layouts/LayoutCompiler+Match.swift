import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// The match object: where a payload comes from and what narrows it down.
extension LayoutCompiler {
    mutating func parseMatch(_ value: JSONValue) -> MatchSpec {
        var match = MatchSpec()
        let path = "$.match"
        guard let object = value.object else {
            diagnostics.error(path, "match must be an object, not \(value.typeName)")
            return match
        }
        checkKeys(object, path, allowed: Self.matchKeys, kind: "a match")

        func list(_ value: JSONValue, _ path: String) -> [(JSONValue, String)] {
            if let array = value.array { return array.enumerated().map { ($0.element, "\(path)[\($0.offset)]") } }
            return [(value, path)]
        }
        var sawPrimary = false
        var missingPrimary = false
        if let v = object["company"] {
            sawPrimary = true
            for (item, p) in list(v, path + ".company") {
                if let text = item.string, text.hasPrefix("$") { match.companyParameter = String(text.dropFirst()) }
                switch resolve(item, p) {
                case .value(let resolved):
                    if let c = integer(resolved, p, "company"), (0...0xFFFF).contains(c) {
                        match.companies.append(UInt16(c))
                    } else if Self.parseInteger(resolved) != nil {
                        diagnostics.error(p, "company id must be 0…0xFFFF")
                    }
                case .missing: missingPrimary = true
                case .invalid: break
                }
            }
        }
        for (key, kind) in [("service_data", 0), ("characteristic", 1), ("service_uuid", 2)] {
            guard let v = object[key] else { continue }
            if kind < 2 { sawPrimary = true }
            for (item, p) in list(v, path + "." + key) {
                if kind < 2, let text = item.string, text.hasPrefix("$") { match.uuidParameter = String(text.dropFirst()) }
                switch resolve(item, p) {
                case .value(let resolved):
                    guard let text = resolved.string, let uuid = BluetoothUUID(text) else {
                        diagnostics.error(
                            p,
                            "\(key) must be a UUID (\"2a37\" or \"6e400001-b5a3-f393-e0a9-e50e24dcca9e\"), not \(resolved.jsonText)"
                        )
                        continue
                    }
                    switch kind {
                    case 0: match.serviceData.append(uuid)
                    case 1: match.characteristics.append(uuid)
                    default: match.serviceUUIDs.append(uuid)
                    }
                case .missing: if kind < 2 { missingPrimary = true }
                case .invalid: break
                }
            }
        }
        if let v = object["operation"] {
            for (item, p) in list(v, path + ".operation") {
                guard let text = item.string, let op = ValueOperation(rawValue: text) else {
                    diagnostics.error(p, "operation is one of notify, indicate, read, write; not \(item.jsonText)")
                    continue
                }
                match.operations.append(op)
            }
            if object["characteristic"] == nil {
                diagnostics.error(path + ".operation", "operation only applies to a characteristic match")
            }
        }
        if let v = object["name_prefix"] {
            if case .value(let resolved) = resolve(v, path + ".name_prefix") {
                match.namePrefix = string(resolved, path + ".name_prefix", "name_prefix")
            }
        }
        if let v = object["length"] { match.length = parseLength(v, path + ".length") }
        if let v = object["prefix"] {
            for (item, p) in list(v, path + ".prefix") {
                guard case .value(let resolved) = resolve(item, p), let text = string(resolved, p, "prefix") else {
                    continue
                }
                if let bytes = Hex.decode(text), !bytes.isEmpty {
                    match.prefixes.append(bytes)
                } else {
                    diagnostics.error(p, "prefix must be hex bytes such as \"0215\", not \"\(text)\"")
                }
            }
        }
        if !sawPrimary {
            diagnostics.error(path, "match needs a company, a service_data UUID or a characteristic UUID")
        }
        _ = missingPrimary
        if let length = match.length, match.prefixes.contains(where: { $0.count > length.upperBound }) {
            diagnostics.error(path + ".prefix", "prefix is longer than the matched length")
        }
        return match
    }
}
