import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// Fields made of other fields: bit fields, computed fields and switches.
extension LayoutCompiler {
    mutating func parseBits(
        _ object: JSONObject, _ path: String, _ type: ScalarType, _ endian: Endianness, _ scope: inout Scope,
        _ position: inout Position
    ) -> Node? {
        guard case .integer(let size, let signed) = type, !signed else {
            diagnostics.error(
                path + ".type", "bit fields sit in an unsigned integer (u8, u16, u24, u32…), not \(type.name)")
            return nil
        }
        checkKeys(
            object, path, allowed: ["type", "endian", "offset", "bits", "optional"] + Self.valueKeys,
            known: Self.fieldKeys,
            kind: "a bit-field container")
        var container: ValueSpec?
        if size > 8, object["name"] != nil {
            diagnostics.error(
                path + ".name", "a container wider than 64 bits has no value of its own: name its bits instead")
        } else if object["name"] != nil {
            container = parseValue(object, path, type: type, width: nil, scope: &scope, needsName: true)
            if let c = container {
                define(
                    c, path, &scope, rawInteger: c.conversion.isIdentity && c.enumCases.isEmpty, numeric: true,
                    decimals: c.conversion.resolution)
            }
        }
        consume(size, path, container?.name ?? "bits", &position)
        guard let array = object["bits"]?.array, !array.isEmpty else {
            diagnostics.error(path + ".bits", "bits is a non-empty array of {\"name\", \"bit\", \"width\"}")
            return nil
        }
        var parts: [BitPart] = []
        var used: [(range: Range<Int>, name: String)] = []
        for (index, entry) in array.enumerated() {
            let p = "\(path).bits[\(index)]"
            guard let bitObject = entry.object else {
                diagnostics.error(p, "a bit field is an object with \"name\", \"bit\" and optional \"width\"")
                continue
            }
            checkKeys(bitObject, p, allowed: Self.bitKeys, known: Self.fieldKeys, kind: "a bit field")
            guard bitObject["bit"] != nil else {
                diagnostics.error(p, "a bit field needs \"bit\": its lowest bit, 0 = least significant")
                continue
            }
            guard let shift = integer(bitObject["bit"], p + ".bit", "bit") else { continue }
            let width = bitObject["width"].flatMap { integer($0, p + ".width", "width") } ?? 1
            // Checked one at a time first, so that "bit": 9223372036854775807 cannot overflow the sum.
            guard shift >= 0, width >= 1, shift <= 128, width <= 64, shift + width <= Int64(size * 8) else {
                let bits =
                    shift >= 0 && shift <= 128 && width >= 1 && width <= 64
                    ? "bits \(shift)…\(shift + width - 1) do not fit" : "bit \(shift) with width \(width) does not fit"
                diagnostics.error(p, "\(bits) in \(type.name) (bits 0…\(size * 8 - 1))")
                continue
            }
            let range = Int(shift)..<Int(shift + width)
            if let clash = used.first(where: { $0.range.overlaps(range) }) {
                diagnostics.error(p, "bits \(range.lowerBound)…\(range.upperBound - 1) overlap '\(clash.name)'")
            }
            guard var value = parseValue(bitObject, p, type: nil, width: Int(width), scope: &scope, needsName: true)
            else {
                continue
            }
            used.append((range, value.name))
            let isBool =
                width == 1 && value.enumCases.isEmpty && value.conversion == .unscaled && value.constant == nil
                && value.counter == nil && value.style == .number
            if isBool, value.minimum != nil || value.maximum != nil || value.maxJump != nil {
                diagnostics.error(p, "min, max and max_jump do not apply to a single bit (it reads as true/false)")
            }
            if let inverted = bitObject["inverted"] {
                if case .bool(let b) = inverted, isBool || !b {
                    value.inverted = b
                } else {
                    diagnostics.error(
                        p + ".inverted", "inverted is true or false, for a single bit that reads as true/false")
                }
            }

            define(
                value, p, &scope, rawInteger: value.conversion.isIdentity && value.enumCases.isEmpty && !isBool,
                numeric: true, flag: isBool, decimals: value.conversion.resolution)
            parts.append(BitPart(value: value, shift: Int(shift), width: Int(width), isBool: isBool))
        }
        return .bits(
            BitsNode(
                container: container, path: path, type: type, endian: endian, parts: parts,
                optional: isOptional(object, path)))
    }

    mutating func parseComputed(_ object: JSONObject, _ path: String, _ scope: inout Scope) -> Node? {
        checkKeys(
            object, path,
            allowed: ["name", "compute", "unit", "min", "max", "max_jump", "decimals", "description", "comment"],
            known: Self.fieldKeys, kind: "a computed field")
        guard let text = string(object["compute"], path + ".compute", "compute") else { return nil }
        guard var value = parseValue(object, path, type: .ieee754(size: 8), width: nil, scope: &scope, needsName: true)
        else { return nil }
        value.conversion = .unscaled
        let expression: Expression
        do {
            expression = try Expression.parse(text)
        } catch {
            diagnostics.error(path + ".compute", "\"\(text)\": column \(error.column): \(error.message)")
            return nil
        }
        var ok = true
        for name in expression.names {
            guard let entry = scope.lookup(name) else {
                ok = false
                diagnostics.error(path + ".compute", unknownName(name, scope, what: "a computed field"))
                continue
            }
            if !entry.isNumeric {
                ok = false
                diagnostics.error(path + ".compute", "'\(name)' is not a number (it is text, bytes or an array)")
            } else if !entry.definite {
                ok = false
                diagnostics.error(
                    path + ".compute", "'\(name)' is only defined in some arms of the switch before this field")
            }
        }
        let resolution = expression.resolution { scope.lookup($0)?.decimals }
        var display: Int?
        if let d = object["decimals"] {
            if let n = integer(d, path + ".decimals", "decimals"), n >= 0, n <= Int64(DecimalRounding.maximumDecimals) {
                display = Int(n)
            } else if Self.parseInteger(d) != nil {
                diagnostics.error(path + ".decimals", "decimals is a whole number of places, 0…15")
            }
        }
        define(value, path, &scope, rawInteger: false, numeric: true, decimals: display ?? resolution)
        guard ok else { return nil }
        return .computed(
            ComputedNode(value: value, expression: expression, text: text, resolution: resolution, display: display))
    }

    mutating func parseSwitch(
        _ object: JSONObject, _ path: String, _ scope: inout Scope, _ position: inout Position
    ) -> Node? {
        checkKeys(
            object, path, allowed: ["switch", "cases", "offset", "comment"], known: Self.fieldKeys, kind: "a switch")
        checkOffset(object, path, position)
        guard let field = string(object["switch"], path + ".switch", "switch") else { return nil }
        guard let entry = scope.lookup(field) else {
            diagnostics.error(path + ".switch", unknownName(field, scope, what: "a switch"))
            return nil
        }
        guard let spec = entry.value, entry.isRawInteger || !spec.enumCases.isEmpty || entry.isFlag else {
            diagnostics.error(
                path + ".switch", "a switch needs an unscaled integer field or a flag bit; '\(field)' is neither")
            return nil
        }
        guard entry.definite else {
            diagnostics.error(path + ".switch", "'\(field)' is only defined in some arms of an earlier switch")
            return nil
        }
        guard let cases = object["cases"]?.object else {
            diagnostics.error(path, "a switch needs \"cases\": an object of value → fields, with a \"default\"")
            return nil
        }
        var arms: [SwitchCase] = []
        var defaultNodes: [Node]?
        var sawDefault = false
        var armScopes: [Scope] = []
        var armPositions: [Position] = []
        let start = position
        for (key, armValue) in cases.entries {
            let p = path + ".cases." + key
            if key == "default" {
                sawDefault = true
                if armValue.string == "reject" { continue }
                guard let array = armValue.array else {
                    diagnostics.error(p, "default is an array of fields ([] for none) or \"reject\"")
                    continue
                }
                var armScope = scope
                var armPosition = start
                defaultNodes = parseNodes(array, p, &armScope, &armPosition)
                armScopes.append(armScope)
                armPositions.append(armPosition)
                continue
            }
            let raw: Int64
            if entry.isFlag, key == "true" || key == "false" {
                raw = key == "true" ? 1 : 0
            } else if let number = Self.parseIntegerText(key) {
                raw = number
            } else if let named = spec.enumCases.first(where: { $0.name == key }) {
                raw = named.value
            } else {
                diagnostics.error(
                    p,
                    (entry.isFlag
                        ? "case \"\(key)\" of the flag '\(field)' is \"true\" or \"false\""
                        : "case \"\(key)\" is neither a number nor a name in '\(field)''s enum")
                        + suggestion(for: key, in: spec.enumCases.map(\.name)))
                continue
            }
            if let clash = arms.first(where: { $0.value == raw }) {
                diagnostics.error(p, "case \(key) repeats case \"\(clash.label)\"")
                continue
            }
            guard let array = armValue.array else {
                diagnostics.error(p, "a case is an array of fields ([] for none)")
                continue
            }
            var armScope = scope
            var armPosition = start
            let nodes = parseNodes(array, p, &armScope, &armPosition)
            armScopes.append(armScope)
            armPositions.append(armPosition)
            arms.append(SwitchCase(value: raw, label: key, path: p, nodes: nodes))
        }
        if !sawDefault {
            diagnostics.error(
                path + ".cases",
                "switch on '\(field)' has no \"default\": add one (an array of fields, [] for none, or \"reject\" to treat other values as malformed)"
            )
        }
        if arms.isEmpty { diagnostics.error(path + ".cases", "a switch needs at least one case") }
        // Names after the switch: definite if every arm defines them.
        var merged = scope
        let newNames = Set(armScopes.flatMap { $0.order }).subtracting(scope.order)
        let orderedNew = armScopes.flatMap { $0.order }.filter { newNames.contains($0) }
        for name in orderedNew where merged.lookup(name) == nil {
            let definitions = armScopes.compactMap { $0.lookup(name) }
            var first = definitions[0]
            first.definite = definitions.count == armScopes.count && definitions.allSatisfy(\.definite)
            first.isRawInteger = definitions.allSatisfy(\.isRawInteger)
            first.isNumeric = definitions.allSatisfy(\.isNumeric)
            first.decimals = definitions.contains { $0.decimals == nil } ? nil : definitions.compactMap(\.decimals).max()
            merged.define(name, first)
        }
        scope = merged
        // Position after: the same in every arm, or variable.
        if let end = armPositions.first(where: { if case .end = $0 { true } else { false } }) {
            position = end
        } else if let first = armPositions.first, armPositions.allSatisfy({ $0 == first }) {
            position = first
        } else {
            position = armPositions.isEmpty ? start : .variable
        }
        return .switchOn(
            SwitchNode(
                field: field, path: path, cases: arms, defaultNodes: defaultNodes, defaultPath: path + ".cases.default")
        )
    }
}
