import ByteReading
import Foundation
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
                "power_mw": -40.722,  // 3.3 × −12.34: four decimals at most, not −40.721999999999994
            ])
    }

    @Test func `scaled values print as their decimals`() {
        // Double(2345) / 100, never 2345 × 0.01 (23.450000000000003).
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")))
        #expect(fields?["temperature_c"].map { "\($0)" } == "23.45")
    }

    @Test func `power keeps the four decimals its inputs carry`() {
        // 3.3 V × −14 mA is −46.2 mW, not the −46.199999999999996 a Double product gives.
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("00 00 00 00 00 00 00 00 00 00 4A 01 88 FA FF FF")))
        #expect(fields?["current_ma"] == -14.0)
        #expect(fields?["power_mw"] == -46.2)
        #expect(fields?["power_mw"].map { "\($0)" } == "-46.2")
    }

    @Test func `power rounds as the app shows it`() {
        // payloads.md §A.3 rounding edge: 1.01 V × 0.50 mA = 0.505000000000000004… in the app, shown
        // "0.51" with %.2f; the reading's 0.505 shows the same.
        let fields = decodeFields(
            decoder, .manufacturer(0xFFFF, hex("00 00 00 00 00 00 00 00 00 00 65 00 32 00 00 00")))
        #expect(fields?["voltage_v"] == 1.01)
        #expect(fields?["current_ma"] == 0.5)
        #expect(fields?["power_mw"] == 0.505)
        #expect(String(format: "%.2f", 0.505) == "0.51")
        #expect(String(format: "%.2f", 1.01 * 0.5) == "0.51")
    }

    @Test func `power is the exact decimal product, and shows as the app's wherever that is not a tie`() {
        // Every voltage 0…4.00 V against every current −30.00…30.00 mA in 0.37 mA steps. The exact
        // product of the raw integers, scaled by 10⁻⁴, is what the reading must hold; and %.2f of
        // it must match %.2f of the app's Double product, except where the product is exactly
        // halfway between two hundredths and the app's last digit comes from binary noise.
        var ties = 0
        var differentAtTies = 0
        var compared = 0
        for voltage in stride(from: 0, through: 400, by: 1) {
            for current in stride(from: -3000, through: 3000, by: 37) {
                var bytes = [UInt8](repeating: 0, count: 16)
                bytes[10] = UInt8(voltage & 0xFF)
                bytes[11] = UInt8(voltage >> 8)
                for index in 0..<4 { bytes[12 + index] = UInt8(truncatingIfNeeded: current >> (8 * index)) }
                guard case .double(let power)? = EnvSensorTests.fields(decoder, bytes)?["power_mw"] else {
                    Issue.record("no power for \(voltage), \(current)")
                    return
                }
                let exact = Double("\(voltage * current)e-4")!
                #expect(power == exact, "\(voltage) × \(current)")
                let app = (Double(voltage) / 100) * (Double(current) / 100)
                compared += 1
                if (voltage * current) % 100 == 50 || (voltage * current) % 100 == -50 {
                    ties += 1
                    if String(format: "%.2f", power) != String(format: "%.2f", app) { differentAtTies += 1 }
                } else if voltage * current == 0 {
                    // 0 V × a negative current is −0.0 in the app ("-0.00"); a reading has no −0.
                    #expect(power == 0 && power.sign == .plus, "\(voltage) × \(current)")
                } else {
                    #expect(String(format: "%.2f", power) == String(format: "%.2f", app), "\(voltage) × \(current)")
                }
            }
        }
        #expect(compared == 401 * 163)
        #expect(ties > 0 && differentAtTies < ties)
    }

    static func fields(_ decoder: EnvSensor, _ bytes: [UInt8]) -> Fields? {
        guard case .fields(let fields)? = decoder.decode(.manufacturer(0xFFFF, bytes)).first else { return nil }
        return fields
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
                "power_mw": -14_073_534_087.168,  // 65535 × −2147483648 × 10⁻⁴, exactly
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
            expected.append("power_mw", .double(DecimalRounding.rounded(volts * milliamps, decimals: 4)))
            expectRoundTrip(decoder, expected)
        }
        var generator = TestRandom(seed: 0xE5)
        let decoded = expectRoundTrips(decoder, (0..<200).map { _ in generator.bytes(16) })
        #expect(decoded == 200)
    }
}
