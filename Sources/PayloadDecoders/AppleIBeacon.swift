import BluetoothPackets
import ByteReading

/// Apple iBeacon (payloads.md §F): manufacturer data of company 0x004C whose first bytes are type
/// 0x02 and length 0x15. Other Apple types (AirDrop, Handoff, Find My, …) are not ours.
///
///     0      type 0x02
///     1      length 0x15 (21 bytes follow)
///     2…17   proximity UUID, in printed order
///     18…19  major, big-endian
///     20…21  minor, big-endian
///     22     measured power, i8 dBm at 1 m
public struct AppleIBeacon: PayloadDecoder, PayloadEncoder {
    public init() {}

    static let company: UInt16 = 0x004C
    static let type: UInt8 = 0x02
    static let length: UInt8 = 0x15

    public var id: String { "ibeacon" }
    public var summary: String { "Apple iBeacon: proximity UUID, major, minor, measured power" }
    public var matches: [MatchKey] { [.company(Self.company)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("uuid", "proximity UUID, lower case"),
            FieldDescription("major", "major number"),
            FieldDescription("minor", "minor number"),
            FieldDescription("measured_power_dbm", unit: "dBm", "received power at 1 m, for ranging"),
        ]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        guard payload.firstByte == Self.type else { return [] }
        return [decoding(payload.bytes, capacity: 4, Self.read)]
    }

    public func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome {
        guard payload.firstByte == Self.type else { return .none }
        return packing(payload.bytes, into: packer, Self.read)
    }

    static func read<Output: FieldWriting>(_ reader: inout ByteReader, into fields: inout Output) throws(DecodeError) {
        try reader.skip(1, "type")
        let lengthOffset = reader.offset
        let declared = try reader.u8("length")
        guard declared == length else {
            throw DecodeError(
                .badValue("iBeacon length \(declared), expected \(length)"), at: lengthOffset, field: "length")
        }
        try reader.require(Int(length), "ibeacon")
        let uuidHigh = try reader.u64be("uuid")
        let uuidLow = try reader.u64be("uuid")
        let uuid = BluetoothUUID(high: uuidHigh, low: uuidLow)
        let major = try reader.u16be("major")
        let minor = try reader.u16be("minor")
        let power = try reader.i8("measured_power_dbm")
        try reader.expectEnd("payload")
        // Written in place: a 36-character string on the heap for every advertisement otherwise.
        fields.appendText("uuid", maximumCount: BluetoothUUID.maximumTextLength) { uuid.writeText(to: $0, canonical: true) }
        fields.append("major", .int(Int64(major)))
        fields.append("minor", .int(Int64(minor)))
        fields.append("measured_power_dbm", .int(Int64(power)))
    }

    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        let text = try fields.string("uuid")
        guard text.count == 36, let uuid = Hex.decode(text.filter { $0 != "-" }), uuid.count == 16 else {
            throw EncodeError(.wrongType(expected: "a UUID like 83256b74-78d0-43a4-8269-05f9dc8a44ba"), field: "uuid")
        }
        var writer = ByteWriter(capacity: 23)
        writer.u8(Self.type)
        writer.u8(Self.length)
        writer.append(uuid)
        writer.u16be(UInt16(try fields.integer("major", in: 0...0xFFFF)))
        writer.u16be(UInt16(try fields.integer("minor", in: 0...0xFFFF)))
        writer.u8(UInt8(bitPattern: Int8(try fields.integer("measured_power_dbm", in: -128...127))))
        return writer.bytes
    }
}
