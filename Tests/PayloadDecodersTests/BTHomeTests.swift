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

    @Test func `encrypted payloads without their bindkey keep the ciphertext`() {
        // ciphertext (5) | counter 0x00000102 LE | MIC (4)
        expectFields(
            decodeFields(decoder, serviceData("41 A1 A2 A3 A4 A5 02 01 00 00 B1 B2 B3 B4")),
            [
                "encrypted": true, "trigger_based": false, "counter": 258, "ciphertext": "a1a2a3a4a5",
                "mic": "b1b2b3b4",
            ])
        #expect(
            decodeError(decoder, serviceData("41 02 01 00 00 B1 B2 B3"))
                == DecodeError(.truncated(needed: 8, available: 7), at: 1, field: "counter"))
    }

    @Test func `the object ids added to the table last decode as bthome-ble reads them`() {
        // Values bthome-ble 3.25 gives for these bytes (scripts/reference-parsers.py compares every id):
        // direction 100.0, precipitation 1.0, channel 7, rotational speed 10000, speed −0.000999,
        // acceleration 0.001, light level 1, settings revision 2.
        expectFields(
            decodeFields(decoder, serviceData("40 5E 10 27 5F 0A 00 60 07 61 10 27 62 19 FC FF FF 63 E8 03 00 00 64 01 65 02")),
            [
                "encrypted": false, "trigger_based": false,
                "direction_deg": 100.0, "precipitation_mm": 1.0, "channel": 7, "rotational_speed_rpm": 10_000,
                "speed_m_s": -0.000999, "acceleration_m_s2": 0.001, "light_level": 1, "settings_revision": 2,
            ])
        // bthome-ble: −1.249088 m/s (sint32 × 0.000001, six places kept).
        #expect(decodeFields(decoder, serviceData("40 62 C0 F0 EC FF"))?["speed_m_s"] == -1.249088)
    }

    @Test func `command events carry their opcode and arguments`() throws {
        // bthome.io "Events": 3B 01 03 05 is step up, one argument byte 05 (bthome-ble: step_up, args "05");
        // 3B 00 02 is toggle with no arguments; button 0x81 is hold_release.
        expectFields(
            decodeFields(decoder, serviceData("44 3B 01 03 05 3A 81")),
            [
                "encrypted": false, "trigger_based": true, "command": "step_up", "command_args": "05",
                "button": "hold_release",
            ])
        expectFields(
            decodeFields(decoder, serviceData("40 3B 00 02 3C 02 05 3B 02 09 AB CD")),
            [
                "encrypted": false, "trigger_based": false, "command": "toggle", "command_args": "",
                "dimmer": "rotate_right", "dimmer_steps": 5, "command_2": "reserved_9", "command_args_2": "abcd",
            ])
        // The length byte's high three bits are reserved: only the low five count arguments.
        #expect(decodeFields(decoder, serviceData("40 3B E1 03 05"))?["command_args"] == "05")
        #expect(
            decodeError(decoder, serviceData("40 3B 02 03 05"))
                == DecodeError(.truncated(needed: 2, available: 1), at: 4, field: "command_args"))
        #expect(try decoder.encode([Field("command", "step_down"), Field("command_args", "0a")]) == hex("40 3B 01 04 0A"))
        #expect(try decoder.encode([Field("command", "on")]) == hex("40 3B 00 01"))
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

    @Test func `exactly the 95 ids of the current object table are known`() {
        // bthome.io "Format" / bthome-ble 3.25 const.py: 0x00–0x2F, 0x3A–0x65, 0xF0–0xF2.
        let table = Set(Array(0x00...0x2F) + Array(0x3A...0x65) + [0xF0, 0xF1, 0xF2] as [Int])
        for id in 0...255 {
            let outcome = decoder.decode(serviceData("40 " + Hex.encode([UInt8(id)]) + " 00 00 00 00 00 00 00 00"))
            let unknown = DecodeOutcome.error(
                DecodeError(.badValue("unknown object id 0x\(Hex.encode([UInt8(id)]).uppercased())"), at: 1, field: "object_id"))
            #expect((outcome == [unknown]) == !table.contains(id), "object id \(id)")
        }
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

    @Test func `encoding rejects unknown names and values that do not fit`() {
        #expect(encodeError(decoder, [Field("warmth_c", 20.0)]) == EncodeError(.unknownField, field: "warmth_c"))
        #expect(
            encodeError(decoder, [Field("temperature_c_1", 20.0)])
                == EncodeError(.unknownField, field: "temperature_c_1"))
        #expect(encodeError(decoder, [Field("battery_pct", 256)])?.field == "battery_pct")
        #expect(encodeError(decoder, [Field("dimmer", "rotate_left")]) == EncodeError(.missing, field: "dimmer_steps"))
        let arguments = Field("command_args", .string(String(repeating: "00", count: 32)))
        #expect(
            encodeError(decoder, [Field("command", "on"), arguments])
                == EncodeError(.outOfRange("at most 31 bytes"), field: "command_args"))
    }

    @Test func `decode of encode gives the fields back`() {
        var generator = TestRandom(seed: 0xFCD2)
        // Every id of the current table: 0x00–0x2F, 0x3A–0x65, 0xF0–0xF2 (95).
        let ids: [UInt8] = Array(0x00...0x2F) + Array(0x3A...0x65) + [0xF0, 0xF1, 0xF2]
        #expect(ids.count == 95)
        let sizes: [UInt8: Int] = [
            0x02: 2, 0x03: 2, 0x04: 3, 0x05: 3, 0x06: 2, 0x07: 2, 0x08: 2, 0x0A: 3, 0x0B: 3, 0x0C: 2, 0x0D: 2,
            0x0E: 2, 0x12: 2, 0x13: 2, 0x14: 2, 0x3C: 2, 0x3D: 2, 0x3E: 4, 0x3F: 2, 0x40: 2, 0x41: 2, 0x42: 3,
            0x43: 2, 0x44: 2, 0x45: 2, 0x47: 2, 0x48: 2, 0x49: 2, 0x4A: 2, 0x4B: 3, 0x4C: 4, 0x4D: 4, 0x4E: 4,
            0x4F: 4, 0x50: 4, 0x51: 2, 0x52: 2, 0x55: 4, 0x56: 2, 0x5A: 2, 0x5B: 4, 0x5C: 4, 0x5D: 2, 0x5E: 2,
            0x5F: 2, 0x61: 2, 0x62: 4, 0x63: 4, 0xF0: 2, 0xF1: 4, 0xF2: 3,
        ]
        var payloads: [[UInt8]] = []
        for _ in 0..<400 {
            var bytes: [UInt8] = [UInt8.random(in: 0...1, using: &generator) == 0 ? 0x40 : 0x44]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let id = ids.randomElement(using: &generator)!
                bytes.append(id)
                switch id {
                case 0x3B:
                    let count = Int.random(in: 0...3, using: &generator)
                    bytes += [UInt8(count)] + generator.bytes(1 + count)
                case 0x53: bytes += [3] + Array("abc".utf8)
                case 0x54: bytes += [2] + generator.bytes(2)
                default: bytes += generator.bytes(sizes[id] ?? 1)
                }
            }
            payloads.append(bytes)
        }
        #expect(expectRoundTrips(decoder, payloads) == 400)
    }
}
