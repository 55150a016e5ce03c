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

    private mutating func name(_ text: String) -> Int32 {
        if let i = names.firstIndex(of: text) { return Int32(i) }
        names.append(text)
        return Int32(names.count - 1)
    }

    private mutating func extra(_ value: ValueSpec) -> Int32 {
        if let condition = value.nullWhen { nullRules.append(NullRule(target: value.name, condition: condition)) }
        guard value.style != .number || value.label != nil || value.inverted else { return -1 }
        extras.append(
            Extra(
                style: value.style, labelName: value.label.map { name($0) } ?? -1,
                labelNames: value.label == nil ? [:] : value.enumLookup, inverted: value.inverted))
        return Int32(extras.count - 1)
    }

    private mutating func enumIndex(_ value: ValueSpec) -> Int32 {
        guard !value.enumCases.isEmpty, value.label == nil else { return -1 }
        enums.append(value.enumLookup)
        return Int32(enums.count - 1)
    }

    private func count(_ extent: Extent?, _ registers: [String: Int32]) -> Count {
        switch extent {
        case .fixed(let n)?: .fixed(n)
        case .rest?: .rest
        case .field(let n)?: .register(registers[n] ?? 0)
        case nil: .fixed(1)
        }
    }

    private static func floatKind(_ type: ScalarType) -> FloatKind {
        switch type {
        case .ieee754(let size): size == 4 ? .f32 : .f64
        case .medfloat(let size): size == 2 ? .medfloat16 : .medfloat32
        case .integer: .f64
        }
    }

    private mutating func lower(_ nodes: [Node], _ registers: [String: Int32]) {
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

    private mutating func lowerParts(_ b: BitsNode, _ registers: [String: Int32]) {
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

    // MARK: - Running

    /// Decodes one payload.
    func run(_ bytes: [UInt8]) -> DecodeOutcome {
        bytes.withUnsafeBytes { run($0) }
    }

    func run(_ buffer: UnsafeRawBufferPointer) -> DecodeOutcome {
        if let rule = lengthRule, !rule.contains(buffer.count) {
            let declared = buffer.count < rule.lowerBound ? rule.lowerBound : rule.upperBound
            return .error(DecodeError(.badLength(declared: declared, available: buffer.count), at: 0, field: "payload"))
        }
        let slots = max(registerCount, 1)
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: slots) { ints in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: slots + stackDepth) { numbers in
                ints.initialize(repeating: 0)
                numbers.initialize(repeating: 0)
                var registers = Registers(
                    ints: ints, numbers: UnsafeMutableBufferPointer(rebasing: numbers[0..<slots]),
                    stack: UnsafeMutableBufferPointer(rebasing: numbers[slots...]))
                var fields = Fields()
                fields.entries.reserveCapacity(fieldCapacity)
                var reader = ByteReader(buffer)
                do throws(DecodeError) {
                    try execute(&reader, &fields, &registers)
                    if !nullRules.isEmpty { applyNullRules(&fields) }
                    return .fields(fields)
                } catch {
                    return .error(error)
                }
            }
        }
    }

    @inline(__always)
    private func readUnsigned(
        _ reader: inout ByteReader, _ size: Int, _ endian: Endianness, _ label: Int32
    )
        throws(DecodeError) -> UInt64
    {
        switch (size, endian) {
        case (1, _): UInt64(try reader.u8(names[Int(label)]))
        case (2, .little): UInt64(try reader.u16le(names[Int(label)]))
        case (2, .big): UInt64(try reader.u16be(names[Int(label)]))
        case (4, .little): UInt64(try reader.u32le(names[Int(label)]))
        case (4, .big): UInt64(try reader.u32be(names[Int(label)]))
        default: try reader.unsigned(size: size, endian, names[Int(label)])
        }
    }

    @inline(__always)
    private static func signExtend(_ raw: UInt64, _ size: Int) -> Int64 {
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    @inline(__always)
    private func integerValue(_ raw: Int64, _ conversion: Conversion, _ enumIndex: Int32) -> FieldValue {
        if enumIndex >= 0 {
            if let name = enums[Int(enumIndex)][raw] { return .string(name) }
            return .int(raw)
        }
        return conversion.value(raw)
    }

    @inline(__always)
    private func readFloat(
        _ reader: inout ByteReader, _ kind: FloatKind, _ endian: Endianness, _ conversion: Conversion, _ label: Int32
    )
        throws(DecodeError) -> FieldValue
    {
        let value: FieldValue
        switch kind {
        case .f32:
            let f = Float(bitPattern: UInt32(try readUnsigned(&reader, 4, endian, label)))
            value = f.isNaN ? .null : .double(Double(f))
        case .f64:
            let d = Double(bitPattern: try readUnsigned(&reader, 8, endian, label))
            value = d.isNaN ? .null : .double(d)
        case .medfloat16:
            value = MedicalFloat.decode16(UInt16(try readUnsigned(&reader, 2, endian, label)))
        case .medfloat32:
            value = MedicalFloat.decode32(UInt32(try readUnsigned(&reader, 4, endian, label)))
        }
        return conversion.isIdentity ? value : conversion.apply(value)
    }

    private func execute(
        _ reader: inout ByteReader, _ fields: inout Fields, _ registers: inout Registers
    ) throws(DecodeError) {
        var pc = 0
        var word: UInt128 = 0
        while true {
            switch ops[pc] {
            case .integer(let op):
                let start = reader.offset
                let size = Int(op.size)
                let unsigned = try readUnsigned(&reader, size, op.endian, op.label)
                word = UInt128(unsigned)
                let raw = op.signed ? Self.signExtend(unsigned, size) : Int64(truncatingIfNeeded: unsigned)
                if let constant = op.constant, raw != constant {
                    throw DecodeError(
                        .badValue("expected \(constant), found \(raw)"), at: start, field: names[Int(op.label)])
                }
                if op.register >= 0 {
                    try registers.store(op.register, raw: raw, number: op.conversion.number(raw), at: start)
                }
                if op.name >= 0 {
                    if op.extra >= 0 {
                        appendExtra(raw, op.extra, names[Int(op.name)], &fields)
                    } else {
                        let value: FieldValue =
                            !op.signed && size == 8 && raw < 0
                            ? op.conversion.value(unsigned: unsigned) : integerValue(raw, op.conversion, op.enumIndex)
                        fields.entries.append(Field(names[Int(op.name)], value))
                    }
                }
            case .bitPart(let op):
                let raw = Int64(truncatingIfNeeded: UInt64(truncatingIfNeeded: word >> UInt128(op.shift)) & op.mask)
                if let constant = op.constant, raw != constant {
                    throw DecodeError(
                        .badValue("expected \(constant), found \(raw)"), at: reader.offset, field: names[Int(op.name)])
                }
                if op.register >= 0 {
                    try registers.store(op.register, raw: raw, number: op.conversion.number(raw), at: reader.offset)
                }
                if op.extra >= 0 {
                    appendExtra(raw, op.extra, names[Int(op.name)], &fields, isBool: op.isBool)
                } else {
                    fields.entries.append(
                        Field(
                            names[Int(op.name)],
                            op.isBool ? .bool(raw != 0) : integerValue(raw, op.conversion, op.enumIndex)))
                }
            case .float(let op):
                let value = try readFloat(&reader, op.kind, op.endian, op.conversion, op.name)
                if op.register >= 0 { try registers.store(op.register, number: value.number ?? .nan, at: reader.offset) }
                fields.entries.append(Field(names[Int(op.name)], value))
            case .data(let op):
                let start = reader.offset
                let length: Int
                switch op.length {
                case .fixed(let n): length = n
                case .rest: length = reader.remaining
                case .register(let r):
                    let n = try registers.raw(r, at: start)
                    guard n >= 0, n <= 65_535 else {
                        throw DecodeError(
                            .badValue("length \(n) is out of range"), at: start, field: names[Int(op.name)])
                    }
                    length = Int(n)
                }
                let bytes = try reader.bytes(length, names[Int(op.name)])
                fields.entries.append(
                    Field(names[Int(op.name)], try Self.text(bytes, op, at: start, names[Int(op.name)])))
            case .array(let op):
                let start = reader.offset
                let size = op.element.size
                var count: Int
                switch op.count {
                case .fixed(let n): count = n
                case .rest:
                    count = reader.remaining / size
                    if reader.remaining % size != 0 {
                        throw DecodeError(
                            .trailingBytes(count: reader.remaining % size), at: start + count * size,
                            field: names[Int(op.name)])
                    }
                case .register(let r):
                    let n = try registers.raw(r, at: start)
                    guard n >= 0, n <= 512 else {
                        throw DecodeError(
                            .badValue("count \(n) is out of range (0…512)"), at: start, field: names[Int(op.name)])
                    }
                    count = Int(n)
                }
                try reader.require(count * size, names[Int(op.name)])
                var list: [FieldValue] = []
                list.reserveCapacity(count)
                while count > 0 {
                    switch op.element {
                    case .integer(let size, let signed, let conversion, let enumIndex):
                        let unsigned = try readUnsigned(&reader, Int(size), op.endian, op.name)
                        let raw = signed ? Self.signExtend(unsigned, Int(size)) : Int64(truncatingIfNeeded: unsigned)
                        list.append(
                            !signed && size == 8 && raw < 0
                                ? conversion.value(unsigned: unsigned) : integerValue(raw, conversion, enumIndex))
                    case .float(let kind, let conversion):
                        list.append(try readFloat(&reader, kind, op.endian, conversion, op.name))
                    }
                    count -= 1
                }
                fields.entries.append(Field(names[Int(op.name)], .list(list)))
            case .pad(let n):
                try reader.skip(n, "pad")
            case .switchOn(let op):
                let value = try registers.raw(op.register, at: reader.offset)
                if let target = tables[Int(op.table)][value] {
                    pc = try jump(to: target, at: reader.offset)
                    continue
                }
                guard op.defaultTarget >= 0 else {
                    throw DecodeError(.badValue("no case for \(value)"), at: reader.offset, field: names[Int(op.label)])
                }
                pc = try jump(to: op.defaultTarget, at: reader.offset)
                continue
            case .jump(let target):
                pc = try jump(to: target, at: reader.offset)
                continue
            case .compute(let op):
                let result = ComputedNode.finish(
                    expressions[Int(op.expression)].evaluate(registers.numbers, stack: registers.stack),
                    resolution: op.resolution, display: op.display)
                if op.register >= 0 { try registers.store(op.register, number: result, at: reader.offset) }
                fields.entries.append(Field(names[Int(op.name)], result.isFinite ? .double(result) : .null))
            case .wide(let op):
                let bytes = try reader.bytes(Int(op.size), names[Int(op.label)])
                word = 0
                for i in 0..<bytes.count {
                    let byte = UInt128(bytes[op.endian == .little ? bytes.count - 1 - i : i])
                    word = word << 8 | byte
                }
            case .stopIfEnd:
                if reader.isAtEnd { return }
            case .end:
                try reader.expectEnd("")
                return
            }
            pc += 1
        }
    }

    /// A field with a style, a label or an inverted bit.
    private func appendExtra(_ raw: Int64, _ index: Int32, _ name: String, _ fields: inout Fields, isBool: Bool = false) {
        let extra = extras[Int(index)]
        if isBool {
            fields.entries.append(Field(name, .bool((raw != 0) != extra.inverted)))
            return
        }
        fields.entries.append(Field(name, extra.style.value(raw)))
        if extra.labelName >= 0, let label = extra.labelNames[raw] {
            fields.entries.append(Field(names[Int(extra.labelName)], .string(label)))
        }
    }

    /// `null_when`: a value reads null when the condition's field, anywhere in the reading, has
    /// one of the condition's values.
    func applyNullRules(_ fields: inout Fields) {
        for rule in nullRules {
            guard let value = fields[rule.condition.field], rule.condition.values.contains(value),
                let index = fields.entries.firstIndex(where: { $0.name == rule.target })
            else { continue }
            fields.entries[index].value = .null
        }
    }

    /// A jump target inside the program: a compiled layout only makes those, but the interpreter
    /// does not take that on trust.
    @inline(__always)
    private func jump(to target: Int32, at offset: Int) throws(DecodeError) -> Int {
        guard target >= 0, Int(target) < ops.count else {
            throw DecodeError(.badValue("the layout's program jumps to \(target), outside itself"), at: offset, field: "")
        }
        return Int(target)
    }

    static func text(
        _ bytes: UnsafeRawBufferPointer, _ op: DataOp, at offset: Int, _ name: String
    ) throws(DecodeError) -> FieldValue {
        var bytes = bytes
        if op.stripNul {
            var end = bytes.count
            while end > 0, bytes[end - 1] == 0 { end -= 1 }
            bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        }
        switch op.encoding {
        case .hex:
            return .string(Hex.encode(bytes))
        case .ascii:
            if let bad = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw DecodeError(
                    .badValue("byte 0x\(String(bytes[bad], radix: 16)) is not ASCII"), at: offset + bad, field: name)
            }
            return .string(String(decoding: bytes, as: UTF8.self))
        case .utf8:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw DecodeError(.badValue("not valid UTF-8"), at: offset, field: name)
            }
            return .string(text)
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
    private func check(_ register: Int32, _ offset: Int) throws(DecodeError) -> Int {
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
