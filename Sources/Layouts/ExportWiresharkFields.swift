import BluetoothPackets
import ByteReading
import PayloadDecoders

/// The Lua that decodes a payload: one block per node, in byte order, as the interpreter reads it.
extension ProtocolWriter {
    // MARK: - Decoding code

    mutating func emitNodes(_ nodes: [Node], into w: inout LuaWriter) {
        for node in nodes {
            if node.isOptional { w.line("if pos >= len then return end") }
            switch node {
            case .scalar(let s): emitScalar(s, into: &w)
            case .bits(let b): emitBits(b, into: &w)
            case .data(let d): emitData(d, into: &w)
            case .pad(let n):
                w.line("need(\(n), \"pad\")")
                w.line("pos = pos + \(n)")
            case .computed(let c): emitComputed(c, into: &w)
            case .switchOn(let s): emitSwitch(s, into: &w)
            }
        }
    }

    func readInteger(_ size: Int, _ signed: Bool, _ endian: Endianness, _ range: String) -> String {
        let le = endian == .little
        if size <= 4 { return "\(range):\(le ? "le_" : "")\(signed ? "int" : "uint")()" }
        return "\(range):\(le ? "le_" : "")\(signed ? "int64" : "uint64")():tonumber()"
    }

    /// The value expression for a raw integer `x` (a Lua number) of `spec`.
    func valueExpression(_ spec: ValueSpec, _ x: String) -> String {
        switch spec.style {
        case .hex(let digits): return "string.format(\"%0\(digits)X\", \(x))"
        case .flags: return "nil"
        case .number: break
        }
        if spec.label == nil, !spec.enumCases.isEmpty {
            let table = "{ " + spec.enumCases.map { "[\($0.value)] = \(luaString($0.name))" }.joined(separator: ", ") + " }"
            return "(\(table))[\(x)] or \(x)"
        }
        switch spec.conversion {
        case .identity(let add): return add == 0 ? x : "(\(x) + \(add))"
        case .reciprocal(let n, let addN): return "((\(x) + \(addN)) / \(n))"
        case .linear(let scale, let add, let decimals):
            let plain = "(\(x) * \(luaNumber(scale)) + \(luaNumber(add)))"
            return decimals.map { "bluetape.round(\(plain), \($0))" } ?? plain
        }
    }

    /// Stores a decoded integer value and queues its tree item(s).
    func emitValue(
        _ spec: ValueSpec, raw x: String, range: String, endian: Endianness, fromRange: Bool, isBool: Bool = false,
        into w: inout LuaWriter
    ) {
        let name = luaString(spec.name)
        let unit = spec.unit.map { ", unit = \(luaString($0))" } ?? ""
        w.line("raw[\(name)] = \(x)")
        if isBool {
            w.line("v[\(name)] = (\(x) ~= 0) ~= \(spec.inverted)")
            let value = fromRange ? "nil" : "v[\(name)]"
            w.line("items[#items + 1] = { F[\(name)], \(range), \(value), \(name), le = \(endian == .little) }")
            return
        }
        if let constant = spec.constant {
            w.line("if \(x) ~= \(constant) then bluetape.fail(pos, \(name), \"expected \(constant), found \" .. \(x)) end")
        }
        if case .flags(let names) = spec.style {
            w.line("v[\(name)] = {}")
            w.line("for bit = 0, 63 do")
            w.line("  if math.floor(\(x) / 2 ^ bit) % 2 == 1 then")
            let table = "{ " + names.sorted { $0.key < $1.key }.map { "[\($0.key)] = \(luaString($0.value))" }.joined(separator: ", ") + " }"
            w.line("    local flag = (\(table))[bit] or tostring(bit)")
            w.line("    v[\(name)][#v[\(name)] + 1] = flag")
            w.line("    items[#items + 1] = { F[\(name)], \(range), flag, \(name) }")
            w.line("  end")
            w.line("end")
            return
        }
        w.line("v[\(name)] = \(valueExpression(spec, x))")
        let plain = fromRange && spec.conversion == .unscaled && spec.style == .number
        w.line(
            "items[#items + 1] = { F[\(name)], \(range), \(plain ? "nil" : spec.enumCases.isEmpty || spec.label != nil ? "v[\(name)]" : x), \(name), le = \(endian == .little)\(unit) }"
        )
        if let labelName = spec.label {
            let table = "{ " + spec.enumCases.map { "[\($0.value)] = \(luaString($0.name))" }.joined(separator: ", ") + " }"
            w.line("v[\(luaString(labelName))] = (\(table))[\(x)]")
            w.line(
                "if v[\(luaString(labelName))] ~= nil then items[#items + 1] = { F[\(luaString(labelName))], \(range), v[\(luaString(labelName))], \(luaString(labelName)) } end"
            )
        }
    }

    mutating func emitScalar(_ s: ScalarNode, into w: inout LuaWriter) {
        let spec = s.value
        let size = s.type.size
        let name = luaString(spec.name)
        if let count = s.count {
            declareArrayElement(s)
            w.line("do")
            w.depth += 1
            switch count {
            case .fixed(let n): w.line("local count = \(n)")
            case .rest:
                w.line("local count = math.floor((len - pos) / \(size))")
                w.line("if (len - pos) % \(size) ~= 0 then bluetape.fail(pos + count * \(size), \(name), \"trailing bytes: \" .. ((len - pos) % \(size))) end")
            case .field(let source):
                w.line("local count = raw[\(luaString(source))]")
                w.line("if count < 0 or count > 512 then bluetape.fail(pos, \(name), \"count \" .. count .. \" is out of range (0…512)\") end")
            }
            w.line("need(count * \(size), \(name))")
            w.line("v[\(name)] = {}")
            w.line("for i = 1, count do")
            w.depth += 1
            w.line("local r = tvb(pos, \(size))")
            emitElement(s, into: &w)
            w.line("pos = pos + \(size)")
            w.depth -= 1
            w.line("end")
            w.depth -= 1
            w.line("end")
            return
        }
        w.line("need(\(size), \(name))")
        w.line("do")
        w.depth += 1
        w.line("local r = tvb(pos, \(size))")
        switch s.type {
        case .integer(let size, let signed):
            declareValue(spec, integer: (size, signed))
            w.line("local x = \(readInteger(size, signed, s.endian, "r"))")
            emitValue(spec, raw: "x", range: "r", endian: s.endian, fromRange: true, into: &w)
        case .ieee754, .medfloat:
            declareValue(spec, integer: nil)
            w.line("local value = \(floatExpression(s.type, s.endian, "r"))")
            emitFloat(spec, into: &w)
        }
        w.line("pos = pos + \(size)")
        w.depth -= 1
        w.line("end")
    }

    mutating func declareArrayElement(_ s: ScalarNode) {
        switch s.type {
        case .integer(let size, let signed): declareValue(s.value, integer: (size, signed))
        default: declareValue(s.value, integer: nil)
        }
    }

    func floatExpression(_ type: ScalarType, _ endian: Endianness, _ r: String) -> String {
        let le = endian == .little ? "le_" : ""
        switch type {
        case .ieee754: return "\(r):\(le)float()"
        case .medfloat(let size):
            let word = "\(r):\(le)uint()"
            return size == 2 ? "bluetape.sfloat(\(word))" : "bluetape.float32(\(word))"
        case .integer: return "nil"
        }
    }

    /// A float value `value` (nil for NaN and the medical specials) after its conversion.
    func emitFloat(_ spec: ValueSpec, into w: inout LuaWriter) {
        let name = luaString(spec.name)
        let unit = spec.unit.map { ", unit = \(luaString($0))" } ?? ""
        w.line("if value ~= nil and value ~= value then value = nil end")
        switch spec.conversion {
        case .identity(let add) where add == 0: break
        case .identity(let add): w.line("if value ~= nil then value = value + \(add) end")
        case .reciprocal(let n, let addN): w.line("if value ~= nil then value = (value + \(addN)) / \(n) end")
        case .linear(let scale, let add, _): w.line("if value ~= nil then value = value * \(luaNumber(scale)) + \(luaNumber(add)) end")
        }
        w.line("v[\(name)] = value")
        w.line("if value ~= nil and value ~= math.huge and value ~= -math.huge then items[#items + 1] = { F[\(name)], r, value, \(name)\(unit) } end")
    }

    func emitElement(_ s: ScalarNode, into w: inout LuaWriter) {
        let spec = s.value
        let name = luaString(spec.name)
        switch s.type {
        case .integer(let size, let signed):
            w.line("local x = \(readInteger(size, signed, s.endian, "r"))")
            w.line("local value = \(valueExpression(spec, "x"))")
            w.line("v[\(name)][i] = value")
            let shown = spec.enumCases.isEmpty ? "value" : "x"
            w.line("items[#items + 1] = { F[\(name)], r, \(shown), \(name) }")
        default:
            w.line("local value = \(floatExpression(s.type, s.endian, "r"))")
            w.line("if value ~= nil and value ~= value then value = nil end")
            w.line("v[\(name)][i] = value")
            w.line("if value ~= nil and value ~= math.huge and value ~= -math.huge then items[#items + 1] = { F[\(name)], r, value, \(name) } end")
        }
    }

    mutating func emitBits(_ b: BitsNode, into w: inout LuaWriter) {
        let size = b.type.size
        let first = luaString(b.container?.name ?? b.parts.first?.value.name ?? "bits")
        w.line("need(\(size), \(first))")
        w.line("do")
        w.depth += 1
        w.line("local r = tvb(pos, \(size))")
        let le = b.endian == .little
        if let c = b.container {
            declareValue(c, integer: (size, false))
            w.line("local x = \(readInteger(size, false, b.endian, "r"))")
            emitValue(c, raw: "x", range: "r", endian: b.endian, fromRange: true, into: &w)
        }
        for part in b.parts {
            let spec = part.value
            // Plain parts are registered with their mask, so Wireshark shows the bits themselves.
            let plain =
                size <= 8 && spec.conversion == .unscaled && spec.style == .number && spec.label == nil && !spec.inverted
                && spec.nullWhen == nil
            let mask = plain ? part.mask << UInt64(part.shift) : nil
            declareValue(
                spec, integer: (plain ? size : (part.width + 7) / 8, false), mask: mask, maskBits: size * 8,
                isBool: part.isBool)
            w.line("local \(luaIdentifier(spec.name)) = bluetape.bits(r, \(le), \(part.shift), \(part.width))")
            emitValue(
                spec, raw: luaIdentifier(spec.name), range: "r", endian: b.endian, fromRange: plain, isBool: part.isBool,
                into: &w)
        }
        w.line("pos = pos + \(size)")
        w.depth -= 1
        w.line("end")
    }

    mutating func emitData(_ d: DataNode, into w: inout LuaWriter) {
        let name = luaString(d.name)
        let spec = ValueSpec(name: d.name, path: d.path, unit: nil, summary: d.summary)
        switch d.encoding {
        case .hex: declare(d.name, "F[\(name)] = ProtoField.bytes(\(fieldAbbrev(d.name)), \(label(spec)))")
        default: declare(d.name, "F[\(name)] = ProtoField.string(\(fieldAbbrev(d.name)), \(label(spec)))")
        }
        w.line("do")
        w.depth += 1
        switch d.length {
        case .fixed(let n): w.line("local n = \(n)")
        case .rest: w.line("local n = len - pos")
        case .field(let source):
            w.line("local n = raw[\(luaString(source))]")
            w.line("if n < 0 or n > 65535 then bluetape.fail(pos, \(name), \"length \" .. n .. \" is out of range\") end")
        }
        w.line("need(n, \(name))")
        w.line("local r = tvb:range(pos, n)")
        switch d.encoding {
        case .hex:
            w.line("v[\(name)] = n > 0 and r:bytes():tohex():lower() or \"\"")
            w.line("if n > 0 then items[#items + 1] = { F[\(name)], r, nil, \(name) } end")
        case .ascii, .utf8:
            w.line("local text = n > 0 and r:raw() or \"\"")
            if case .fixed = d.length { w.line("text = string.gsub(text, \"%z+$\", \"\")") }
            if d.encoding == .ascii {
                w.line("local bad = string.find(text, \"[\\128-\\255]\")")
                w.line("if bad then bluetape.fail(pos + bad - 1, \(name), \"not ASCII\") end")
            }
            w.line("v[\(name)] = text")
            w.line("items[#items + 1] = { F[\(name)], n > 0 and r or tvb(pos, 0), text, \(name) }")
        }
        w.line("pos = pos + n")
        w.depth -= 1
        w.line("end")
    }

    mutating func emitComputed(_ c: ComputedNode, into w: inout LuaWriter) {
        let name = luaString(c.value.name)
        declareValue(c.value, integer: nil)
        let unit = c.value.unit.map { ", unit = \(luaString($0))" } ?? ""
        w.line("do")
        w.depth += 1
        w.line("local value = \(luaFormula(c.expression))")
        if let display = c.display {
            w.line("value = bluetape.displayed(value, \(c.resolution.map(String.init) ?? "nil"), \(display))")
        } else if let resolution = c.resolution {
            w.line("value = bluetape.round(value, \(resolution))")
        }
        w.line("if value ~= value or value == math.huge or value == -math.huge then value = nil end")
        w.line("v[\(name)] = value")
        w.line("if value ~= nil then items[#items + 1] = { F[\(name)], tvb(0, 0), value, \(name)\(unit) } end")
        w.depth -= 1
        w.line("end")
    }

    func luaFormula(_ expression: Expression) -> String {
        var stack: [String] = []
        for token in expression.tokens {
            switch token {
            case .number(let d): stack.append(luaNumber(d))
            case .name(let n): stack.append("(v[\(luaString(n))] or (0 / 0))")
            case .register: stack.append("(0 / 0)")
            case .negate: stack.append("(-\(stack.removeLast()))")
            case .add, .subtract, .multiply, .divide:
                let b = stack.removeLast()
                let a = stack.removeLast()
                let op = token == .add ? "+" : token == .subtract ? "-" : token == .multiply ? "*" : "/"
                stack.append("(\(a) \(op) \(b))")
            }
        }
        return stack.last ?? "(0 / 0)"
    }

    mutating func emitSwitch(_ s: SwitchNode, into w: inout LuaWriter) {
        var first = true
        for arm in s.cases {
            w.line("\(first ? "if" : "elseif") raw[\(luaString(s.field))] == \(arm.value) then")
            first = false
            w.depth += 1
            emitNodes(arm.nodes, into: &w)
            w.depth -= 1
        }
        w.line(first ? "do" : "else")
        w.depth += 1
        if let d = s.defaultNodes {
            emitNodes(d, into: &w)
        } else {
            w.line("bluetape.fail(pos, \(luaString(s.field)), \"no case for \" .. tostring(raw[\(luaString(s.field))]))")
        }
        w.depth -= 1
        w.line("end")
    }
}
