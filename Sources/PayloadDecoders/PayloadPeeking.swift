import ByteReading

// Sub-type checks for decoders that share a match key: they look at the first bytes (through
// ByteReader, like every other read) before deciding whether a payload is theirs.
extension Payload {
    /// The first byte, or nil when there are no bytes.
    var firstByte: UInt8? { try? ByteReader.reading(bytes, Self.readFirstByte) }

    /// True when the bytes begin with `prefix`. (Byte by byte: reading the leading bytes into an
    /// array to compare took an allocation for every payload.)
    func starts(with prefix: [UInt8]) -> Bool {
        let same = try? ByteReader.reading(bytes) { (reader: inout ByteReader) throws(DecodeError) -> Bool in
            for byte in prefix where try reader.u8() != byte { return false }
            return true
        }
        return same ?? false
    }

    private static func readFirstByte(_ reader: inout ByteReader) throws(DecodeError) -> UInt8 { try reader.u8() }
}
