import ByteReading
import PayloadDecoders

/// A layout compiled once into a flat list of instructions, so decoding a payload is one loop
/// over plain values: no JSON, no dictionaries of specs, no Foundation.
///
/// Instruction payloads hold only numbers (names, enum tables and formulas live in side tables,
/// referenced by index), so stepping through them costs no reference counting.
struct Program: Sendable {
    enum Count: Sendable {
        case fixed(Int)
        case rest
        case register(Int32)
    }

    enum FloatKind: Sendable {
        case f32, f64, medfloat16, medfloat32

        var size: Int {
            switch self {
            case .f32, .medfloat32: 4
            case .f64: 8
            case .medfloat16: 2
            }
        }
    }

    enum Element: Sendable {
        case integer(size: Int8, signed: Bool, conversion: Conversion, enumIndex: Int32)
        case float(FloatKind, conversion: Conversion)

        var size: Int {
            switch self {
            case .integer(let size, _, _, _): Int(size)
            case .float(let kind, _): kind.size
            }
        }
    }

    struct IntegerOp: Sendable {
        /// Output name index, or -1 for an unnamed bit-field container.
        var name: Int32
        var label: Int32
        var size: Int8
        var signed: Bool
        var endian: Endianness
        var conversion: Conversion
        var enumIndex: Int32
        var register: Int32
        var constant: Int64?
        /// Index into `extras` (format, flags, label), or -1.
        var extra: Int32 = -1
    }

    /// What a few fields need besides a number: a style, a label field with the enum's names,
    /// an inverted bit. Kept out of the ops so that plain fields pay one comparison.
    struct Extra: Sendable {
        var style: ValueStyle
        var labelName: Int32
        var labelNames: [Int64: String]
        var inverted: Bool
    }

    /// `null_when`, applied to the finished reading.
    struct NullRule: Sendable {
        var target: String
        var condition: NullCondition
    }

    struct BitPartOp: Sendable {
        var name: Int32
        var shift: UInt8
        var mask: UInt64
        var isBool: Bool
        var conversion: Conversion
        var enumIndex: Int32
        var register: Int32
        var constant: Int64?
        var extra: Int32 = -1
    }

    /// A bit-field container wider than 64 bits, read whole into the bit word.
    struct WideOp: Sendable {
        var label: Int32
        var size: Int8
        var endian: Endianness
    }

    struct FloatOp: Sendable {
        var name: Int32
        var kind: FloatKind
        var endian: Endianness
        var conversion: Conversion
        var register: Int32
    }

    struct DataOp: Sendable {
        var name: Int32
        var encoding: TextEncoding
        var length: Count
        /// Fixed-length text is padded with NULs; they are not part of the value.
        var stripNul: Bool
    }

    struct ArrayOp: Sendable {
        var name: Int32
        var element: Element
        var endian: Endianness
        var count: Count
    }

    struct SwitchOp: Sendable {
        var label: Int32
        var register: Int32
        var table: Int32
        /// Where other values go; -1: they are malformed.
        var defaultTarget: Int32
    }

    struct ComputeOp: Sendable {
        var name: Int32
        var expression: Int32
        var register: Int32
        var resolution: Int?
        var display: Int?
    }

    enum Op: Sendable {
        case integer(IntegerOp)
        case bitPart(BitPartOp)
        case float(FloatOp)
        case data(DataOp)
        case array(ArrayOp)
        case pad(Int)
        case switchOn(SwitchOp)
        case jump(Int32)
        case compute(ComputeOp)
        case wide(WideOp)
        /// `"optional"`: at the end of the payload, the reading is complete.
        case stopIfEnd
        case end
    }

    var ops: [Op] = []
    var names: [String] = []
    var enums: [[Int64: String]] = []
    var tables: [[Int64: Int32]] = []
    var expressions: [Expression] = []
    var extras: [Extra] = []
    var nullRules: [NullRule] = []
    var registerCount = 0
    var stackDepth = 1
    var fieldCapacity = 0
    /// Payload lengths outside this are malformed (the layout's "length").
    var lengthRule: ClosedRange<Int>?

    // MARK: - Compiling

    init() {}

    init(nodes: [Node], lengthRule: ClosedRange<Int>?) {
        self.lengthRule = lengthRule
        var registers: [String: Int32] = [:]
        func collect(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .scalar(let s):
                    if case .field(let n)? = s.count { registers[n] = registers[n] ?? Int32(registers.count) }
                case .data(let d):
                    if case .field(let n) = d.length { registers[n] = registers[n] ?? Int32(registers.count) }
                case .computed(let c):
                    for n in c.expression.names { registers[n] = registers[n] ?? Int32(registers.count) }
                case .switchOn(let s):
                    registers[s.field] = registers[s.field] ?? Int32(registers.count)
                    for arm in s.cases { collect(arm.nodes) }
                    collect(s.defaultNodes ?? [])
                case .bits, .pad: break
                }
            }
        }
        collect(nodes)
        // Computed fields are registers too when later formulas use them; collect gave them slots.
        registerCount = registers.count
        var fieldCount = 0
        nodes.forEach { $0.forEachValue { _ in fieldCount += 1 } }
        fieldCapacity = fieldCount + nodes.count
        lower(nodes, registers)
        ops.append(.end)
    }

    mutating func name(_ text: String) -> Int32 {
        if let i = names.firstIndex(of: text) { return Int32(i) }
        names.append(text)
        return Int32(names.count - 1)
    }

    mutating func extra(_ value: ValueSpec) -> Int32 {
        if let condition = value.nullWhen { nullRules.append(NullRule(target: value.name, condition: condition)) }
        guard value.style != .number || value.label != nil || value.inverted else { return -1 }
        extras.append(
            Extra(
                style: value.style, labelName: value.label.map { name($0) } ?? -1,
                labelNames: value.label == nil ? [:] : value.enumLookup, inverted: value.inverted))
        return Int32(extras.count - 1)
    }

    mutating func enumIndex(_ value: ValueSpec) -> Int32 {
        guard !value.enumCases.isEmpty, value.label == nil else { return -1 }
        enums.append(value.enumLookup)
        return Int32(enums.count - 1)
    }

    func count(_ extent: Extent?, _ registers: [String: Int32]) -> Count {
        switch extent {
        case .fixed(let n)?: .fixed(n)
        case .rest?: .rest
        case .field(let n)?: .register(registers[n] ?? 0)
        case nil: .fixed(1)
        }
    }

    static func floatKind(_ type: ScalarType) -> FloatKind {
        switch type {
        case .ieee754(let size): size == 4 ? .f32 : .f64
        case .medfloat(let size): size == 2 ? .medfloat16 : .medfloat32
        case .integer: .f64
        }
    }

    mutating func lower(_ nodes: [Node], _ registers: [String: Int32]) {
        for node in nodes {
            if node.isOptional { ops.append(.stopIfEnd) }
            switch node {
            case .scalar(let s):
                let register = registers[s.value.name] ?? -1
                if let extent = s.count {
                    let element: Element
                    if case .integer(let size, let signed) = s.type {
                        element = .integer(
                            size: Int8(size), signed: signed, conversion: s.value.conversion,
                            enumIndex: enumIndex(s.value))
                    } else {
                        element = .float(Self.floatKind(s.type), conversion: s.value.conversion)
                    }
                    ops.append(
                        .array(
                            ArrayOp(
                                name: name(s.value.name), element: element, endian: s.endian,
                                count: count(extent, registers))))
                } else if case .integer(let size, let signed) = s.type {
                    let n = name(s.value.name)
                    ops.append(
                        .integer(
                            IntegerOp(
                                name: n, label: n, size: Int8(size), signed: signed, endian: s.endian,
                                conversion: s.value.conversion, enumIndex: enumIndex(s.value), register: register,
                                constant: s.value.constant, extra: extra(s.value))))
                } else {
                    ops.append(
                        .float(
                            FloatOp(
                                name: name(s.value.name), kind: Self.floatKind(s.type), endian: s.endian,
                                conversion: s.value.conversion, register: register)))
                }
            case .bits(let b) where b.type.size > 8:
                let label = name(b.parts.first?.value.name ?? "bits")
                ops.append(.wide(WideOp(label: label, size: Int8(b.type.size), endian: b.endian)))
                lowerParts(b, registers)
            case .bits(let b):
                let label = name(b.container?.name ?? b.parts.first?.value.name ?? "bits")
                ops.append(
                    .integer(
                        IntegerOp(
                            name: b.container.map { name($0.name) } ?? -1, label: label, size: Int8(b.type.size),
                            signed: false, endian: b.endian, conversion: b.container?.conversion ?? .unscaled,
                            enumIndex: b.container.map { enumIndex($0) } ?? -1,
                            register: b.container.flatMap { registers[$0.name] } ?? -1, constant: b.container?.constant,
                            extra: b.container.map { extra($0) } ?? -1)
                    ))
                lowerParts(b, registers)
            case .data(let d):
                var strip = false
                if case .fixed = d.length, d.encoding != .hex { strip = true }
                ops.append(
                    .data(
                        DataOp(
                            name: name(d.name), encoding: d.encoding, length: count(d.length, registers),
                            stripNul: strip)))
            case .pad(let n):
                ops.append(.pad(n))
            case .computed(let c):
                var expression = c.expression
                expression.tokens = expression.tokens.map {
                    if case .name(let n) = $0, let r = registers[n] { return .register(Int(r)) }
                    return $0
                }
                expressions.append(expression)
                stackDepth = max(stackDepth, expression.depth)
                ops.append(
                    .compute(
                        ComputeOp(
                            name: name(c.value.name), expression: Int32(expressions.count - 1),
                            register: registers[c.value.name] ?? -1, resolution: c.resolution, display: c.display)))
            case .switchOn(let s):
                let switchIndex = ops.count
                ops.append(.end)  // patched below
                var table: [Int64: Int32] = [:]
                var exits: [Int] = []
                for arm in s.cases {
                    table[arm.value] = Int32(ops.count)
                    lower(arm.nodes, registers)
                    exits.append(ops.count)
                    ops.append(.end)  // patched to a jump past the switch
                }
                var defaultTarget: Int32 = -1
                if let d = s.defaultNodes {
                    defaultTarget = Int32(ops.count)
                    lower(d, registers)
                }
                let after = Int32(ops.count)
                for exit in exits { ops[exit] = .jump(after) }
                tables.append(table)
                ops[switchIndex] = .switchOn(
                    SwitchOp(
                        label: name(s.field), register: registers[s.field] ?? 0, table: Int32(tables.count - 1),
                        defaultTarget: defaultTarget))
            }
        }
    }

    mutating func lowerParts(_ b: BitsNode, _ registers: [String: Int32]) {
        for part in b.parts {
            ops.append(
                .bitPart(
                    BitPartOp(
                        name: name(part.value.name), shift: UInt8(part.shift), mask: part.mask,
                        isBool: part.isBool,
                        conversion: part.value.conversion, enumIndex: enumIndex(part.value),
                        register: registers[part.value.name] ?? -1, constant: part.value.constant,
                        extra: extra(part.value))))
        }
    }

}

/// The interpreter's registers (the raw integer and the number of every field that a switch, a
/// length, a count or a formula uses) and the formula stack. Every access is checked against the
/// allocation, in release builds too: a program that names a register it does not have gets a
/// decode error, never a read or a write outside the buffer.
struct Registers {
    let ints: UnsafeMutableBufferPointer<Int64>
    let numbers: UnsafeMutableBufferPointer<Double>
    let stack: UnsafeMutableBufferPointer<Double>

    @inline(__always)
    func check(_ register: Int32, _ offset: Int) throws(DecodeError) -> Int {
        let index = Int(register)
        guard index >= 0, index < ints.count, index < numbers.count else {
            throw DecodeError(
                .badValue("the layout's program uses register \(register) of \(ints.count)"), at: offset, field: "")
        }
        return index
    }

    @inline(__always)
    func store(_ register: Int32, raw: Int64, number: Double, at offset: Int) throws(DecodeError) {
        let index = try check(register, offset)
        ints[index] = raw
        numbers[index] = number
    }

    @inline(__always)
    func store(_ register: Int32, number: Double, at offset: Int) throws(DecodeError) {
        numbers[try check(register, offset)] = number
    }

    @inline(__always)
    func raw(_ register: Int32, at offset: Int) throws(DecodeError) -> Int64 {
        ints[try check(register, offset)]
    }
}

extension Conversion {
    /// Applies the scale to a value that is already a number (floats).
    func apply(_ value: FieldValue) -> FieldValue {
        guard case .double(let d) = value, d.isFinite else { return value }
        switch self {
        case .identity(let add): return .double(d + Double(add))
        case .reciprocal(let n, let addN): return .double((d + Double(addN)) / Double(n))
        case .linear(let scale, let add, _): return .double(d * scale + add)
        }
    }

    /// The inverse of `apply`.
    func unapply(_ d: Double) -> Double {
        switch self {
        case .identity(let add): d - Double(add)
        case .reciprocal(let n, let addN): d * Double(n) - Double(addN)
        case .linear(let scale, let add, _): (d - add) / scale
        }
    }
}
