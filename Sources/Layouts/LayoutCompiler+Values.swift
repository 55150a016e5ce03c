import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// What scalars, bit fields and computed fields share: name, unit, scale, enum, const and rules.
extension LayoutCompiler {
    mutating func parseValue(
        _ object: JSONObject, _ path: String, type: ScalarType?, width: Int?, scope: inout Scope, needsName: Bool
    ) -> ValueSpec? {
        guard let nameValue = object["name"] else {
            if needsName { diagnostics.error(path, "a field needs a \"name\"") }
            return nil
        }
        guard let name = string(nameValue, path + ".name", "name") else { return nil }
        var value = ValueSpec(name: name, path: path, unit: nil, summary: object["description"]?.string ?? "")
        if !isSnakeCase(name) {
            let suggested = snakeCased(name)
            diagnostics.error(
                path + ".name",
                "\"\(name)\" is not snake_case" + (isSnakeCase(suggested) ? " (try \"\(suggested)\")" : ""))
        }
        if let u = object["unit"], let unit = string(u, path + ".unit", "unit") {
            value.unit = UnitTable.canonical(unit) ?? unit
            if let suffix = UnitTable.suffix(for: unit) {
                if !name.hasSuffix("_" + suffix) {
                    diagnostics.error(
                        path + ".name",
                        "\"\(name)\" has unit \(unit) but does not end in _\(suffix) (e.g. \"\(Self.stripUnit(name))_\(suffix)\")"
                    )
                }
            } else {
                diagnostics.warning(
                    path + ".unit", "unit '\(unit)' is not in the unit table, so the name's suffix is not checked")
            }
        } else if let implied = UnitTable.unit(forNameSuffixOf: name) {
            diagnostics.warning(path + ".name", "\"\(name)\" ends like a unit (\(implied)) but has no \"unit\"")
        }

        let isInteger = type?.isInteger ?? (width != nil)
        // Scale and add.
        let scaleValue = object["scale"]
        let addValue = object["add"]
        if scaleValue != nil || addValue != nil {
            value.conversion = parseConversion(scaleValue, addValue, path, integer: isInteger)
        }
        // Enum.
        if let e = object["enum"] {
            if !value.conversion.isIdentity || scaleValue != nil {
                diagnostics.error(path + ".enum", "an enum field cannot have a scale or add")
            }
            if let object = e.object {
                var seen: [Int64: String] = [:]
                for (key, nameValue) in object.entries {
                    let p = path + ".enum." + key
                    guard let raw = Self.parseIntegerText(key) else {
                        diagnostics.error(p, "enum keys are the raw numbers (\"1\", \"0x1F\"), not \"\(key)\"")
                        continue
                    }
                    guard let caseName = nameValue.string, !caseName.isEmpty else {
                        diagnostics.error(p, "an enum value's name is a non-empty string")
                        continue
                    }
                    if !fits(raw, type: type, width: width) {
                        diagnostics.error(p, "\(key) does not fit \(type?.name ?? "\(width ?? 0) bits")")
                    }
                    if let previous = seen[raw] {
                        diagnostics.error(p, "\(key) is listed twice (also as \"\(previous)\")")
                        continue
                    }
                    if value.enumCases.contains(where: { $0.name == caseName }) {
                        diagnostics.error(p, "the name \"\(caseName)\" is used for two values")
                    }
                    // snake_case, or a code the device's documentation writes in capitals ("T1").
                    let isCode =
                        caseName.first?.isUppercase == true
                        && caseName.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
                    if !isSnakeCase(caseName), !isCode {
                        diagnostics.warning(p, "enum name \"\(caseName)\" is not snake_case")
                    }
                    seen[raw] = caseName
                    value.enumCases.append((raw, caseName))
                }
                if value.enumCases.isEmpty && object.count == 0 {
                    diagnostics.error(path + ".enum", "an enum lists at least one value")
                }
            } else {
                diagnostics.error(
                    path + ".enum", "enum is an object of raw value → name: {\"0\": \"off\", \"1\": \"on\"}")
            }
        }
        parseStyle(object, path, &value, type: type, width: width)
        // Const.
        if let c = object["const"] {
            if let raw = integer(c, path + ".const", "const") {
                if !fits(raw, type: type, width: width) {
                    diagnostics.error(path + ".const", "\(raw) does not fit \(type?.name ?? "\(width ?? 0) bits")")
                }
                value.constant = raw
            }
        }
        // Rules.
        value.minimum = number(object["min"], path + ".min", "min")
        value.maximum = number(object["max"], path + ".max", "max")
        if !value.enumCases.isEmpty, object["min"] != nil || object["max"] != nil {
            diagnostics.error(path, "min and max do not apply to an enum field: its enum lists the allowed values")
        }
        if let low = value.minimum, let high = value.maximum, low > high {
            diagnostics.error(path + ".min", "min \(low) is more than max \(high)")
        }
        if let j = object["max_jump"] {
            if let jump = number(j, path + ".max_jump", "max_jump") {
                if jump <= 0 { diagnostics.error(path + ".max_jump", "max_jump must be more than 0") }
                value.maxJump = jump
            }
        }
        if let c = object["counter"] {
            value.counter = parseCounter(c, path + ".counter", value, type: type, width: width)
        }
        checkBounds(value, path, type: type, width: width)
        return value
    }

    /// `format`, `flags`, `label` and `null_when`: how the raw integer is written, and when it is null.
    mutating func parseStyle(_ object: JSONObject, _ path: String, _ value: inout ValueSpec, type: ScalarType?, width: Int?) {
        let unsigned: Bool
        let bits: Int
        switch (type, width) {
        case (.integer(let size, let signed)?, _): (unsigned, bits) = (!signed, size * 8)
        case (nil, let w?): (unsigned, bits) = (true, w)
        default: (unsigned, bits) = (false, 0)
        }
        let plain = value.conversion == .unscaled && value.enumCases.isEmpty
        if let f = object["format"] {
            if f.string != "hex" {
                diagnostics.error(path + ".format", "format is \"hex\" (upper-case hex digits), not \(f.jsonText)")
            } else if !unsigned || !plain {
                diagnostics.error(path + ".format", "format \"hex\" applies to an unsigned integer without scale or enum")
            } else {
                value.style = .hex(digits: (bits + 3) / 4)
            }
        }
        if let f = object["flags"] {
            guard let entries = f.object, !entries.entries.isEmpty else {
                diagnostics.error(path + ".flags", "flags is an object of bit number → name: {\"0\": \"t1\", \"3\": \"t4\"}")
                return
            }
            if !unsigned || !plain || object["format"] != nil {
                diagnostics.error(path + ".flags", "flags apply to an unsigned integer without scale, enum or format")
                return
            }
            var names: [Int: String] = [:]
            for (key, name) in entries.entries {
                guard let bit = Self.parseIntegerText(key), bit >= 0, bit < Int64(bits) else {
                    diagnostics.error(path + ".flags." + key, "\(key) is not a bit of this field (0…\(bits - 1))")
                    continue
                }
                guard let text = name.string, !text.isEmpty, !names.values.contains(text) else {
                    diagnostics.error(path + ".flags." + key, "a flag's name is a non-empty string used once")
                    continue
                }
                names[Int(bit)] = text
            }
            value.style = .flags(names)
        }
        if let l = object["label"] {
            if let text = l.string, isSnakeCase(text) {
                if value.enumCases.isEmpty {
                    diagnostics.error(path + ".label", "a label names the field the enum's names go to: add an \"enum\"")
                } else {
                    value.label = text
                }
            } else {
                diagnostics.error(path + ".label", "label is the snake_case name of the field the enum's names go to")
            }
        }
        if let n = object["null_when"] {
            guard let condition = n.object, let field = condition["field"]?.string, let equals = condition["equals"] else {
                diagnostics.error(
                    path + ".null_when", "null_when is {\"field\": NAME, \"equals\": a value or a list of values}")
                return
            }
            checkKeys(condition, path + ".null_when", allowed: ["field", "equals", "comment"], kind: "a null_when")
            var values: [FieldValue] = []
            for item in equals.array ?? [equals] {
                switch item {
                case .string(let s): values.append(.string(s))
                case .bool(let b): values.append(.bool(b))
                case .number(let text):
                    if let i = Int64(text) { values.append(.int(i)) } else if let d = Double(text) { values.append(.double(d)) }
                default: diagnostics.error(path + ".null_when.equals", "null_when compares with numbers, names or true/false")
                }
            }
            value.nullWhen = NullCondition(field: field, values: values)
            nullConditions.append((path + ".null_when.field", field))
        }
    }

    /// min and max must leave at least one value the field can hold.
    mutating func checkBounds(_ value: ValueSpec, _ path: String, type: ScalarType?, width: Int?) {
        guard value.minimum != nil || value.maximum != nil, value.enumCases.isEmpty else { return }
        if let low = value.minimum, let high = value.maximum, low > high { return }  // reported already
        let range = [value.minimum.map { "min \(formatNumber($0))" }, value.maximum.map { "max \(formatNumber($0))" }]
            .compactMap { $0 }.joined(separator: " and ")
        let holder = width.map { "\($0) bits" } ?? type?.name ?? "this field"
        let scaled = value.conversion.isIdentity ? "" : " at this scale"
        if let width {
            if value.rawBounds(.bit(width: width, isBool: false)) == nil {
                diagnostics.error(path, "no value \(holder) can hold\(scaled) meets \(range)")
            }
        } else if let type, type.isInteger {
            if value.rawBounds(.integer(type)) == nil {
                diagnostics.error(path, "no value a \(holder) can hold\(scaled) meets \(range)")
            }
        } else if let type {
            var open = value
            open.minimum = nil
            open.maximum = nil
            let (low, high) = open.floatBounds(type)
            if (value.minimum ?? -.infinity) > high || (value.maximum ?? .infinity) < low {
                diagnostics.error(path, "no value a \(holder) can hold\(scaled) meets \(range)")
            }
        }
    }

    static func stripUnit(_ name: String) -> String {
        guard let underscore = name.lastIndex(of: "_") else { return name }
        let suffix = name[name.index(after: underscore)...]
        return UnitTable.suffixes.contains(where: { $0.suffix == suffix }) ? String(name[..<underscore]) : name
    }

    func fits(_ raw: Int64, type: ScalarType?, width: Int?) -> Bool {
        if let width { return raw >= 0 && (width == 64 || raw < Int64(1) << Int64(width)) }
        guard let type, type.isInteger else { return true }
        let range = type.rawRange
        return raw >= range.min && (raw < 0 || UInt64(raw) <= range.max)
    }

    mutating func parseConversion(
        _ scale: JSONValue?, _ add: JSONValue?, _ path: String, integer: Bool
    ) -> Conversion {
        var addDecimal = ExactDecimal(significand: 0, exponent: 0)
        var addDouble = 0.0
        if let add {
            guard case .number(let text) = add, let d = Double(text) else {
                diagnostics.error(path + ".add", "add must be a number, not \(add.typeName)")
                return .unscaled
            }
            addDouble = d
            addDecimal = ExactDecimal(text) ?? ExactDecimal(significand: 1, exponent: 1000)
        }
        var reciprocal: Int64? = scale == nil ? 1 : nil
        var scaleDouble = 1.0
        if let scale {
            switch scale {
            case .number(let text):
                guard let d = Double(text), d > 0, d.isFinite else {
                    diagnostics.error(path + ".scale", "scale must be a number more than 0")
                    return .unscaled
                }
                scaleDouble = d
                if let exact = ExactDecimal(text), let (p, q) = exact.fraction, p == 1 { reciprocal = q }
            case .string(let text) where text.hasPrefix("1/"):
                guard let n = Int64(text.dropFirst(2)), n > 0 else {
                    diagnostics.error(
                        path + ".scale", "a fraction scale is written \"1/N\" with N a positive whole number")
                    return .unscaled
                }
                reciprocal = n
                scaleDouble = 1 / Double(n)
            default:
                diagnostics.error(
                    path + ".scale", "scale is a number (0.01) or a fraction \"1/N\", not \(scale.jsonText)")
                return .unscaled
            }
        }
        if reciprocal == 1, addDecimal.isInteger, let a = addDecimal.fraction?.p, integer {
            return .identity(add: a)
        }
        if let n = reciprocal, let addN = addDecimal.times(n) {
            return .reciprocal(n: n, addN: addN)
        }
        // Rounded to the decimals the scale and add are written with: 0.35 × -3 is -1.05. A scale
        // written as a fraction ("1/3") has no finite resolution, so such values are not rounded.
        var decimals: Int? = addDecimal.exponent >= 1000 ? nil : max(0, -addDecimal.exponent)
        if let scale {
            if case .number(let text) = scale, let exact = ExactDecimal(text), let d = decimals {
                decimals = max(d, max(0, -exact.exponent))
            } else {
                decimals = nil
            }
        }
        return .linear(
            scale: scaleDouble, add: addDouble,
            decimals: decimals.flatMap { $0 <= DecimalRounding.maximumDecimals ? $0 : nil })
    }

    mutating func parseCounter(
        _ value: JSONValue, _ path: String, _ spec: ValueSpec, type: ScalarType?, width: Int?
    ) -> CounterSpec? {
        var modulo: Int64?
        if let width { modulo = width >= 63 ? nil : Int64(1) << Int64(width) }
        if case .integer(let size, let signed)? = type, !signed, size < 8 { modulo = Int64(1) << Int64(size * 8) }
        guard spec.conversion.isIdentity, spec.enumCases.isEmpty, type?.isInteger ?? (width != nil) else {
            diagnostics.error(path, "a counter must be an unscaled integer field without an enum")
            return nil
        }
        var step: Int64 = 1
        switch value {
        case .bool(true): break
        case .bool(false): return nil
        case .object(let object):
            checkKeys(object, path, allowed: ["step", "modulo", "comment"], kind: "a counter")
            if let s = object["step"] { step = integer(s, path + ".step", "step") ?? 1 }
            if let m = object["modulo"] { modulo = integer(m, path + ".modulo", "modulo") }
            if step < 1 { diagnostics.error(path + ".step", "step must be 1 or more") }
        default:
            diagnostics.error(path, "counter is true or {\"step\": 1, \"modulo\": 256}")
            return nil
        }
        guard let modulo, modulo > 1 else {
            diagnostics.error(path, "this counter needs a \"modulo\" (the value it wraps at, e.g. 256)")
            return nil
        }
        return CounterSpec(step: step, modulo: modulo)
    }
}
