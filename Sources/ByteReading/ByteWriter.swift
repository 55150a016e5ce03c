/// Builds bytes field by field: the encoding side of `ByteReader`, used by capture writers,
/// layout encoders and the capture synthesizer.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func u8(_ value: UInt8) { bytes.append(value) }

    public mutating func unsigned(_ value: UInt64, size: Int, _ endianness: Endianness) {
        precondition((1...8).contains(size), "integer size must be 1…8 bytes")
        switch endianness {
        case .little:
            for i in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
        case .big:
            for i in (0..<size).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
        }
    }

    public mutating func u16le(_ value: UInt16) { unsigned(UInt64(value), size: 2, .little) }
    public mutating func u16be(_ value: UInt16) { unsigned(UInt64(value), size: 2, .big) }
    public mutating func u24le(_ value: UInt32) { unsigned(UInt64(value), size: 3, .little) }
    public mutating func u32le(_ value: UInt32) { unsigned(UInt64(value), size: 4, .little) }
    public mutating func u32be(_ value: UInt32) { unsigned(UInt64(value), size: 4, .big) }
    public mutating func u64le(_ value: UInt64) { unsigned(value, size: 8, .little) }
    public mutating func u64be(_ value: UInt64) { unsigned(value, size: 8, .big) }

    public mutating func append<Bytes: Sequence<UInt8>>(_ more: Bytes) { bytes.append(contentsOf: more) }

    /// Overwrites a little-endian u16 already written at `index` (for length fields known late).
    public mutating func patchU16le(_ value: UInt16, at index: Int) {
        bytes[index] = UInt8(truncatingIfNeeded: value)
        bytes[index + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }
}
