/// Hex digits written eight at a time, for the UUIDs printed for events and readings: a
/// nibble-by-nibble loop was most of what printing one cost.
@usableFromInline
enum HexText {
    /// The eight lower-case hex digits of `value`, most significant first, as the bytes of the
    /// result in little-endian order (written out by `store` and `storeFour`).
    @inlinable @inline(__always)
    static func digits(_ value: UInt32) -> UInt64 {
        // Nibble i into byte i, then the bytes reversed: the most significant digit first.
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        x = x.byteSwapped
        // '0' + n, and 39 more past 9 to reach 'a': n + 6 carries into bit 4 exactly when n ≥ 10.
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return x &+ 0x3030_3030_3030_3030 &+ letters &* 39
    }

    /// Stores all eight digits at `out + offset` in one write.
    @inlinable @inline(__always)
    static func store(_ digits: UInt64, to out: UnsafeMutablePointer<UInt8>, at offset: Int) {
        UnsafeMutableRawPointer(out + offset).storeBytes(of: digits.littleEndian, as: UInt64.self)
    }

    /// Stores the first four digits at `out + offset` in one write.
    @inlinable @inline(__always)
    static func storeFour(_ digits: UInt64, to out: UnsafeMutablePointer<UInt8>, at offset: Int) {
        UnsafeMutableRawPointer(out + offset).storeBytes(
            of: UInt32(truncatingIfNeeded: digits).littleEndian, as: UInt32.self)
    }
}
