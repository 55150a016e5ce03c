import BluetoothPackets
import ByteReading

/// GATT Temperature Measurement (0x2A1C) and Intermediate Temperature (0x2A1E), which share one
/// layout (payloads.md §D.1):
///
///     flags u8            bit 0 unit (0 °C, 1 °F), bit 1 time stamp present, bit 2 type present
///     temperature         IEEE-11073 FLOAT, 4 bytes (§D.2)
///     [time stamp]        Date Time 0x2A08: year u16 LE, month, day, hours, minutes, seconds
///     [temperature type]  u8 (0x2A1D)
public struct SIGTemperatureMeasurement: PayloadDecoder, PayloadEncoder {
    /// True for Intermediate Temperature (0x2A1E), the readings taken while measuring.
    public var intermediate: Bool

    public init(intermediate: Bool = false) { self.intermediate = intermediate }

    public var id: String { intermediate ? "sig.intermediate_temperature" : "sig.temperature_measurement" }
    public var summary: String {
        intermediate
            ? "GATT Intermediate Temperature (health thermometer)" : "GATT Temperature Measurement (health thermometer)"
    }
    public var matches: [MatchKey] { [.characteristic(BluetoothUUID(intermediate ? 0x2A1E : 0x2A1C))] }
    public var fields: [FieldDescription] {
        [
            FieldDescription(
                "temperature_c", unit: "°C", "the temperature, when sent in Celsius; a string for NaN, ±INF, NRes"),
            FieldDescription("temperature_f", unit: "°F", "the temperature, when sent in Fahrenheit"),
            FieldDescription("timestamp", "when measured, \"YYYY-MM-DD hh:mm:ss\" (when present)"),
            FieldDescription("temperature_type", "where measured, code 1…9 (when present)"),
            FieldDescription("temperature_type_name", "where measured: armpit, body, ear, finger, …"),
        ]
    }

    static let fahrenheit: UInt8 = 0x01
    static let timestampPresent: UInt8 = 0x02
    static let typePresent: UInt8 = 0x04

    static let temperatureTypes: CodeNames = [
        1: "armpit", 2: "body", 3: "ear", 4: "finger", 5: "gastrointestinal_tract", 6: "mouth", 7: "rectum",
        8: "toe", 9: "tympanum",
    ]

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let flags = try reader.u8("flags")
        let temperature = IEEE11073.float(try reader.u32le(flags & fahrenheit != 0 ? "temperature_f" : "temperature_c"))
        var fields: Fields = [Field(flags & fahrenheit != 0 ? "temperature_f" : "temperature_c", temperature)]
        if flags & timestampPresent != 0 {
            fields.append("timestamp", .string(try readDateTime(&reader)))
        }
        if flags & typePresent != 0 {
            let type = try reader.u8("temperature_type")
            fields.append("temperature_type", .int(Int64(type)))
            if let name = temperatureTypes.knownName(type) { fields.append("temperature_type_name", .string(name)) }
        }
        try reader.expectEnd("payload")
        return fields
    }

    /// Date Time (0x2A08) as "YYYY-MM-DD hh:mm:ss"; zeros (unknown) are kept as zeros.
    static func readDateTime(_ reader: inout ByteReader) throws(DecodeError) -> String {
        try reader.require(7, "timestamp")
        let year = try reader.u16le("timestamp")
        var parts: [String] = []
        for _ in 0..<5 { parts.append(zeroPadded(Int(try reader.u8("timestamp")), 2)) }
        return "\(zeroPadded(Int(year), 4))-\(parts[0])-\(parts[1]) \(parts[2]):\(parts[3]):\(parts[4])"
    }

    /// Takes `temperature_f` when present, otherwise `temperature_c`; `timestamp` and
    /// `temperature_type` are written when present.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: 13)
        let unit = fields.has("temperature_f") ? "temperature_f" : "temperature_c"
        var flags: UInt8 = unit == "temperature_f" ? Self.fahrenheit : 0
        if fields.has("timestamp") { flags |= Self.timestampPresent }
        if fields.has("temperature_type") { flags |= Self.typePresent }
        writer.u8(flags)
        writer.u32le(try IEEE11073.floatWord(try fields.value(unit), field: unit))
        if fields.has("timestamp") { writer.append(try Self.dateTimeBytes(try fields.string("timestamp"))) }
        if fields.has("temperature_type") { writer.u8(UInt8(try fields.integer("temperature_type", in: 0...255))) }
        return writer.bytes
    }

    static func dateTimeBytes(_ text: String) throws(EncodeError) -> [UInt8] {
        // "YYYY-MM-DD hh:mm:ss": numbers at fixed places between fixed separators.
        let characters = Array(text)
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, " "), (13, ":"), (16, ":")]
        let digitPlaces = (0..<19).filter { place in !separators.contains { $0.0 == place } }
        guard characters.count == 19, separators.allSatisfy({ characters[$0.0] == $0.1 }),
            digitPlaces.allSatisfy({ ("0"..."9").contains(characters[$0]) })
        else {
            throw EncodeError(.wrongType(expected: "\"YYYY-MM-DD hh:mm:ss\""), field: "timestamp")
        }
        func number(_ range: Range<Int>) -> Int? { Int(String(characters[range])) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hours = number(11..<13), let minutes = number(14..<16), let seconds = number(17..<19)
        else { throw EncodeError(.wrongType(expected: "\"YYYY-MM-DD hh:mm:ss\""), field: "timestamp") }
        var writer = ByteWriter(capacity: 7)
        writer.u16le(UInt16(year))
        for part in [month, day, hours, minutes, seconds] { writer.u8(UInt8(part)) }
        return writer.bytes
    }
}
