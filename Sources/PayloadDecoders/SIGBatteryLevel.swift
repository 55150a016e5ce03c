import BluetoothPackets
import ByteReading

/// GATT Battery Level (0x2A19): one byte, 0–100 % (payloads.md §D.1, §D.3).
public struct SIGBatteryLevel: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "sig.battery_level" }
    public var summary: String { "GATT Battery Level" }
    public var matches: [MatchKey] { [.characteristic(BluetoothUUID(0x2A19))] }
    public var fields: [FieldDescription] {
        [FieldDescription("battery_pct", unit: "%", "battery charge, 0…100")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let offset = reader.offset
        let level = try reader.u8("battery_pct")
        // 101–255 are reserved; Nordic's parser rejects them too.
        guard level <= 100 else {
            throw DecodeError(.badValue("battery level \(level) is above 100"), at: offset, field: "battery_pct")
        }
        try reader.expectEnd("payload")
        return [Field("battery_pct", .int(Int64(level)))]
    }

    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        [UInt8(try fields.integer("battery_pct", in: 0...100))]
    }
}
