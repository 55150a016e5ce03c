import ByteReading
import JSON
import PayloadDecoders

/// A value that cannot be encoded with a layout: which field, and why.
public struct LayoutEncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field name ("" for the payload as a whole).
    public var field: String
    public var message: String

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

extension Layout {
    /// Encodes field values, given as a JSON object (`{"nonce": 1, "temperature_c": 23.45, …}`).
    ///
    /// Every field the payload carries must be given, except `const` fields and length or count
    /// fields (derived from what they measure). Enum fields take their name or the raw number.
    /// Computed fields may be given; they must then equal what the formula gives.
    public func encode(_ values: JSONValue) throws(LayoutEncodeError) -> [UInt8] {
        guard let object = values.object else {
            throw LayoutEncodeError(
                field: "", "the values are a JSON object of field name → value, not \(values.typeName)")
        }
        var fields = Fields()
        for (key, value) in object.entries {
            fields.append(key, try Self.fieldValue(value, key))
        }
        return try encode(fields)
    }

    /// Encodes field values (for example a reading this layout decoded).
    public func encode(_ fields: Fields) throws(LayoutEncodeError) -> [UInt8] {
        var encoder = LayoutEncoder(layout: self, fields: fields)
        try encoder.encode(nodes)
        let extra = fields.names.filter { !encoder.used.contains($0) }
        if let first = extra.first {
            let known = Set(allValueNames)
            throw LayoutEncodeError(
                field: first,
                known.contains(first)
                    ? "is not part of the payload with these values (it belongs to another switch case)"
                    : "no such field in \(id)" + suggestion(for: first, in: known))
        }
        let bytes = encoder.writer.bytes
        if let length = match.length ?? program.lengthRule, !length.contains(bytes.count) {
            throw LayoutEncodeError(
                field: "",
                "the values give \(bytes.count) bytes; \(id) takes \(length.lowerBound == length.upperBound ? "\(length.lowerBound)" : "\(length.lowerBound)…\(length.upperBound)")"
            )
        }
        if !match.prefixes.isEmpty, !match.prefixes.contains(where: { bytes.starts(with: $0) }) {
            throw LayoutEncodeError(
                field: "",
                "the encoded bytes do not start with the match prefix \(match.prefixes.map { Hex.encode($0) }.joined(separator: " or "))"
            )
        }
        return bytes
    }

    /// Every value name the layout can produce, in order.
    var allValueNames: [String] {
        var names: [String] = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                node.forEachValue { if !names.contains($0.name) { names.append($0.name) } }
                if case .data(let d) = node, !names.contains(d.name) { names.append(d.name) }
                if case .switchOn(let s) = node {
                    for arm in s.cases { visit(arm.nodes.filter { if case .data = $0 { true } else { false } }) }
                    visit((s.defaultNodes ?? []).filter { if case .data = $0 { true } else { false } })
                }
            }
        }
        visit(nodes)
        return names
    }

    /// A JSON value as a field value: whole numbers as .int, others as .double.
    static func fieldValue(_ value: JSONValue, _ key: String) throws(LayoutEncodeError) -> FieldValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let text):
            if let i = Int64(text) { return .int(i) }
            if UInt64(text) != nil { return .string(text) }
            guard let d = Double(text) else { throw LayoutEncodeError(field: key, "\(text) is not a number") }
            return .double(d)
        case .array(let elements):
            var list: [FieldValue] = []
            for element in elements { list.append(try fieldValue(element, key)) }
            return .list(list)
        case .object:
            throw LayoutEncodeError(field: key, "an object is not a field value")
        }
    }
}

/// Walks a layout's tree and writes the bytes for a set of values.
struct LayoutEncoder {
    let layout: Layout
    let values: [String: FieldValue]
    var used: Set<String> = []
    var writer = ByteWriter(capacity: 32)
    /// Numbers of the values written so far (for computed fields).
    var numbers: [String: Double] = [:]
    /// Raw integers written so far (for switches).
    var raws: [String: Int64] = [:]

    init(layout: Layout, fields: Fields) {
        self.layout = layout
        var values: [String: FieldValue] = [:]
        for entry in fields.entries where values[entry.name] == nil { values[entry.name] = entry.value }
        self.values = values
    }

    /// Set when an optional field was not given: the payload ends there.
    var stopped = false

    /// True when a value is given for something this node writes.
    private func isGiven(_ node: Node) -> Bool {
        switch node {
        case .scalar(let s): return values[s.value.name] != nil
        case .data(let d): return values[d.name] != nil
        case .bits(let b):
            return b.container.map { values[$0.name] != nil } == true || b.parts.contains { values[$0.value.name] != nil }
        default: return true
        }
    }

    mutating func encode(_ nodes: [Node]) throws(LayoutEncodeError) {
        for (index, node) in nodes.enumerated() {
            if stopped { return }
            if node.isOptional, !isGiven(node) {
                stopped = true
                return
            }
            switch node {
            case .scalar(let s):
                if let count = s.count {
                    try encodeArray(s, count, following: nodes[(index + 1)...])
                } else if !s.type.isInteger {
                    try encodeFloat(s)
                } else {
                    let raw = try rawValue(
                        s.value, type: s.type, width: nil, isBool: false, following: nodes[(index + 1)...])
                    try write(raw, s.type, s.endian, s.value)
                }
            case .bits(let b):
                try encodeBits(b, following: nodes[(index + 1)...])
            case .data(let d):
                try encodeData(d)
            case .pad(let n):
                writer.append(repeatElement(0, count: n))
            case .computed(let c):
                let result = c.finish(c.expression.evaluate { numbers[$0] })
                numbers[c.value.name] = result
                if let given = values[c.value.name] {
                    used.insert(c.value.name)
                    let ok: Bool
                    switch given {
                    case .null: ok = !result.isFinite
                    default:
                        if let g = given.number {
                            ok = g == result || (g - result).magnitude <= 1e-9 * max(g.magnitude, result.magnitude)
                        } else {
                            ok = false
                        }
                    }
                    if !ok {
                        throw LayoutEncodeError(
                            field: c.value.name,
                            "is computed as \(c.text) = \(result.isFinite ? String(result) : "null"), not \(describe(given))"
                        )
                    }
                }
            case .switchOn(let s):
                let value = raws[s.field] ?? 0
                if let arm = s.cases.first(where: { $0.value == value }) {
                    try encode(arm.nodes)
                } else if let d = s.defaultNodes {
                    try encode(d)
                } else {
                    throw LayoutEncodeError(
                        field: s.field,
                        "\(value) has no case (cases: \(s.cases.map(\.label).joined(separator: ", ")))")
                }
            }
        }
    }

    private func describe(_ value: FieldValue) -> String {
        switch value {
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .string(let s): "\"\(s)\""
        case .bool(let b): String(b)
        case .list(let l): "a list of \(l.count)"
        case .null: "null"
        }
    }

    /// The length or count a later field needs from `name`, taken from that field's value.
    private func derivedLength(of name: String, following: ArraySlice<Node>) -> Int64? {
        for node in following {
            switch node {
            case .data(let d) where d.length == .field(name):
                guard let value = values[d.name] else { return nil }
                return (try? dataBytes(value, d)).map { Int64($0.count) }
            case .scalar(let s) where s.count == .field(name):
                if case .list(let l)? = values[s.value.name] { return Int64(l.count) }
                return nil
            default: continue
            }
        }
        return nil
    }

    private mutating func rawValue(
        _ spec: ValueSpec, type: ScalarType, width: Int?, isBool: Bool, following: ArraySlice<Node>
    ) throws(LayoutEncodeError) -> Int64 {
        let raw: Int64
        if let label = spec.label { used.insert(label) }  // derived from the value
        if let given = values[spec.name] {
            used.insert(spec.name)
            raw = try LayoutEncoder.raw(given, spec, type: type, width: width, isBool: isBool)
        } else if let constant = spec.constant {
            raw = constant
        } else if let derived = derivedLength(of: spec.name, following: following) {
            raw = derived
        } else {
            throw LayoutEncodeError(field: spec.name, "no value given")
        }
        if let constant = spec.constant, raw != constant {
            throw LayoutEncodeError(field: spec.name, "must be \(constant) (const), not \(raw)")
        }
        raws[spec.name] = raw
        if case .integer(8, false) = type, raw < 0 {
            numbers[spec.name] = Double(UInt64(bitPattern: raw))
        } else {
            numbers[spec.name] = isBool ? Double(raw) : spec.conversion.number(raw)
        }
        return raw
    }

    /// The raw integer for a value of an integer field (or bit field of `width` bits).
    static func raw(
        _ value: FieldValue, _ spec: ValueSpec, type: ScalarType, width: Int?, isBool: Bool
    )
        throws(LayoutEncodeError) -> Int64
    {
        let raw: Int64
        switch value {
        case _ where spec.style != .number && spec.style.raw(value) != nil:
            raw = spec.style.raw(value)!
        case .null where spec.nullWhen != nil:
            raw = 0  // a value the condition makes null goes on the air as 0
        case .string(let name) where !spec.enumCases.isEmpty:
            guard let match = spec.enumCases.first(where: { $0.name == name }) else {
                throw LayoutEncodeError(
                    field: spec.name,
                    "\"\(name)\" is not one of its names (\(spec.enumCases.map(\.name).joined(separator: ", ")))")
            }
            raw = match.value
        case .string(let text):
            if case .integer(8, false) = type, spec.conversion.isIdentity, let big = UInt64(text) {
                return Int64(bitPattern: big)
            }
            guard let number = LayoutCompiler.parseIntegerText(text) else {
                throw LayoutEncodeError(field: spec.name, "\"\(text)\" is not a number")
            }
            raw = number
        case .bool(let b):
            guard isBool || spec.conversion.isIdentity else {
                throw LayoutEncodeError(field: spec.name, "takes a number, not true/false")
            }
            raw = b != spec.inverted ? 1 : 0
        case .int(let i) where spec.conversion.isIdentity:
            guard case .identity(let add) = spec.conversion else { return 0 }
            let (difference, overflow) = i.subtractingReportingOverflow(add)
            if overflow { throw LayoutEncodeError(field: spec.name, "\(i) is out of range") }
            raw = difference
        case .int, .double:
            let number = value.number!
            guard let r = spec.conversion.raw(for: number) else {
                if let nearest = spec.conversion.raw(for: number, nearest: true) {
                    throw LayoutEncodeError(
                        field: spec.name,
                        "\(number) cannot be written exactly with this scale; the nearest value is \(spec.conversion.value(nearest).numberText)"
                    )
                }
                throw LayoutEncodeError(field: spec.name, "\(number) is out of range")
            }
            raw = r
        case .null, .list:
            throw LayoutEncodeError(field: spec.name, "takes a number")
        }
        // Range.
        let (low, high): (Int64, UInt64)
        if let width {
            (low, high) = (0, width == 64 ? .max : (UInt64(1) << UInt64(width)) - 1)
        } else {
            (low, high) = type.rawRange
        }
        if raw < low || (raw >= 0 && UInt64(raw) > high) {
            let lowValue = spec.conversion.value(low).numberText
            let highValue = Int64(exactly: high).map { spec.conversion.value($0).numberText } ?? String(high)
            throw LayoutEncodeError(
                field: spec.name,
                "\(value.numberText) is out of range: \(width.map { "\($0) bits" } ?? type.name) holds \(lowValue)…\(highValue)"
            )
        }
        return raw
    }

    private mutating func write(
        _ raw: Int64, _ type: ScalarType, _ endian: Endianness, _ spec: ValueSpec
    ) throws(LayoutEncodeError) {
        writer.unsigned(UInt64(bitPattern: raw), size: type.size, endian)
    }

    private mutating func encodeBits(_ b: BitsNode, following: ArraySlice<Node>) throws(LayoutEncodeError) {
        var word: UInt128 = 0
        var containerGiven = false
        if let c = b.container, values[c.name] != nil || c.constant != nil {
            word = UInt128(
                UInt64(bitPattern: try rawValue(c, type: b.type, width: nil, isBool: false, following: following)))
            containerGiven = true
        }
        for part in b.parts {
            let mask = UInt128(part.mask)
            let fromContainer = Int64(truncatingIfNeeded: UInt64(truncatingIfNeeded: (word >> UInt128(part.shift)) & mask))
            let raw: Int64
            if values[part.value.name] == nil, containerGiven {
                raw = fromContainer
                raws[part.value.name] = raw
                numbers[part.value.name] = part.isBool ? Double(raw) : part.value.conversion.number(raw)
            } else {
                raw = try rawValue(
                    part.value, type: b.type, width: part.width, isBool: part.isBool, following: following)
                if containerGiven, raw != fromContainer {
                    throw LayoutEncodeError(
                        field: part.value.name, "disagrees with \(b.container!.name) (whose bits give \(fromContainer))"
                    )
                }
            }
            word = word & ~(mask << UInt128(part.shift)) | (UInt128(UInt64(bitPattern: raw)) & mask) << UInt128(part.shift)
        }
        if let c = b.container, !containerGiven {
            raws[c.name] = Int64(truncatingIfNeeded: word)
            numbers[c.name] = c.conversion.number(Int64(truncatingIfNeeded: word))
        }
        if b.type.size <= 8 {
            writer.unsigned(UInt64(truncatingIfNeeded: word), size: b.type.size, b.endian)
        } else {
            var bytes = (0..<b.type.size).map { UInt8(truncatingIfNeeded: word >> UInt128($0 * 8)) }
            if b.endian == .big { bytes.reverse() }
            writer.append(bytes)
        }
    }

    private func dataBytes(_ value: FieldValue, _ d: DataNode) throws(LayoutEncodeError) -> [UInt8] {
        guard case .string(let text) = value else {
            throw LayoutEncodeError(
                field: d.name, d.encoding == .hex ? "takes hex bytes as a string" : "takes a string")
        }
        switch d.encoding {
        case .hex:
            guard let bytes = Hex.decode(text) else { throw LayoutEncodeError(field: d.name, "\"\(text)\" is not hex") }
            return bytes
        case .ascii:
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else { throw LayoutEncodeError(field: d.name, "is not ASCII") }
            return Array(text.utf8)
        case .utf8:
            return Array(text.utf8)
        }
    }

    private mutating func encodeData(_ d: DataNode) throws(LayoutEncodeError) {
        guard let value = values[d.name] else { throw LayoutEncodeError(field: d.name, "no value given") }
        used.insert(d.name)
        var bytes = try dataBytes(value, d)
        switch d.length {
        case .fixed(let n):
            if d.encoding == .hex {
                guard bytes.count == n else {
                    throw LayoutEncodeError(field: d.name, "has \(bytes.count) bytes; it takes \(n)")
                }
            } else {
                guard bytes.count <= n else {
                    throw LayoutEncodeError(field: d.name, "has \(bytes.count) bytes; it takes at most \(n)")
                }
                if bytes.last == 0 {
                    throw LayoutEncodeError(field: d.name, "ends with NUL, which fixed-length text cannot keep")
                }
                bytes += repeatElement(0, count: n - bytes.count)
            }
        case .rest: break
        case .field(let source):
            if let expected = raws[source], expected != bytes.count {
                throw LayoutEncodeError(field: d.name, "has \(bytes.count) bytes but \(source) says \(expected)")
            }
        }
        writer.append(bytes)
    }

    private mutating func encodeArray(
        _ s: ScalarNode, _ count: Extent, following: ArraySlice<Node>
    ) throws(LayoutEncodeError) {
        guard let value = values[s.value.name] else { throw LayoutEncodeError(field: s.value.name, "no value given") }
        used.insert(s.value.name)
        guard case .list(let list) = value else { throw LayoutEncodeError(field: s.value.name, "takes a list") }
        switch count {
        case .fixed(let n) where n != list.count:
            throw LayoutEncodeError(field: s.value.name, "has \(list.count) elements; it takes \(n)")
        case .field(let source) where raws[source] != Int64(list.count):
            throw LayoutEncodeError(
                field: s.value.name, "has \(list.count) elements but \(source) says \(raws[source] ?? 0)")
        default: break
        }
        guard list.count <= 512 else { throw LayoutEncodeError(field: s.value.name, "has more than 512 elements") }
        for element in list {
            if s.type.isInteger {
                let raw = try LayoutEncoder.raw(element, s.value, type: s.type, width: nil, isBool: false)
                writer.unsigned(UInt64(bitPattern: raw), size: s.type.size, s.endian)
            } else {
                writer.unsigned(try LayoutEncoder.floatBits(element, s.value, s.type), size: s.type.size, s.endian)
            }
        }
    }

    /// The bits of a float field's value; IEEE 754 takes the nearest, IEEE-11073 must be exact.
    static func floatBits(
        _ value: FieldValue, _ spec: ValueSpec, _ type: ScalarType
    ) throws(LayoutEncodeError) -> UInt64 {
        var v = value
        if !spec.conversion.isIdentity, let n = value.number { v = .double(spec.conversion.unapply(n)) }
        switch type {
        case .ieee754(let size):
            let d: Double
            switch v {
            case .null: d = .nan
            default:
                guard let n = v.number else { throw LayoutEncodeError(field: spec.name, "takes a number") }
                d = n
            }
            return size == 4 ? UInt64(Float(d).bitPattern) : d.bitPattern
        case .medfloat(let size):
            guard let word = MedicalFloat.encode(v, wide: size == 4) else {
                throw LayoutEncodeError(
                    field: spec.name,
                    "\(value.numberText) cannot be written exactly as \(size == 2 ? "an SFLOAT (mantissa ±2045, exponent −8…7)" : "a FLOAT (mantissa ±8388605)")"
                )
            }
            return UInt64(word)
        case .integer:
            return 0
        }
    }
}

extension LayoutEncoder {
    mutating func encodeFloat(_ s: ScalarNode) throws(LayoutEncodeError) {
        guard let value = values[s.value.name] else { throw LayoutEncodeError(field: s.value.name, "no value given") }
        used.insert(s.value.name)
        let bits = try LayoutEncoder.floatBits(value, s.value, s.type)
        writer.unsigned(bits, size: s.type.size, s.endian)
        let decoded: FieldValue
        switch s.type {
        case .ieee754(let size):
            decoded = size == 4 ? .double(Double(Float(bitPattern: UInt32(bits)))) : .double(Double(bitPattern: bits))
        case .medfloat(let size):
            decoded = size == 2 ? MedicalFloat.decode16(UInt16(bits)) : MedicalFloat.decode32(UInt32(bits))
        case .integer:
            decoded = .null
        }
        numbers[s.value.name] = s.value.conversion.apply(decoded).number ?? .nan
    }
}

extension FieldValue {
    /// Short text of a numeric value for messages.
    var numberText: String {
        switch self {
        case .int(let i): String(i)
        case .double(let d): formatNumber(d)
        case .string(let s): s
        case .bool(let b): String(b)
        case .list(let l): "[\(l.count) values]"
        case .null: "null"
        }
    }
}
