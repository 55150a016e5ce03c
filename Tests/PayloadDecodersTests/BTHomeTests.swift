import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

struct BTHomeTests {
    let decoder = BTHome()

    func serviceData(_ text: String) -> Payload { .service(0xFCD2, hex(text)) }

    @Test func `bthome decodes the bthome.io example`() {
        // payloads.md §E: service data `D2 FC 40 02 C4 09 03 BF 13`, after the UUID
        expectFields(
            decodeFields(decoder, serviceData("40 02 C4 09 03 BF 13")),
            ["encrypted": false, "trigger_based": false, "temperature_c": 25.0, "humidity_pct": 50.55])
    }

    @Test func `pressure object`() {
        // payloads.md §E: 04 13 8A 01 → 1008.83 hPa
        expectFields(
            decodeFields(decoder, serviceData("40 04 13 8A 01")),
            ["encrypted": false, "trigger_based": false, "pressure_hpa": 1008.83])
    }

    @Test func `trigger-based device with packet id, battery and a negative temperature`() {
        // payloads.md §E: 44 00 2A 01 5D 02 38 FF
        expectFields(
            decodeFields(decoder, serviceData("44 00 2A 01 5D 02 38 FF")),
            ["encrypted": false, "trigger_based": true, "packet_id": 42, "battery_pct": 93, "temperature_c": -2.0])
    }

    @Test func `repeated objects get numbered names`() {
        expectFields(
            decodeFields(decoder, serviceData("40 02 C4 09 02 38 FF 45 EA 00 2E 32")),
            [
                "encrypted": false, "trigger_based": false,
                "temperature_c": 25.0, "temperature_c_2": -2.0, "temperature_c_3": 23.4, "humidity_pct": 50,
            ])
    }

    @Test func `the less common object formats`() {
        let bytes =
            "40 09 05 0F 01 15 00 3A 02 3C 01 03 3D 2C 01 3E FF FF FF FF 50 00 5E 5B 67"
            + " 53 02 68 69 54 03 01 02 FF 57 E9 58 0A 59 FF F1 04 03 02 01 F2 03 02 01 5C 18 FC FF FF"
        expectFields(
            decodeFields(decoder, serviceData(bytes)),
            [
                "encrypted": false, "trigger_based": false,
                "count": 5, "generic_boolean": true, "battery_low": false, "button": "double_press",
                "dimmer": "rotate_left", "dimmer_steps": 3, "count_2": 300, "count_3": 4_294_967_295,
                "timestamp": 1_734_041_088, "text": "hi", "raw": "0102ff", "temperature_c": -23,
                "temperature_c_2": 3.5, "count_4": -1, "firmware_version": "1.2.3.4", "firmware_version_2": "1.2.3",
                "power_w": -10.0,
            ])
    }

    @Test func `encrypted payloads give the counter and no measurements`() {
        // ciphertext (5) | counter 0x00000102 LE | MIC (4)
        expectFields(
            decodeFields(decoder, serviceData("41 A1 A2 A3 A4 A5 02 01 00 00 B1 B2 B3 B4")),
            ["encrypted": true, "trigger_based": false, "counter": 258])
        #expect(
            decodeError(decoder, serviceData("41 02 01 00 00 B1 B2 B3"))
                == DecodeError(.truncated(needed: 8, available: 7), at: 1, field: "counter"))
    }

    @Test func `a version other than 2 is an error`() {
        #expect(
            decodeError(decoder, serviceData("20 02 C4 09"))
                == DecodeError(.badValue("BTHome version 1, only version 2 is decoded"), at: 0, field: "device_info"))
        #expect(
            decodeError(decoder, serviceData("60 02 C4 09"))
                == DecodeError(.badValue("BTHome version 3, only version 2 is decoded"), at: 0, field: "device_info"))
        #expect(
            decodeError(decoder, serviceData(""))
                == DecodeError(.truncated(needed: 1, available: 0), at: 0, field: "device_info"))
    }

    @Test func `an unknown object id is an error at its offset`() {
        #expect(
            decodeError(decoder, serviceData("40 02 C4 09 FF 01"))
                == DecodeError(.badValue("unknown object id 0xFF"), at: 4, field: "object_id"))
    }

    @Test func `a cut object is a truncation`() {
        #expect(
            decodeError(decoder, serviceData("40 02 C4"))
                == DecodeError(.truncated(needed: 2, available: 1), at: 2, field: "temperature_c"))
        #expect(
            decodeError(decoder, serviceData("40 53 05 68 69"))
                == DecodeError(.truncated(needed: 5, available: 2), at: 3, field: "text"))
        #expect(
            decodeError(decoder, serviceData("40 53 02 68 FF"))
                == DecodeError(.badValue("not UTF-8"), at: 3, field: "text"))
    }

    @Test func `encoding writes the bthome.io example`() throws {
        let bytes = try decoder.encode([Field("temperature_c", 25.0), Field("humidity_pct", 50.55)])
        #expect(bytes == hex("40 02 C4 09 03 BF 13"))
    }

    @Test func `encoding picks the object that holds the value exactly`() throws {
        #expect(try decoder.encode([Field("temperature_c", 23)]) == hex("40 57 17"))  // integer: 0x57
        #expect(try decoder.encode([Field("temperature_c", 400.5)]) == hex("40 45 A5 0F"))  // too big for 0x02
        #expect(try decoder.encode([Field("count", 300)]) == hex("40 3D 2C 01"))
        #expect(try decoder.encode([Field("count", -1)]) == hex("40 59 FF"))
        #expect(try decoder.encode([Field("temperature_c", 23.456)]) == hex("40 02 2A 09"))  // rounded to 23.46
        #expect(
            try decoder.encode([Field("trigger_based", true), Field("packet_id", 1), Field("packet_id_2", 2)])
                == hex("44 00 01 00 02"))
    }

    @Test func `encoding rejects encrypted payloads and unknown names`() {
        #expect(
            encodeError(decoder, [Field("encrypted", true)])
                == EncodeError(.outOfRange("only unencrypted payloads can be encoded"), field: "encrypted"))
        #expect(encodeError(decoder, [Field("warmth_c", 20.0)]) == EncodeError(.unknownField, field: "warmth_c"))
        #expect(
            encodeError(decoder, [Field("temperature_c_1", 20.0)])
                == EncodeError(.unknownField, field: "temperature_c_1"))
        #expect(encodeError(decoder, [Field("battery_pct", 256)])?.field == "battery_pct")
        #expect(encodeError(decoder, [Field("dimmer", "rotate_left")]) == EncodeError(.missing, field: "dimmer_steps"))
    }

    @Test func `decode of encode gives the fields back`() {
        var generator = TestRandom(seed: 0xFCD2)
        let ids: [UInt8] = Array(0x00...0x2F) + Array(0x3A...0x5D).filter { $0 != 0x3B } + [0xF0, 0xF1, 0xF2]
        let sizes: [UInt8: Int] = [
            0x02: 2, 0x03: 2, 0x04: 3, 0x05: 3, 0x06: 2, 0x07: 2, 0x08: 2, 0x0A: 3, 0x0B: 3, 0x0C: 2, 0x0D: 2,
            0x0E: 2, 0x12: 2, 0x13: 2, 0x14: 2, 0x3C: 2, 0x3D: 2, 0x3E: 4, 0x3F: 2, 0x40: 2, 0x41: 2, 0x42: 3,
            0x43: 2, 0x44: 2, 0x45: 2, 0x47: 2, 0x48: 2, 0x49: 2, 0x4A: 2, 0x4B: 3, 0x4C: 4, 0x4D: 4, 0x4E: 4,
            0x4F: 4, 0x50: 4, 0x51: 2, 0x52: 2, 0x55: 4, 0x56: 2, 0x5A: 2, 0x5B: 4, 0x5C: 4, 0x5D: 2, 0xF0: 2,
            0xF1: 4, 0xF2: 3,
        ]
        var payloads: [[UInt8]] = []
        for _ in 0..<300 {
            var bytes: [UInt8] = [UInt8.random(in: 0...1, using: &generator) == 0 ? 0x40 : 0x44]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let id = ids.randomElement(using: &generator)!
                bytes.append(id)
                switch id {
                case 0x53: bytes += [3] + Array("abc".utf8)
                case 0x54: bytes += [2] + generator.bytes(2)
                default: bytes += generator.bytes(sizes[id] ?? 1)
                }
            }
            payloads.append(bytes)
        }
        #expect(expectRoundTrips(decoder, payloads) == 300)
    }
}
