import ByteReading

/// A Bluetooth UUID: 16-, 32- or 128-bit, compared as the 128-bit value it stands for.
///
/// It prints the way Bluetape writes UUIDs everywhere: SIG UUIDs built on the Bluetooth base UUID as
/// four (or eight) lower-case hex digits ("2a37"), any other as the canonical 36-character form.
public struct BluetoothUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 128-bit value, most significant half first.
    public var high: UInt64
    public var low: UInt64

    /// 0000xxxx-0000-1000-8000-00805F9B34FB
    public static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    public static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A 16- or 32-bit SIG UUID.
    public init(_ short: UInt32) {
        high = UInt64(short) << 32 | Self.baseHigh
        low = Self.baseLow
    }

    /// The UUID in the first `size` bytes of `bytes` (2, 4 or 16 of them, which the caller has
    /// checked are there), in wire (little-endian) order.
    @inlinable
    public init(littleEndian bytes: UnsafeRawBufferPointer, size: Int) {
        precondition(bytes.count >= size && (size == 2 || size == 4 || size == 16), "no UUID of that size there")
        let base = bytes.baseAddress!
        switch size {
        case 2: self.init(UInt32(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self))))
        case 4: self.init(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
        default:
            self.init(
                high: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                low: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)))
        }
    }

    /// The short form, when this UUID is built on the Bluetooth base UUID.
    public var shortValue: UInt32? {
        guard low == Self.baseLow, high & 0xFFFF_FFFF == Self.baseHigh else { return nil }
        return UInt32(high >> 32)
    }

    /// Reads a UUID of `size` bytes (2, 4 or 16) in wire (little-endian) order.
    public init(reading reader: inout ByteReader, size: Int, _ field: @autoclosure () -> String = "uuid")
        throws(DecodeError)
    {
        switch size {
        case 2: self.init(UInt32(try reader.u16le(field())))
        case 4: self.init(try reader.u32le(field()))
        case 16:
            let low = try reader.u64le(field())
            let high = try reader.u64le(field())
            self.init(high: high, low: low)
        default:
            throw DecodeError(.badLength(declared: size, available: reader.remaining), at: reader.offset, field: field())
        }
    }

    /// Wire bytes in the given size (2, 4 or 16), little-endian. Nil when a short size cannot hold it.
    public func wireBytes(size: Int = 0) -> [UInt8] {
        let size = size == 0 ? (shortValue.map { $0 <= 0xFFFF ? 2 : 4 } ?? 16) : size
        if size == 16 {
            return (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * UInt64($0))) }
                + (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * UInt64($0))) }
        }
        let short = shortValue ?? 0
        return (0..<size).map { UInt8(truncatingIfNeeded: short >> (8 * UInt32($0))) }
    }

    /// Parses "2a37", "0x2A37", "00002a37-0000-1000-8000-00805f9b34fb" or 32 hex digits.
    public init?(_ text: some StringProtocol) {
        var digits = String(text).lowercased()
        if digits.hasPrefix("0x") { digits.removeFirst(2) }
        let hex = digits.filter { $0 != "-" }
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        switch hex.count {
        case 4, 8:
            guard digits.count == hex.count, let value = UInt32(hex, radix: 16) else { return nil }
            self.init(value)
        case 32:
            if digits.count == 36 {
                let dashes = digits.enumerated().filter { $0.element == "-" }.map(\.offset)
                guard dashes == [8, 13, 18, 23] else { return nil }
            } else if digits.count != 32 {
                return nil
            }
            guard let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16) else {
                return nil
            }
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    public var description: String {
        String(unsafeUninitializedCapacity: Self.maximumTextLength) { writeText(to: $0.baseAddress!) }
    }

    /// Always the 36-character form, even for a UUID built on the Bluetooth base UUID.
    public var canonicalDescription: String {
        String(unsafeUninitializedCapacity: Self.maximumTextLength) { writeText(to: $0.baseAddress!, canonical: true) }
    }

    /// The longest printed form: the canonical 36 characters.
    public static let maximumTextLength = 36

    /// Writes the printed form where `out` points (room for 36 bytes); returns its length.
    @inlinable
    public func writeText(to out: UnsafeMutablePointer<UInt8>, canonical: Bool = false) -> Int {
        if !canonical, let short = shortValue {
            let digits = HexText.digits(short)
            if short > 0xFFFF {
                HexText.store(digits, to: out, at: 0)
                return 8
            }
            HexText.storeFour(digits >> 32, to: out, at: 0)
            return 4
        }
        // 8-4-4-4-12: each half of each 64-bit half is eight digits.
        HexText.store(HexText.digits(UInt32(truncatingIfNeeded: high >> 32)), to: out, at: 0)
        let second = HexText.digits(UInt32(truncatingIfNeeded: high))
        HexText.storeFour(second, to: out, at: 9)
        HexText.storeFour(second >> 32, to: out, at: 14)
        let third = HexText.digits(UInt32(truncatingIfNeeded: low >> 32))
        HexText.storeFour(third, to: out, at: 19)
        HexText.storeFour(third >> 32, to: out, at: 24)
        HexText.store(HexText.digits(UInt32(truncatingIfNeeded: low)), to: out, at: 28)
        out[8] = UInt8(ascii: "-")
        out[13] = UInt8(ascii: "-")
        out[18] = UInt8(ascii: "-")
        out[23] = UInt8(ascii: "-")
        return 36
    }

    public static func < (a: BluetoothUUID, b: BluetoothUUID) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

extension BluetoothUUID {
    // GATT declarations and descriptors used by discovery.
    public static let primaryService = BluetoothUUID(0x2800)
    public static let secondaryService = BluetoothUUID(0x2801)
    public static let include = BluetoothUUID(0x2802)
    public static let characteristic = BluetoothUUID(0x2803)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
}
