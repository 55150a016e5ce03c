import ByteReading

/// A 48-bit Bluetooth device address. On the wire it is little-endian; it prints most significant
/// byte first, upper case: "C2:6B:30:F9:0E:C7".
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Reads six little-endian bytes.
    @inlinable
    public init(reading reader: inout ByteReader, _ field: @autoclosure () -> String = "address") throws(DecodeError) {
        self.init(try reader.unsigned(size: 6, .little, field()))
    }

    /// Parses "C2:6B:30:F9:0E:C7" (also with dashes or no separators); nil when it is not an address.
    public init?(_ text: some StringProtocol) {
        guard let bytes = Hex.decode(text), bytes.count == 6 else { return nil }
        self.init(bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }

    public var description: String {
        String(unsafeUninitializedCapacity: Self.textLength) { writeText(to: $0.baseAddress!) }
    }

    /// Length of the printed form.
    public static let textLength = 17

    /// Writes the printed form (17 bytes) where `out` points; returns 17. For fast output.
    @inlinable
    public func writeText(to out: UnsafeMutablePointer<UInt8>) -> Int {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { hex in
            var shift: UInt64 = 40
            var i = 0
            while true {
                let byte = Int((value >> shift) & 0xFF)
                out[i] = hex[byte >> 4]
                out[i + 1] = hex[byte & 0xF]
                if shift == 0 { break }
                out[i + 2] = UInt8(ascii: ":")
                i += 3
                shift -= 8
            }
        }
        return Self.textLength
    }

    /// The six bytes in wire (little-endian) order.
    public var wireBytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    public static func < (a: BluetoothAddress, b: BluetoothAddress) -> Bool { a.value < b.value }
}

/// Address type as HCI reports it.
public struct AddressType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `public` = AddressType(rawValue: 0)
    public static let random = AddressType(rawValue: 1)
    public static let publicIdentity = AddressType(rawValue: 2)
    public static let randomIdentity = AddressType(rawValue: 3)
    public static let anonymous = AddressType(rawValue: 0xFF)

    public var name: String {
        staticName.map { "\($0)" } ?? "type_\(rawValue)"
    }

    public var staticName: StaticString? {
        switch rawValue {
        case 0: "public"
        case 1: "random"
        case 2: "public_identity"
        case 3: "random_identity"
        case 0xFF: "anonymous"
        default: nil
        }
    }
}
