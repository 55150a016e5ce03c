import ByteReading

/// EnvSensor board manufacturer data (payloads.md §A.1): exactly 16 bytes after the company id,
/// little-endian, `<HhHIHi`.
public struct EnvSensor: PayloadDecoder, PayloadEncoder {
    /// 0xFFFF on the original boards; later firmware sends 0xABCD (payloads.md §A.1).
    public var company: UInt16
    public static let defaultCompany: UInt16 = 0xFFFF

    public init(company: UInt16 = EnvSensor.defaultCompany) { self.company = company }

    public var id: String { "envsensor" }

    public var parameters: [DecoderParameter] {
        [
            DecoderParameter(
                name: "company", kind: .integer, defaultValue: "0xFFFF", value: "0x" + hex4(company),
                summary: "company id the boards advertise under (0xFFFF; later firmware 0xABCD)")
        ]
    }

    public func configured(with values: DecoderParameterValues) throws(DecoderParameterError) -> any PayloadDecoder {
        guard let text = values.text("company") else { return self }
        guard let company = values.integer("company"), (0...0xFFFF).contains(company) else {
            throw DecoderParameterError(decoder: id, parameter: "company", reason: "'\(text)' is not a 16-bit company id")
        }
        return EnvSensor(company: UInt16(company))
    }

    /// The boards repeat each reading in many advertisements, with the same nonce.
    public var dedupKey: [String]? { ["nonce"] }
    public var summary: String { "EnvSensor board: temperature, humidity, pressure, voltage and current" }
    public var matches: [MatchKey] { [.company(company)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("nonce", "counter the app uses to drop repeated advertisements"),
            FieldDescription("temperature_c", unit: "°C", "temperature, 0.01 °C steps"),
            FieldDescription("humidity_pct", unit: "%", "relative humidity, 0.01 % steps"),
            FieldDescription("pressure_hpa", unit: "hPa", "air pressure, 0.1 hPa steps"),
            FieldDescription("voltage_v", unit: "V", "supply voltage, 0.01 V steps"),
            FieldDescription("current_ma", unit: "mA", "current, 0.01 mA steps, negative when discharging"),
            FieldDescription("power_mw", unit: "mW", "voltage × current, to the 4 decimals its inputs carry"),
        ]
    }

    static let payloadLength = 16
    /// Decimal places of V × I with both in 0.01 steps.
    static let powerDecimals = 4

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, capacity: 7, Self.read)]
    }

    public func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome {
        packing(payload.bytes, into: packer, Self.read)
    }

    static func read<Output: FieldWriting>(_ reader: inout ByteReader, into fields: inout Output) throws(DecodeError) {
        // The app drops any other length without a word; we say so.
        guard reader.remaining == payloadLength else {
            throw DecodeError(
                .badLength(declared: payloadLength, available: reader.remaining), at: reader.offset, field: "payload")
        }
        let nonce = try reader.u16le("nonce")
        let temperature = try reader.i16le("temperature_c")
        let humidity = try reader.u16le("humidity_pct")
        let pressure = try reader.u32le("pressure_hpa")
        let voltage = try reader.u16le("voltage_v")
        let current = try reader.i32le("current_ma")

        // Power is V × I as the app computes it, then rounded to the four decimals two 0.01 steps
        // give, so binary noise does not reach the reading: 3.3 V × −14 mA is −46.2 mW, not
        // −46.199999999999996. The app's two-decimal display is kept (§A.3: 1.01 V × 0.50 mA is
        // 0.505, shown 0.51) except at some products exactly halfway between two hundredths,
        // where the app's last digit comes from the noise: 0.01 V × 17.50 mA is 0.17500000000000002
        // in the app, shown 0.18; the reading says 0.175.
        let volts = Double(voltage) / 100
        let milliamps = Double(current) / 100
        fields.append("nonce", .int(Int64(nonce)))
        fields.append("temperature_c", .double(Double(temperature) / 100))
        fields.append("humidity_pct", .double(Double(humidity) / 100))
        fields.append("pressure_hpa", .double(Double(pressure) / 10))
        fields.append("voltage_v", .double(volts))
        fields.append("current_ma", .double(milliamps))
        fields.append("power_mw", .double(DecimalRounding.rounded(volts * milliamps, decimals: Self.powerDecimals)))
    }

    /// `power_mw` is derived, so it is not read.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: Self.payloadLength)
        writer.u16le(UInt16(try fields.integer("nonce", in: 0...0xFFFF)))
        writer.u16le(UInt16(truncatingIfNeeded: try fields.raw("temperature_c", divisor: 100, in: -0x8000...0x7FFF)))
        writer.u16le(UInt16(try fields.raw("humidity_pct", divisor: 100, in: 0...0xFFFF)))
        writer.u32le(UInt32(try fields.raw("pressure_hpa", divisor: 10, in: 0...0xFFFF_FFFF)))
        writer.u16le(UInt16(try fields.raw("voltage_v", divisor: 100, in: 0...0xFFFF)))
        writer.u32le(
            UInt32(truncatingIfNeeded: try fields.raw("current_ma", divisor: 100, in: -0x8000_0000...0x7FFF_FFFF)))
        return writer.bytes
    }
}
