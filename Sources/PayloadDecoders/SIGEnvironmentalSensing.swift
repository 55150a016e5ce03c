import BluetoothPackets
import ByteReading

/// GATT Temperature (0x2A6E): i16 LE in 0.01 °C; 0x8000 means unknown (payloads.md §D.1, §D.3).
public struct SIGTemperature: PayloadDecoder {
    public init() {}

    public var id: String { "sig.temperature" }
    public var summary: String { "GATT Temperature (environmental sensing)" }
    public var matches: [MatchKey] { [.characteristic(BluetoothUUID(0x2A6E))] }
    public var fields: [FieldDescription] {
        [FieldDescription("temperature_c", unit: "°C", "temperature, 0.01 °C steps; null when unknown")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let raw = try reader.i16le("temperature_c")
        try reader.expectEnd("payload")
        // Not −327.68 °C: the sentinel for "no reading".
        return [Field("temperature_c", raw == Int16.min ? .null : .double(Double(raw) / 100))]
    }
}

/// GATT Humidity (0x2A6F): u16 LE in 0.01 %; 0xFFFF means unknown (payloads.md §D.1, §D.3).
public struct SIGHumidity: PayloadDecoder {
    public init() {}

    public var id: String { "sig.humidity" }
    public var summary: String { "GATT Humidity (environmental sensing)" }
    public var matches: [MatchKey] { [.characteristic(BluetoothUUID(0x2A6F))] }
    public var fields: [FieldDescription] {
        [FieldDescription("humidity_pct", unit: "%", "relative humidity, 0.01 % steps; null when unknown")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let raw = try reader.u16le("humidity_pct")
        try reader.expectEnd("payload")
        return [Field("humidity_pct", raw == 0xFFFF ? .null : .double(Double(raw) / 100))]
    }
}

/// GATT Pressure (0x2A6D): u32 LE in 0.1 Pa (payloads.md §D.1, §D.3).
public struct SIGPressure: PayloadDecoder {
    public init() {}

    public var id: String { "sig.pressure" }
    public var summary: String { "GATT Pressure (environmental sensing)" }
    public var matches: [MatchKey] { [.characteristic(BluetoothUUID(0x2A6D))] }
    public var fields: [FieldDescription] {
        [FieldDescription("pressure_pa", unit: "Pa", "air pressure, 0.1 Pa steps")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let raw = try reader.u32le("pressure_pa")
        try reader.expectEnd("payload")
        return [Field("pressure_pa", .double(Double(raw) / 10))]
    }
}
