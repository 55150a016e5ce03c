/// A malformed payload, located in the input: which field, at which byte offset, and why.
///
/// Offsets count from the start of the bytes the reader was created over (plus its `origin`),
/// so an error raised deep inside a sub-reader still points at the right byte of the payload.
public struct DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A field runs past the bytes that are there.
        case truncated(needed: Int, available: Int)
        /// A length field disagrees with the bytes that follow.
        case badLength(declared: Int, available: Int)
        /// Bytes left over after a structure of fixed size.
        case trailingBytes(count: Int)
        /// A value the format does not allow.
        case badValue(String)
        /// A checksum that does not match the bytes it covers.
        case badChecksum(expected: UInt32, computed: UInt32)
    }

    public var reason: Reason
    public var offset: Int
    public var field: String

    public init(_ reason: Reason, at offset: Int, field: String) {
        self.reason = reason
        self.offset = offset
        self.field = field
    }

    /// The reason in a few words, as written into readings and diagnostics.
    public var reasonText: String {
        switch reason {
        case .truncated(let needed, let available):
            return "truncated: needs \(needed) byte\(needed == 1 ? "" : "s"), \(available) left"
        case .badLength(let declared, let available):
            return "bad length: declares \(declared), \(available) present"
        case .trailingBytes(let count):
            return "\(count) unexpected trailing byte\(count == 1 ? "" : "s")"
        case .badValue(let text):
            return text
        case .badChecksum(let expected, let computed):
            return "bad checksum: stored 0x\(String(expected, radix: 16)), computed 0x\(String(computed, radix: 16))"
        }
    }

    public var description: String {
        field.isEmpty ? "\(reasonText) at offset \(offset)" : "\(field) at offset \(offset): \(reasonText)"
    }
}

/// Byte order of a multi-byte field; always stated where a field is read.
public enum Endianness: Sendable, Hashable {
    case little, big
}
