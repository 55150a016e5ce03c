import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// Fields in byte order: scopes, positions and offsets, scalars, pads, bytes and text.
extension LayoutCompiler {
    /// What is known about the names defined so far on the way to the current field.
    struct Scope {
        struct Entry {
            var value: ValueSpec?
            var path: String
            /// An unscaled integer (can drive a switch, a length or a count).
            var isRawInteger: Bool
            var isNumeric: Bool
            /// Defined on every path to here, or only in some switch arms.
            var definite: Bool
            /// A single bit read as true/false (can drive a switch with "true"/"false" cases).
            var isFlag = false
            /// The decimals its values carry, for the resolution of formulas; nil: unknown.
            var decimals: Int? = nil
        }
        var entries: [String: Entry] = [:]
        var order: [String] = []

        func lookup(_ name: String) -> Entry? { entries[name] }
        var allNames: [String] { order }

        mutating func define(_ name: String, _ entry: Entry) {
            if entries[name] == nil { order.append(name) }
            entries[name] = entry
        }
    }

    /// The byte position a field starts at, when it is the same for every payload.
    enum Position: Equatable {
        case known(Int)
        /// After a variable-length field or a switch whose arms differ in size.
        case variable
        /// After a field that reads to the end: nothing can follow.
        case end(field: String)

        func advanced(by n: Int) -> Position {
            if case .known(let p) = self { return .known(p + n) }
            return self
        }
    }

    mutating func parseNodes(
        _ array: [JSONValue], _ path: String, _ scope: inout Scope, _ position: inout Position
    ) -> [Node] {
        var nodes: [Node] = []
        for (index, entry) in array.enumerated() {
            let p = "\(path)[\(index)]"
            guard let object = entry.object else {
                diagnostics.error(p, "a field is an object with \"name\" and \"type\", not \(entry.typeName)")
                continue
            }
            if let node = parseNode(object, p, &scope, &position) {
                if let first = nodes.first(where: \.mayEndEarly), !node.mayEndEarly, !node.isComputedOrSwitch {
                    diagnostics.error(
                        p,
                        "a field after an optional one must be optional too (the payload may end at \(first.path))")
                }
                nodes.append(node)
            }
        }
        return nodes
    }

    mutating func parseNode(
        _ object: JSONObject, _ path: String, _ scope: inout Scope, _ position: inout Position
    ) -> Node? {
        if object["switch"] != nil { return parseSwitch(object, path, &scope, &position) }
        if object["compute"] != nil { return parseComputed(object, path, &scope) }
        guard let typeValue = object["type"] else {
            diagnostics.error(
                path,
                "a field needs a \"type\"" + (object["name"]?.string.map { " ('\($0)')" } ?? "")
                    + " (or \"compute\" for a computed field, or \"switch\")")
            return nil
        }
        guard let typeName = typeValue.string else {
            diagnostics.error(path + ".type", "type must be a string, not \(typeValue.typeName)")
            return nil
        }
        checkOffset(object, path, position)
        switch typeName {
        case "pad":
            checkKeys(
                object, path, allowed: ["type", "length", "offset", "comment"], known: Self.fieldKeys,
                kind: "a pad field")
            guard let n = object["length"].flatMap({ integer($0, path + ".length", "length") }), n > 0, n <= 65_535
            else {
                if object["length"] == nil {
                    diagnostics.error(path, "a pad field needs a \"length\" in bytes")
                } else {
                    diagnostics.error(path + ".length", "a pad length is a positive number of bytes")
                }
                return nil
            }
            consume(Int(n), path, "pad", &position)
            return .pad(Int(n))
        case "bytes", "ascii", "utf8":
            return parseData(object, path, typeName, &scope, &position)
        default:
            break
        }
        if object["bits"] != nil, let wide = Self.wideContainer(typeName) {
            let endian = object["endian"].flatMap { parseEndian($0, path + ".endian") } ?? self.endian
            return parseBits(object, path, wide, endian, &scope, &position)
        }
        guard let type = Self.scalarType(typeName) else {
            let message: String
            if typeName == "float" || typeName == "float32" {
                message = "type '\(typeName)' is ambiguous: use 'f32' (IEEE 754) or 'medfloat32' (IEEE-11073 FLOAT)"
            } else {
                let hint =
                    Self.typeHint(typeName).map { "; did you mean '\($0)'?" }
                    ?? suggestion(for: typeName, in: Self.typeNames)
                message = "unknown type '\(typeName)'" + hint + " (types: \(Self.typeNames.joined(separator: ", ")))"
            }
            diagnostics.error(path + ".type", message)
            return nil
        }
        let endian = object["endian"].flatMap { parseEndian($0, path + ".endian") } ?? self.endian
        if object["bits"] != nil {
            return parseBits(object, path, type, endian, &scope, &position)
        }
        var allowed = ["type", "endian", "offset", "repeat", "optional"] + Self.valueKeys
        if !type.isInteger {
            allowed.removeAll { ["enum", "counter", "const"].contains($0) }
        }
        checkKeys(object, path, allowed: allowed, known: Self.fieldKeys, kind: "a \(typeName) field")
        guard var value = parseValue(object, path, type: type, width: nil, scope: &scope, needsName: true) else {
            return nil
        }

        var count: Extent?
        if let r = object["repeat"] {
            count = parseExtent(r, path + ".repeat", "repeat", scope: scope)
            if value.counter != nil || value.maxJump != nil || value.constant != nil {
                diagnostics.error(path + ".repeat", "counter, max_jump and const do not apply to arrays")
                value.counter = nil
                value.maxJump = nil
            }
        }
        switch count {
        case .fixed(let n)?: consume(n * type.size, path, value.name, &position)
        case .rest?: position = .end(field: value.name)
        case .field?: if case .known = position { position = .variable }
        case nil: consume(type.size, path, value.name, &position)
        }
        define(
            value, path, &scope,
            rawInteger: type.isInteger && value.conversion.isIdentity && value.enumCases.isEmpty && count == nil,
            numeric: count == nil, decimals: type.isInteger ? value.conversion.resolution : nil)
        return .scalar(
            ScalarNode(value: value, type: type, endian: endian, count: count, optional: isOptional(object, path)))
    }

    static let typeNames = [
        "u8", "u16", "u24", "u32", "u40", "u48", "u64", "i8", "i16", "i24", "i32", "i40", "i48", "i64",
        "f32", "f64", "medfloat16", "sfloat", "medfloat32", "bytes", "ascii", "utf8", "pad",
    ]

    /// The type meant by a C-style or other common spelling ("uint16_t" → "u16", "double" → "f64").
    static func typeHint(_ name: String) -> String? {
        var base = name.lowercased()
        if base.hasSuffix("_t") { base.removeLast(2) }
        for (prefix, letter) in [("uint", "u"), ("int", "i")] where base.hasPrefix(prefix) {
            let bits = base.dropFirst(prefix.count)
            if let n = Int(bits), scalarType(letter + String(n)) != nil { return letter + String(n) }
        }
        switch base {
        case "double", "float64": return "f64"
        case "string", "str", "text": return "utf8"
        case "byte", "uchar": return "u8"
        case "char": return "i8"
        case "short": return "i16"
        case "ushort": return "u16"
        case "hex", "raw", "blob": return "bytes"
        default: return nil
        }
    }

    /// `u72` … `u128`: a container of packed bit fields wider than any integer (Combustion's
    /// 8 × 13-bit temperatures in 13 bytes). Bit 0 is the least significant bit of the first
    /// byte in little-endian order, of the last in big-endian order.
    static func wideContainer(_ name: String) -> ScalarType? {
        guard name.first == "u", let bits = Int(name.dropFirst()), bits % 8 == 0, (72...128).contains(bits) else {
            return nil
        }
        return .integer(size: bits / 8, signed: false)
    }

    /// `"optional": true`: read only while the payload has bytes left.
    mutating func isOptional(_ object: JSONObject, _ path: String) -> Bool {
        guard let value = object["optional"] else { return false }
        guard case .bool(let b) = value else {
            diagnostics.error(path + ".optional", "optional is true or false")
            return false
        }
        return b
    }

    static func scalarType(_ name: String) -> ScalarType? {
        switch name {
        case "f32": return .ieee754(size: 4)
        case "f64": return .ieee754(size: 8)
        case "medfloat16", "sfloat": return .medfloat(size: 2)
        case "medfloat32": return .medfloat(size: 4)
        default: break
        }
        guard name.count >= 2, let first = name.first, first == "u" || first == "i", let bits = Int(name.dropFirst()),
            bits % 8 == 0, (8...64).contains(bits), bits != 56
        else { return nil }
        return .integer(size: bits / 8, signed: first == "i")
    }

    mutating func checkOffset(_ object: JSONObject, _ path: String, _ position: Position) {
        guard let value = object["offset"] else { return }
        guard let offset = integer(value, path + ".offset", "offset"), offset >= 0 else { return }
        switch position {
        case .known(let p) where offset > p:
            diagnostics.error(
                path + ".offset",
                "offset \(offset) leaves a gap: the previous field ends at byte \(p); describe bytes \(p)…\(offset - 1) "
                    + "(for example {\"type\": \"pad\", \"length\": \(offset - Int64(p))})")
        case .known(let p) where offset < p:
            diagnostics.error(path + ".offset", "offset \(offset) overlaps the previous field, which ends at byte \(p)")
        case .known: break
        case .variable:
            diagnostics.error(
                path + ".offset", "offset \(offset) cannot be checked: the fields before it have no fixed size")
        case .end(let field):
            diagnostics.error(path + ".offset", "'\(field)' before this reads to the end of the payload")
        }
    }

    mutating func consume(_ n: Int, _ path: String, _ name: String, _ position: inout Position) {
        switch position {
        case .known(let p):
            if let bound = lengthBound, p + n > bound.upperBound {
                let what =
                    bound.lowerBound == bound.upperBound
                    ? "the matched length \(bound.upperBound)" : "the longest matched length \(bound.upperBound)"
                diagnostics.error(path, "'\(name)' ends at byte \(p + n), past \(what)")
            }
        case .end(let field):
            diagnostics.error(
                path, "'\(field)' before '\(name)' reads to the end of the payload, so '\(name)' never gets any bytes")
        case .variable: break
        }
        position = position.advanced(by: n)
    }

    mutating func define(
        _ value: ValueSpec, _ path: String, _ scope: inout Scope, rawInteger: Bool, numeric: Bool, flag: Bool = false,
        decimals: Int?
    ) {
        if let existing = scope.lookup(value.name) {
            diagnostics.error(
                path + ".name",
                "duplicate field name '\(value.name)' (also at \(existing.path), line \(diagnostics.line(existing.path)))"
            )
            return
        }
        if let other = allValues[value.name], other.rules != value.rules {
            diagnostics.error(
                path + ".name",
                "'\(value.name)' has other rules at \(other.path); the same name must have the same min, max, enum, counter and max_jump"
            )
        }
        if allValues[value.name] == nil { allValues[value.name] = value }
        if let label = value.label {
            let spec = ValueSpec(name: label, path: path + ".label", unit: nil, summary: "name of \(value.name)")
            define(spec, path + ".label", &scope, rawInteger: false, numeric: false, decimals: nil)
        }
        scope.define(
            value.name,
            .init(
                value: value, path: path, isRawInteger: rawInteger, isNumeric: numeric, definite: true, isFlag: flag,
                decimals: decimals))
    }

    /// Name, unit, scale, enum, const and rules: what scalars, bit fields and computed fields share.
    mutating func parseExtent(_ value: JSONValue, _ path: String, _ what: String, scope: Scope) -> Extent? {
        if case .string(let text) = value {
            if text == "rest" { return .rest }
            guard let entry = scope.lookup(text) else {
                diagnostics.error(
                    path,
                    documentNames.contains(text)
                        ? unknownName(text, scope, what: "a \(what)")
                        : "\(what) \"\(text)\" is neither \"rest\" nor an earlier field"
                            + suggestion(for: text, in: scope.allNames))
                return nil
            }
            guard entry.isRawInteger else {
                diagnostics.error(path, "\(what) field '\(text)' must be an unscaled integer without an enum")
                return nil
            }
            guard entry.definite else {
                diagnostics.error(path, "'\(text)' is only defined in some arms of a switch before this field")
                return nil
            }
            return .field(text)
        }
        guard let n = integer(value, path, what) else { return nil }
        guard n >= 1, n <= 512 else {
            diagnostics.error(path, "\(what) \(n) is out of range (1…512)")
            return nil
        }
        return .fixed(Int(n))
    }

    mutating func parseData(
        _ object: JSONObject, _ path: String, _ typeName: String, _ scope: inout Scope, _ position: inout Position
    ) -> Node? {
        checkKeys(
            object, path, allowed: ["name", "type", "offset", "length", "optional", "description", "comment"],
            known: Self.fieldKeys,
            kind: "a \(typeName) field")
        guard let name = object["name"].flatMap({ string($0, path + ".name", "name") }) else {
            if object["name"] == nil { diagnostics.error(path, "a field needs a \"name\"") }
            return nil
        }
        if !isSnakeCase(name) {
            let suggested = snakeCased(name)
            diagnostics.error(
                path + ".name",
                "\"\(name)\" is not snake_case" + (isSnakeCase(suggested) ? " (try \"\(suggested)\")" : ""))
        }
        guard let lengthValue = object["length"] else {
            diagnostics.error(
                path, "a \(typeName) field needs a \"length\": a number of bytes, \"rest\" or an earlier field")
            return nil
        }
        guard let length = parseExtent(lengthValue, path + ".length", "length", scope: scope) else { return nil }
        switch length {
        case .fixed(let n): consume(n, path, name, &position)
        case .rest: position = .end(field: name)
        case .field: if case .known = position { position = .variable }
        }
        let encoding: TextEncoding = typeName == "bytes" ? .hex : typeName == "ascii" ? .ascii : .utf8
        let spec = ValueSpec(name: name, path: path, unit: nil, summary: object["description"]?.string ?? "")
        define(spec, path, &scope, rawInteger: false, numeric: false, decimals: nil)
        return .data(
            DataNode(
                name: name, path: path, summary: spec.summary, encoding: encoding, length: length,
                optional: isOptional(object, path)))
    }
}
