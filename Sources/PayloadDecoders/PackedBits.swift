import ByteReading

/// A packed bit field of up to 16 bytes taken as one little-endian integer: bit 0 is the least
/// significant bit of the first byte (combustion.md §1). Fields are read as (start, width).
struct PackedBits: Sendable, Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    let byteCount: Int

    init(byteCount: Int) {
        precondition((1...16).contains(byteCount), "packed fields are 1…16 bytes")
        self.byteCount = byteCount
    }

    /// Reads `byteCount` bytes; a short input fails at the start of the block.
    init(reading reader: inout ByteReader, byteCount: Int, _ field: String) throws(DecodeError) {
        self.init(byteCount: byteCount)
        try reader.require(byteCount, field)
        low = try reader.unsigned(size: min(byteCount, 8), .little, field)
        if byteCount > 8 { high = try reader.unsigned(size: byteCount - 8, .little, field) }
    }

    subscript(start: Int, width: Int) -> UInt64 {
        get {
            let mask: UInt64 = (1 << UInt64(width)) &- 1
            let fromLow = start < 64 ? low >> UInt64(start) : 0
            let fromHigh = start >= 64 ? high >> UInt64(start - 64) : (start == 0 ? 0 : high << UInt64(64 - start))
            return (fromLow | fromHigh) & mask
        }
        set {
            let mask: UInt64 = (1 << UInt64(width)) &- 1
            let value = newValue & mask
            for bit in 0..<width where start + bit < byteCount * 8 {
                let position = start + bit
                let one = (value >> UInt64(bit)) & 1
                if position < 64 {
                    low = low & ~(1 << UInt64(position)) | one << UInt64(position)
                } else {
                    high = high & ~(1 << UInt64(position - 64)) | one << UInt64(position - 64)
                }
            }
        }
    }

    func write(to writer: inout ByteWriter) {
        writer.unsigned(low, size: min(byteCount, 8), .little)
        if byteCount > 8 { writer.unsigned(high, size: byteCount - 8, .little) }
    }
}
