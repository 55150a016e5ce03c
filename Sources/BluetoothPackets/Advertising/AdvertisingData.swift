import ByteReading

/// AD types Bluetape lifts out of advertising data (Assigned Numbers §2.3).
public enum ADType {
    public static let flags: UInt8 = 0x01
    public static let incomplete16: UInt8 = 0x02
    public static let complete16: UInt8 = 0x03
    public static let incomplete32: UInt8 = 0x04
    public static let complete32: UInt8 = 0x05
    public static let incomplete128: UInt8 = 0x06
    public static let complete128: UInt8 = 0x07
    public static let shortenedName: UInt8 = 0x08
    public static let completeName: UInt8 = 0x09
    public static let txPower: UInt8 = 0x0A
    public static let serviceData16: UInt8 = 0x16
    public static let appearance: UInt8 = 0x19
    public static let serviceData32: UInt8 = 0x20
    public static let serviceData128: UInt8 = 0x21
    public static let manufacturerData: UInt8 = 0xFF

    /// Size of the UUIDs a list or service-data type carries, else nil.
    public static func uuidSize(_ type: UInt8) -> Int? {
        switch type {
        case incomplete16, complete16, serviceData16: 2
        case incomplete32, complete32, serviceData32: 4
        case incomplete128, complete128, serviceData128: 16
        default: nil
        }
    }
}

/// Advertising data: a run of AD structures `[length][type][data…]` (Core v5.4, Vol 3, Part C, §11).
///
/// Parsing follows BlueZ's rules: a zero length ends the significant part; a length that runs past
/// the end stops parsing there, and that is reported as an error located at its length byte.
public struct AdvertisingData: Sendable, Hashable {
    /// The raw bytes, owned.
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public struct Structure {
        public var type: UInt8
        public var data: UnsafeRawBufferPointer
        /// Offset of the structure's length byte within the advertising data.
        public var offset: Int
    }

    /// Calls `body` for each well-formed structure; returns the error that stopped parsing, if any.
    @discardableResult
    public static func forEach(
        in bytes: UnsafeRawBufferPointer, _ body: (Structure) -> Void
    ) -> DecodeError? {
        var r = ByteReader(bytes)
        do {
            while !r.isAtEnd {
                let offset = r.offset
                let length = Int(try r.u8("ad.length"))
                if length == 0 { return nil }
                guard length <= r.remaining else {
                    return DecodeError(
                        .badLength(declared: length, available: r.remaining), at: offset, field: "ad.length")
                }
                let type = try r.u8("ad.type")
                body(Structure(type: type, data: try r.bytes(length - 1, "ad.data"), offset: offset))
            }
        } catch {
            return error
        }
        return nil
    }

    public func forEach(_ body: (Structure) -> Void) -> DecodeError? {
        bytes.withUnsafeBytes { Self.forEach(in: $0, body) }
    }

    /// The local name (complete, else shortened), decoded as UTF-8.
    public var localName: String? {
        var complete: String?
        var shortened: String?
        _ = forEach { s in
            if s.type == ADType.completeName { complete = String(decoding: s.data, as: UTF8.self) }
            if s.type == ADType.shortenedName { shortened = String(decoding: s.data, as: UTF8.self) }
        }
        return complete ?? shortened
    }

    /// Service UUIDs from the 16-, 32- and 128-bit lists.
    public var serviceUUIDs: [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        _ = forEach { s in
            guard s.type >= ADType.incomplete16, s.type <= ADType.complete128, let size = ADType.uuidSize(s.type) else {
                return
            }
            var r = ByteReader(s.data)
            while r.remaining >= size, let uuid = try? BluetoothUUID(reading: &r, size: size) { uuids.append(uuid) }
        }
        return uuids
    }
}
