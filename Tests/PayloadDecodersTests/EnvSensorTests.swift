import ByteReading
import PayloadDecoders
import TestSupport
import Testing

struct EnvSensorTests {
    let decoder = EnvSensor()

    @Test func `envsensor decodes the worked example`() {
        // payloads.md §A.3: the 16 bytes after company 0xFFFF
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")))
        expectFields(
            fields,
            [
                "nonce": 0x1234,
                "temperature_c": 23.45,
                "humidity_pct": 55.3,
                "pressure_hpa": 1013.2,
                "voltage_v": 3.3,
                "current_ma": -12.34,
                "power_mw": -40.721999999999994,  // 3.3 × −12.34 in Double, as the app computes it
            ])
    }

    @Test func `scaled values print as their decimals`() {
        // Double(2345) / 100, never 2345 × 0.01 (23.450000000000003).
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")))
        #expect(fields?["temperature_c"].map { "\($0)" } == "double(23.45)")
    }

    @Test func `power is the product of the two scaled doubles`() {
        // payloads.md §A.3 rounding edge: 1.01 V × 0.50 mA = 0.505000000000000004…, shown "0.51" by the app.
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("00 00 00 00 00 00 00 00 00 00 65 00 32 00 00 00")))
        #expect(fields?["voltage_v"] == 1.01)
        #expect(fields?["current_ma"] == 0.5)
        #expect(fields?["power_mw"] == .double(1.01 * 0.5))
    }

    @Test func `extremes and negatives decode`() {
        // temperature 0x8000, humidity 0xFFFF, pressure 0xFFFFFFFF, voltage 0xFFFF, current 0x80000000
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("FF FF 00 80 FF FF FF FF FF FF FF FF 00 00 00 80")))
        expectFields(
            fields,
            [
                "nonce": 65535,
                "temperature_c": -327.68,
                "humidity_pct": 655.35,
                "pressure_hpa": 429_496_729.5,
                "voltage_v": 655.35,
                "current_ma": -21_474_836.48,
                "power_mw": .double(655.35 * -21_474_836.48),
            ])
        let zero = decodeFields(decoder, .manufacturer(0xFFFF, [UInt8](repeating: 0, count: 16)))
        #expect(zero?["temperature_c"] == 0.0)
        #expect(zero?["power_mw"] == 0.0)
    }

    @Test func `a short payload is a bad length`() {
        let error = decodeError(decoder, .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF")))
        #expect(error == DecodeError(.badLength(declared: 16, available: 15), at: 0, field: "payload"))
    }

    @Test func `a long payload is a bad length`() {
        let error = decodeError(
            decoder, .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF 00")))
        #expect(error == DecodeError(.badLength(declared: 16, available: 17), at: 0, field: "payload"))
    }

    @Test func `an empty payload is a bad length`() {
        let error = decodeError(decoder, .manufacturer(0xFFFF, []))
        #expect(error == DecodeError(.badLength(declared: 16, available: 0), at: 0, field: "payload"))
    }

    @Test func `the company id is a parameter, 0xFFFF by default`() throws {
        let builtIn = try #require(Registry.builtIn.first { $0.id == "envsensor" })
        #expect(builtIn.matches == [.company(0xFFFF)])
        #expect(builtIn.parameters.map(\.name) == ["company"])
        #expect(builtIn.dedupKey == ["nonce"])
        let later = try builtIn.configured(with: DecoderParameterValues(["company": ["0xABCD"]]))
        #expect(later.matches == [.company(0xABCD)])
        #expect(later.parameters.first?.value == "0xABCD")
        #expect((Registry.encoder(for: "envsensor", in: [later]) as? EnvSensor)?.company == 0xABCD)
        #expect(throws: DecoderParameterError.self) {
            try builtIn.configured(with: DecoderParameterValues(["company": ["70000"]]))
        }
    }

    @Test func `encoding writes the worked example`() throws {
        let bytes = try decoder.encode([
            Field("nonce", 0x1234), Field("temperature_c", 23.45), Field("humidity_pct", 55.3),
            Field("pressure_hpa", 1013.2), Field("voltage_v", 3.3), Field("current_ma", -12.34),
        ])
        #expect(bytes == hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF"))
    }

    @Test func `encoding rounds to the nearest step`() throws {
        let bytes = try decoder.encode([
            Field("nonce", 0), Field("temperature_c", 23.454), Field("humidity_pct", 55.296),
            Field("pressure_hpa", 1013.24), Field("voltage_v", 3), Field("current_ma", -0.004),
        ])
        #expect(bytes == hex("00 00 29 09 9A 15 94 27 00 00 2C 01 00 00 00 00"))
    }

    @Test func `encoding names the field that is missing, out of range or of the wrong type`() {
        let complete: Fields = [
            Field("nonce", 1), Field("temperature_c", 20.0), Field("humidity_pct", 50.0),
            Field("pressure_hpa", 1000.0), Field("voltage_v", 3.3), Field("current_ma", 1.0),
        ]
        var missing = complete
        missing.entries.removeAll { $0.name == "humidity_pct" }
        #expect(encodeError(decoder, missing) == EncodeError(.missing, field: "humidity_pct"))

        var tooHot = complete
        tooHot.entries[1] = Field("temperature_c", 327.68)
        #expect(encodeError(decoder, tooHot)?.field == "temperature_c")
        #expect(encodeError(decoder, tooHot)?.reason == .outOfRange("raw -32768…32767"))

        var text = complete
        text.entries[0] = Field("nonce", "one")
        #expect(encodeError(decoder, text) == EncodeError(.wrongType(expected: "integer"), field: "nonce"))
    }

    @Test func `decode of encode gives the fields back`() {
        let boundaries: [Fields] = [
            [
                Field("nonce", 0), Field("temperature_c", -327.68), Field("humidity_pct", 0.0),
                Field("pressure_hpa", 0.0), Field("voltage_v", 0.0), Field("current_ma", -21_474_836.48),
            ],
            [
                Field("nonce", 65535), Field("temperature_c", 327.67), Field("humidity_pct", 655.35),
                Field("pressure_hpa", 429_496_729.5), Field("voltage_v", 655.35), Field("current_ma", 21_474_836.47),
            ],
        ]
        for fields in boundaries {
            // The decoder adds power_mw; compare against what it adds.
            var expected = fields
            let volts = fields["voltage_v"].flatMap { if case .double(let v) = $0 { v } else { nil } } ?? 0
            let milliamps = fields["current_ma"].flatMap { if case .double(let v) = $0 { v } else { nil } } ?? 0
            expected.append("power_mw", .double(volts * milliamps))
            expectRoundTrip(decoder, expected)
        }
        var generator = TestRandom(seed: 0xE5)
        let decoded = expectRoundTrips(decoder, (0..<200).map { _ in generator.bytes(16) })
        #expect(decoded == 200)
    }
}
