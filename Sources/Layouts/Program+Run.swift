import ByteReading
import PayloadDecoders

/// Running a compiled layout over a payload: one loop over the instructions, every register checked.
extension Program {
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
    func readUnsigned(
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
    static func signExtend(_ raw: UInt64, _ size: Int) -> Int64 {
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    @inline(__always)
    func integerValue(_ raw: Int64, _ conversion: Conversion, _ enumIndex: Int32) -> FieldValue {
        if enumIndex >= 0 {
            if let name = enums[Int(enumIndex)][raw] { return .string(name) }
            return .int(raw)
        }
        return conversion.value(raw)
    }

    @inline(__always)
    func readFloat(
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

    func execute(
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
    func appendExtra(_ raw: Int64, _ index: Int32, _ name: String, _ fields: inout Fields, isBool: Bool = false) {
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
    func jump(to target: Int32, at offset: Int) throws(DecodeError) -> Int {
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
            guard let text = UTF8Text.decode(bytes) else {
                throw DecodeError(.badValue("not valid UTF-8"), at: offset, field: name)
            }
            return .string(text)
        }
    }
}
