import ByteReading

// The encoding side of the decoder contract: named fields back to the bytes a device would send.
// Used to synthesize captures of these devices; decode(encode(fields)) gives the fields back.

/// Why a set of fields cannot be encoded: which field, and what is wrong with it.
public struct EncodeError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A field the layout needs is not there.
        case missing
        /// The value does not fit the field on the wire.
        case outOfRange(String)
        /// The value has the wrong kind (a string where a number is needed, …).
        case wrongType(expected: String)
        /// A field this encoder has no place for (only where fields are written in the order given).
        case unknownField
    }

    public var field: String
    public var reason: Reason

    public init(_ reason: Reason, field: String) {
        self.reason = reason
        self.field = field
    }

    public var description: String {
        switch reason {
        case .missing: "\(field): missing"
        case .outOfRange(let text): "\(field): out of range (\(text))"
        case .wrongType(let expected): "\(field): wrong type, expected \(expected)"
        case .unknownField: "\(field): not a field of this payload"
        }
    }
}

/// Builds one payload (the same bytes a decoder with this id is given) from named fields.
public protocol PayloadEncoder: Sendable {
    /// The id of the decoder that reads these bytes back.
    var id: String { get }
    func encode(_ fields: Fields) throws(EncodeError) -> [UInt8]
    /// The same, for the device `context` describes: an encrypted BTHome payload's nonce holds
    /// the sender's address. Encoders that do not need it encode the fields alone.
    func encode(_ fields: Fields, context: PayloadContext) throws(EncodeError) -> [UInt8]
}

extension PayloadEncoder {
    public func encode(_ fields: Fields, context: PayloadContext) throws(EncodeError) -> [UInt8] {
        try encode(fields)
    }
}

// MARK: - Reading fields for encoding

extension Fields {
    func has(_ name: String) -> Bool { self[name] != nil }

    func value(_ name: String) throws(EncodeError) -> FieldValue {
        guard let value = self[name] else { throw EncodeError(.missing, field: name) }
        return value
    }

    /// A whole number within `range`.
    func integer(_ name: String, in range: ClosedRange<Int64>) throws(EncodeError) -> Int64 {
        let number: Int64
        switch try value(name) {
        case .int(let value): number = value
        case .double(let value) where value.rounded() == value && abs(value) < 0x1p62: number = Int64(value)
        default: throw EncodeError(.wrongType(expected: "integer"), field: name)
        }
        guard range.contains(number) else {
            throw EncodeError(.outOfRange("\(range.lowerBound)…\(range.upperBound)"), field: name)
        }
        return number
    }

    func number(_ name: String) throws(EncodeError) -> Double {
        switch try value(name) {
        case .int(let value): return Double(value)
        case .double(let value) where value.isFinite: return value
        default: throw EncodeError(.wrongType(expected: "number"), field: name)
        }
    }

    /// The raw wire value of a scaled field: value × `divisor` + `offset`, rounded to the nearest
    /// step, the inverse of `Double(raw − offset) / divisor` in the decoders.
    func raw(
        _ name: String, divisor: Int64, offset: Int64 = 0, in range: ClosedRange<Int64>
    )
        throws(EncodeError) -> Int64
    {
        let steps = (try number(name) * Double(divisor)).rounded()
        let low = Double(range.lowerBound - offset)
        let high = Double(range.upperBound - offset)
        guard steps >= low, steps <= high else {
            throw EncodeError(.outOfRange("raw \(range.lowerBound)…\(range.upperBound)"), field: name)
        }
        return Int64(steps) + offset
    }

    func bool(_ name: String) throws(EncodeError) -> Bool {
        guard case .bool(let value) = try value(name) else {
            throw EncodeError(.wrongType(expected: "bool"), field: name)
        }
        return value
    }

    func string(_ name: String) throws(EncodeError) -> String {
        guard case .string(let value) = try value(name) else {
            throw EncodeError(.wrongType(expected: "string"), field: name)
        }
        return value
    }

    func list(_ name: String) throws(EncodeError) -> [FieldValue] {
        guard case .list(let value) = try value(name) else {
            throw EncodeError(.wrongType(expected: "list"), field: name)
        }
        return value
    }

    /// The code of an enumerated field given by its name; `max` is the largest code the wire field holds.
    func code(_ name: String, _ names: CodeNames, max: Int64) throws(EncodeError) -> Int64 {
        let text = try string(name)
        guard let code = names.code(for: text), (0...max).contains(code) else {
            throw EncodeError(
                .outOfRange("one of \(names.known.joined(separator: ", ")) or reserved_<code>"), field: name)
        }
        return code
    }

    /// Bytes given as hex digits, exactly `count` of them when `count` is set.
    func hexBytes(_ name: String, count: Int? = nil) throws(EncodeError) -> [UInt8] {
        guard let bytes = Hex.decode(try string(name)) else {
            throw EncodeError(.wrongType(expected: "hex digits"), field: name)
        }
        if let count, bytes.count != count {
            throw EncodeError(.outOfRange("\(count) bytes"), field: name)
        }
        return bytes
    }
}
