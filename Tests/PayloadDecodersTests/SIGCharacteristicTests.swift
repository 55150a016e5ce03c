import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

struct SIGTemperatureMeasurementTests {
    let measurement = SIGTemperatureMeasurement()
    let intermediate = SIGTemperatureMeasurement(intermediate: true)

    @Test func `temperature measurement with time stamp and type`() {
        // payloads.md §D.3: 06 | 6C 01 00 FF | E8 07 0B 14 0A 1E 00 | 02
        let payload = Payload.attribute(BluetoothUUID(0x2A1C), .indicate, hex("06 6C 01 00 FF E8 07 0B 14 0A 1E 00 02"))
        expectFields(
            decodeFields(measurement, payload),
            [
                "temperature_c": 36.4, "timestamp": "2024-11-20 10:30:00", "temperature_type": 2,
                "temperature_type_name": "body",
            ])
    }

    @Test func `intermediate temperature in Fahrenheit without extras`() {
        // payloads.md §D.3: 01 | B6 03 00 FF → 95.0 °F
        let payload = Payload.attribute(BluetoothUUID(0x2A1E), .notify, hex("01 B6 03 00 FF"))
        expectFields(decodeFields(intermediate, payload), ["temperature_f": 95.0])
        #expect(intermediate.id == "sig.intermediate_temperature")
        #expect(intermediate.matches == [.characteristic(BluetoothUUID(0x2A1E))])
    }

    @Test func `a NaN measurement is a string, not a number`() {
        let fields = decodeFields(measurement, .attribute(BluetoothUUID(0x2A1C), .indicate, hex("00 FF FF 7F 00")))
        #expect(fields == [Field("temperature_c", "NaN")])
    }

    @Test func `an unknown date and an unnamed type are kept as numbers`() {
        let fields = decodeFields(
            measurement, .attribute(BluetoothUUID(0x2A1C), .indicate, hex("06 6C 01 00 FF 00 00 00 00 00 00 00 0A")))
        expectFields(fields, ["temperature_c": 36.4, "timestamp": "0000-00-00 00:00:00", "temperature_type": 10])
    }

    @Test func `a measurement shorter than its flags say is a truncation`() {
        let short = decodeError(
            measurement, .attribute(BluetoothUUID(0x2A1C), .indicate, hex("06 6C 01 00 FF E8 07 0B")))
        #expect(short == DecodeError(.truncated(needed: 7, available: 3), at: 5, field: "timestamp"))
        let noValue = decodeError(measurement, .attribute(BluetoothUUID(0x2A1C), .indicate, hex("00 6C 01")))
        #expect(noValue == DecodeError(.truncated(needed: 4, available: 2), at: 1, field: "temperature_c"))
        let typeMissing = decodeError(measurement, .attribute(BluetoothUUID(0x2A1C), .indicate, hex("04 6C 01 00 FF")))
        #expect(typeMissing == DecodeError(.truncated(needed: 1, available: 0), at: 5, field: "temperature_type"))
    }

    @Test func `bytes the flags do not announce are trailing bytes`() {
        let error = decodeError(measurement, .attribute(BluetoothUUID(0x2A1C), .indicate, hex("00 6C 01 00 FF 02")))
        #expect(error == DecodeError(.trailingBytes(count: 1), at: 5, field: "payload"))
    }

    @Test func `encoding writes the worked examples`() throws {
        #expect(
            try measurement.encode([
                Field("temperature_c", 36.4), Field("timestamp", "2024-11-20 10:30:00"), Field("temperature_type", 2),
            ]) == hex("06 6C 01 00 FF E8 07 0B 14 0A 1E 00 02"))
        // 95.0 is written as 95 × 10^0, which reads back as the same 95.0 °F.
        #expect(try intermediate.encode([Field("temperature_f", 95.0)]) == hex("01 5F 00 00 00"))
        #expect(
            encodeError(measurement, [Field("temperature_c", 36.4), Field("timestamp", "2024-11-20")])?.field
                == "timestamp")
        #expect(
            encodeError(measurement, [Field("timestamp", "2024-11-20 10:30:00")])
                == EncodeError(.missing, field: "temperature_c"))
    }

    @Test func `decode of encode gives the fields back`() {
        let sets: [Fields] = [
            [Field("temperature_c", 36.4)],
            [Field("temperature_f", -0.002), Field("temperature_type", 9), Field("temperature_type_name", "tympanum")],
            [Field("temperature_c", "+INF"), Field("timestamp", "9999-12-31 23:59:59")],
            [
                Field("temperature_c", 8_388_605.0), Field("timestamp", "0000-00-00 00:00:00"),
                Field("temperature_type", 0),
            ],
        ]
        for fields in sets { expectRoundTrip(measurement, fields, .indicate) }
        var generator = TestRandom(seed: 0x2A1C)
        let payloads = (0..<300).map { index -> [UInt8] in
            let flags = UInt8(index % 8)
            var bytes = [flags] + generator.bytes(4)
            if flags & 0x02 != 0 {
                bytes += [0xE8, 0x07] + (0..<5).map { _ in UInt8.random(in: 0...99, using: &generator) }
            }
            if flags & 0x04 != 0 { bytes += generator.bytes(1) }
            return bytes
        }
        #expect(expectRoundTrips(measurement, payloads, .indicate) == 300)
        #expect(expectRoundTrips(intermediate, payloads) == 300)
    }
}

struct SIGEnvironmentalSensingTests {
    @Test func `temperature, including negative and unknown`() {
        // payloads.md §D.3
        let decoder = SIGTemperature()
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6E), .read, hex("29 09"))) == [
                Field("temperature_c", 23.45)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6E), .read, hex("38 FF"))) == [
                Field("temperature_c", -2.0)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6E), .read, hex("00 80"))) == [
                Field("temperature_c", .null)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6E), .read, hex("01 80"))) == [
                Field("temperature_c", -327.67)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6E), .read, hex("FF 7F"))) == [
                Field("temperature_c", 327.67)
            ])
    }

    @Test func `humidity, including unknown`() {
        let decoder = SIGHumidity()
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6F), .read, hex("9A 15"))) == [
                Field("humidity_pct", 55.3)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6F), .read, hex("FF FF"))) == [
                Field("humidity_pct", .null)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6F), .read, hex("10 27"))) == [
                Field("humidity_pct", 100.0)
            ])
    }

    @Test func `pressure in pascals`() {
        // payloads.md §D.3: 02 76 0F 00 → 101325.0 Pa
        let decoder = SIGPressure()
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6D), .read, hex("02 76 0F 00"))) == [
                Field("pressure_pa", 101_325.0)
            ])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A6D), .read, hex("03 76 0F 00"))) == [
                Field("pressure_pa", 101_325.1)
            ])
    }

    @Test func `wrong lengths are errors`() {
        #expect(
            decodeError(SIGTemperature(), .attribute(BluetoothUUID(0x2A6E), .read, hex("29")))
                == DecodeError(.truncated(needed: 2, available: 1), at: 0, field: "temperature_c"))
        #expect(
            decodeError(SIGHumidity(), .attribute(BluetoothUUID(0x2A6F), .read, hex("9A 15 00")))
                == DecodeError(.trailingBytes(count: 1), at: 2, field: "payload"))
        #expect(
            decodeError(SIGPressure(), .attribute(BluetoothUUID(0x2A6D), .read, hex("02 76 0F")))
                == DecodeError(.truncated(needed: 4, available: 3), at: 0, field: "pressure_pa"))
    }
}

struct SIGBatteryLevelTests {
    let decoder = SIGBatteryLevel()

    @Test func `battery level from 0 to 100`() {
        // payloads.md §D.3: 55 → 85 %
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A19), .read, hex("55"))) == [Field("battery_pct", 85)])
        #expect(decodeFields(decoder, .attribute(BluetoothUUID(0x2A19), .read, hex("00"))) == [Field("battery_pct", 0)])
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A19), .read, hex("64"))) == [Field("battery_pct", 100)])
    }

    @Test func `above 100, empty and long values are errors`() {
        #expect(
            decodeError(decoder, .attribute(BluetoothUUID(0x2A19), .read, hex("65")))
                == DecodeError(.badValue("battery level 101 is above 100"), at: 0, field: "battery_pct"))
        #expect(
            decodeError(decoder, .attribute(BluetoothUUID(0x2A19), .read, []))
                == DecodeError(.truncated(needed: 1, available: 0), at: 0, field: "battery_pct"))
        #expect(
            decodeError(decoder, .attribute(BluetoothUUID(0x2A19), .read, hex("55 00")))
                == DecodeError(.trailingBytes(count: 1), at: 1, field: "payload"))
    }

    @Test func `decode of encode gives the fields back`() {
        for level in [0, 1, 50, 99, 100] as [Int64] {
            expectRoundTrip(decoder, [Field("battery_pct", .int(level))], .read)
        }
        #expect(
            encodeError(decoder, [Field("battery_pct", 101)])
                == EncodeError(.outOfRange("0…100"), field: "battery_pct")
        )
    }
}

struct SIGHeartRateTests {
    let decoder = SIGHeartRate()

    func measurement(_ text: String) -> Payload { .attribute(BluetoothUUID(0x2A37), .notify, hex(text)) }

    @Test func `heart rate with contact and two RR intervals`() {
        // payloads.md §D.3: 16 48 00 04 1A 03
        expectFields(
            decodeFields(decoder, measurement("16 48 00 04 1A 03")),
            ["heart_rate_bpm": 72, "sensor_contact": true, "rr_intervals_s": .list([1.0, 0.775390625])])
    }

    @Test func `a 16-bit heart rate with energy and one RR interval`() {
        // payloads.md §D.3: 19 8C 00 E8 03 00 02
        expectFields(
            decodeFields(decoder, measurement("19 8C 00 E8 03 00 02")),
            ["heart_rate_bpm": 140, "energy_kj": 1000, "rr_intervals_s": .list([0.5])])
    }

    @Test func `contact supported but lost, and contact not supported`() {
        #expect(
            decodeFields(decoder, measurement("04 3C")) == [
                Field("heart_rate_bpm", 60), Field("sensor_contact", false),
            ])
        #expect(decodeFields(decoder, measurement("02 3C")) == [Field("heart_rate_bpm", 60)])
        #expect(decodeFields(decoder, measurement("01 FF FF")) == [Field("heart_rate_bpm", 65535)])
    }

    @Test func `missing and odd bytes are errors`() {
        #expect(
            decodeError(decoder, measurement("10 48"))
                == DecodeError(.truncated(needed: 2, available: 0), at: 2, field: "rr_intervals_s"))
        #expect(
            decodeError(decoder, measurement("10 48 00 04 1A"))
                == DecodeError(.truncated(needed: 2, available: 1), at: 4, field: "rr_intervals_s"))
        #expect(
            decodeError(decoder, measurement("08 48 E8"))
                == DecodeError(.truncated(needed: 2, available: 1), at: 2, field: "energy_kj"))
        #expect(
            decodeError(decoder, measurement("01 48"))
                == DecodeError(.truncated(needed: 2, available: 1), at: 1, field: "heart_rate_bpm"))
        #expect(
            decodeError(decoder, measurement("00 48 00"))
                == DecodeError(.trailingBytes(count: 1), at: 2, field: "payload"))
        #expect(
            decodeError(decoder, measurement(""))
                == DecodeError(.truncated(needed: 1, available: 0), at: 0, field: "flags"))
    }

    @Test func `encoding writes the worked examples`() throws {
        #expect(
            try decoder.encode([
                Field("heart_rate_bpm", 72), Field("sensor_contact", true),
                Field("rr_intervals_s", .list([1.0, 0.7754])),
            ])
                == hex("16 48 00 04 1A 03"))
        #expect(
            try decoder.encode([Field("heart_rate_bpm", 300), Field("energy_kj", 1000)]) == hex("09 2C 01 E8 03"))
        #expect(
            encodeError(decoder, [Field("heart_rate_bpm", 72), Field("rr_intervals_s", .list([]))])?.field
                == "rr_intervals_s")
    }

    @Test func `decode of encode gives the fields back`() {
        let sets: [Fields] = [
            [Field("heart_rate_bpm", 0)],
            [Field("heart_rate_bpm", 255), Field("sensor_contact", false)],
            [Field("heart_rate_bpm", 256), Field("energy_kj", 65535)],
            [
                Field("heart_rate_bpm", 65535), Field("sensor_contact", true), Field("energy_kj", 0),
                Field("rr_intervals_s", .list([0.0, 63.9990234375])),
            ],
        ]
        for fields in sets { expectRoundTrip(decoder, fields) }
        var generator = TestRandom(seed: 0x2A37)
        let payloads = (0..<300).map { index -> [UInt8] in
            let flags = UInt8(index % 32)
            var bytes = [flags] + generator.bytes(flags & 0x01 != 0 ? 2 : 1)
            if flags & 0x08 != 0 { bytes += generator.bytes(2) }
            if flags & 0x10 != 0 { bytes += generator.bytes(2 * (1 + index % 4)) }
            return bytes
        }
        #expect(expectRoundTrips(decoder, payloads) == 300)
    }
}

struct SIGTextTests {
    let decoder = SIGText()

    @Test func `device information strings`() {
        // payloads.md §D.3: 4E 6F 72 64 69 63 → "Nordic", on each string characteristic
        for uuid in SIGText.characteristics {
            #expect(
                decodeFields(decoder, .attribute(BluetoothUUID(uuid), .read, hex("4E 6F 72 64 69 63"))) == [
                    Field("text", "Nordic")
                ])
        }
        #expect(decoder.matches.count == 7)
    }

    @Test func `trailing NULs are dropped, UTF-8 is kept`() {
        #expect(
            decodeFields(decoder, .attribute(BluetoothUUID(0x2A00), .read, Array("Thermo ℃".utf8) + [0, 0])) == [
                Field("text", "Thermo ℃")
            ])
        #expect(decodeFields(decoder, .attribute(BluetoothUUID(0x2A00), .read, [])) == [Field("text", "")])
    }

    @Test func `bytes that are not UTF-8 are an error`() {
        let error = decodeError(decoder, .attribute(BluetoothUUID(0x2A29), .read, hex("4E FF")))
        #expect(error == DecodeError(.badValue("not UTF-8"), at: 0, field: "text"))
    }
}
