import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

struct AppleIBeaconTests {
    let decoder = AppleIBeacon()

    /// payloads.md §F, forforf's packet after `1A FF 4C 00`.
    static let beacon = "02 15 83 25 6B 74 78 D0 43 A4 82 69 05 F9 DC 8A 44 BA 00 10 00 20 C6"

    @Test func `ibeacon decodes the worked example`() {
        expectFields(
            decodeFields(decoder, .manufacturer(0x004C, hex(Self.beacon))),
            ["uuid": "83256b74-78d0-43a4-8269-05f9dc8a44ba", "major": 16, "minor": 32, "measured_power_dbm": -58])
    }

    @Test func `a UUID on the Bluetooth base is still written in full`() {
        let bytes = hex("02 15 00 00 18 0F 00 00 10 00 80 00 00 80 5F 9B 34 FB FF FF 00 00 7F")
        expectFields(
            decodeFields(decoder, .manufacturer(0x004C, bytes)),
            ["uuid": "0000180f-0000-1000-8000-00805f9b34fb", "major": 65535, "minor": 0, "measured_power_dbm": 127])
    }

    @Test func `other Apple types are not this decoder's`() {
        #expect(decoder.decode(.manufacturer(0x004C, hex("10 05 01 18 2C 7E 0D"))) == [])  // nearby info
        #expect(decoder.decode(.manufacturer(0x004C, hex("12 19 10"))) == [])  // Find My
        #expect(decoder.decode(.manufacturer(0x004C, [])) == [])
    }

    @Test func `a wrong length byte, a short and a long beacon are errors`() {
        #expect(
            decodeError(decoder, .manufacturer(0x004C, hex("02 14") + hex(Self.beacon).dropFirst(2).dropLast()))
                == DecodeError(.badValue("iBeacon length 20, expected 21"), at: 1, field: "length"))
        #expect(
            decodeError(decoder, .manufacturer(0x004C, Array(hex(Self.beacon).dropLast())))
                == DecodeError(.truncated(needed: 21, available: 20), at: 2, field: "ibeacon"))
        #expect(
            decodeError(decoder, .manufacturer(0x004C, hex(Self.beacon + " 00")))
                == DecodeError(.trailingBytes(count: 1), at: 23, field: "payload"))
    }

    @Test func `encoding writes the worked example`() throws {
        let bytes = try decoder.encode([
            Field("uuid", "83256B74-78D0-43A4-8269-05F9DC8A44BA"), Field("major", 16), Field("minor", 32),
            Field("measured_power_dbm", -58),
        ])
        #expect(bytes == hex(Self.beacon))
        #expect(
            encodeError(
                decoder,
                [Field("uuid", "83256b74"), Field("major", 1), Field("minor", 1), Field("measured_power_dbm", 0)])?
                .field == "uuid")
        #expect(
            encodeError(
                decoder,
                [
                    Field("uuid", "83256b74-78d0-43a4-8269-05f9dc8a44ba"), Field("major", 65536), Field("minor", 1),
                    Field("measured_power_dbm", 0),
                ])
                == EncodeError(.outOfRange("0…65535"), field: "major"))
    }

    @Test func `decode of encode gives the fields back`() {
        var generator = TestRandom(seed: 0x4C)
        let payloads = (0..<200).map { _ in [0x02, 0x15] + generator.bytes(21) }
        #expect(expectRoundTrips(decoder, payloads) == 200)
    }
}

struct EddystoneTests {
    let uid = EddystoneUID()
    let url = EddystoneURL()
    let tlm = EddystoneTLM()
    let eid = EddystoneEID()

    func frame(_ text: String) -> Payload { .service(0xFEAA, hex(text)) }

    /// payloads.md §G: the frames after `AA FE`.
    static let uidFrame = "00 E7 8B 0C A7 50 09 54 77 CB 3E 77 00 00 00 00 00 01 00 00"
    static let urlFrame = "10 EB 01 65 78 61 6D 70 6C 65 00"
    static let tlmFrame = "20 00 0B B8 17 80 00 00 10 00 00 00 0E 10"

    @Test func `UID decodes the worked example`() {
        expectFields(
            decodeFields(uid, frame(Self.uidFrame)),
            ["tx_power_dbm": -25, "namespace": "8b0ca750095477cb3e77", "instance": "000000000001"])
        // Older beacons leave out the two reserved bytes.
        #expect(decodeFields(uid, frame(String(Self.uidFrame.dropLast(6))))?["instance"] == "000000000001")
    }

    @Test func `URL decodes the worked example`() {
        expectFields(decodeFields(url, frame(Self.urlFrame)), ["tx_power_dbm": -21, "url": "https://www.example.com/"])
    }

    @Test func `URL expands every scheme and suffix`() {
        #expect(decodeFields(url, frame("10 00 00 61 07"))?["url"] == "http://www.a.com")
        #expect(decodeFields(url, frame("10 00 02 61 0D"))?["url"] == "http://a.gov")
        #expect(decodeFields(url, frame("10 00 03 61 04 62 0B 2F 7E"))?["url"] == "https://a.info/b.info/~")
        #expect(decodeFields(url, frame("10 00 03"))?["url"] == "https://")
    }

    @Test func `TLM decodes the worked example`() {
        expectFields(
            decodeFields(tlm, frame(Self.tlmFrame)),
            [
                "version": 0, "encrypted": false, "battery_mv": 3000, "temperature_c": 23.5, "adv_count": 4096,
                "uptime_s": 360.0,
            ])
    }

    @Test func `TLM sentinels and negative temperatures`() {
        let fields = decodeFields(tlm, frame("20 00 00 00 80 00 FF FF FF FF FF FF FF FF"))
        #expect(fields?["battery_mv"] == .null)
        #expect(fields?["temperature_c"] == .null)
        #expect(fields?["adv_count"] == 4_294_967_295)
        #expect(fields?["uptime_s"] == 429_496_729.5)
        #expect(decodeFields(tlm, frame("20 00 0B B8 FF 80 00 00 00 00 00 00 00 00"))?["temperature_c"] == -0.5)
    }

    @Test func `encrypted TLM is reported as encrypted`() {
        expectFields(
            decodeFields(tlm, frame("20 01 00 01 02 03 04 05 06 07 08 09 0A 0B 12 34 AB CD")),
            ["version": 1, "encrypted": true, "etlm": "000102030405060708090a0b", "salt": 0x1234, "mic": 0xABCD])
    }

    @Test func `EID decodes`() {
        expectFields(
            decodeFields(eid, frame("30 F6 01 23 45 67 89 AB CD EF")),
            ["tx_power_dbm": -10, "ephemeral_id": "0123456789abcdef"])
    }

    @Test func `each frame decoder leaves the other frames alone`() {
        let frames = [Self.uidFrame, Self.urlFrame, Self.tlmFrame, "30 F6 01 23 45 67 89 AB CD EF", "40 00"]
        let decoders: [any PayloadDecoder] = [uid, url, tlm, eid]
        for (index, text) in frames.enumerated() {
            for (decoderIndex, decoder) in decoders.enumerated() {
                #expect(
                    decoder.decode(frame(text)).count == (index == decoderIndex ? 1 : 0), "\(decoder.id) on \(text)")
            }
        }
        for decoder in decoders { #expect(decoder.decode(frame("")) == []) }
    }

    @Test func `malformed frames are errors at the byte`() {
        #expect(
            decodeError(url, frame("10 EB 04 61"))
                == DecodeError(.badValue("URL scheme 4 is reserved"), at: 2, field: "url_scheme"))
        #expect(
            decodeError(url, frame("10 EB 01 61 0E"))
                == DecodeError(.badValue("URL byte 0x0E is reserved"), at: 4, field: "url"))
        #expect(
            decodeError(url, frame("10 EB 01 61 20"))
                == DecodeError(.badValue("URL byte 0x20 is reserved"), at: 4, field: "url"))
        #expect(
            decodeError(url, frame("10 EB 01" + String(repeating: " 61", count: 18)))
                == DecodeError(.badLength(declared: 17, available: 18), at: 3, field: "url"))
        #expect(
            decodeError(tlm, frame("20 02 00"))
                == DecodeError(.badValue("TLM version 2 is not 0 or 1"), at: 1, field: "version"))
        #expect(
            decodeError(tlm, frame(String(Self.tlmFrame.dropLast(3))))
                == DecodeError(.truncated(needed: 4, available: 3), at: 10, field: "uptime_s"))
        #expect(
            decodeError(uid, frame(Self.uidFrame + " 00"))
                == DecodeError(.trailingBytes(count: 3), at: 18, field: "payload"))
        #expect(
            decodeError(uid, frame("00 E7 8B 0C"))
                == DecodeError(.truncated(needed: 10, available: 2), at: 2, field: "namespace"))
        #expect(
            decodeError(eid, frame("30 F6 01 23 45 67 89 AB CD EF 00"))
                == DecodeError(.trailingBytes(count: 1), at: 10, field: "payload"))
    }

    @Test func `encoding writes the worked examples`() throws {
        #expect(
            try uid.encode([
                Field("tx_power_dbm", -25), Field("namespace", "8b0ca750095477cb3e77"),
                Field("instance", "000000000001"),
            ]) == hex(Self.uidFrame))
        #expect(
            try url.encode([Field("tx_power_dbm", -21), Field("url", "https://www.example.com/")]) == hex(Self.urlFrame)
        )
        #expect(
            try tlm.encode([
                Field("battery_mv", 3000), Field("temperature_c", 23.5), Field("adv_count", 4096),
                Field("uptime_s", 360.0),
            ])
                == hex(Self.tlmFrame))
        #expect(
            encodeError(url, [Field("tx_power_dbm", 0), Field("url", "ftp://example.com")])
                == EncodeError(.outOfRange("an http:// or https:// URL"), field: "url"))
        #expect(encodeError(url, [Field("tx_power_dbm", 0), Field("url", "https://a b")])?.field == "url")
        #expect(encodeError(url, [Field("tx_power_dbm", 0), Field("url", "https://e\u{301}")])?.field == "url")
        #expect(
            encodeError(url, [Field("tx_power_dbm", 0), Field("url", "https://abcdefghijklmnopqr")])?.field == "url")
        #expect(
            encodeError(uid, [Field("tx_power_dbm", 0), Field("namespace", "8b0c"), Field("instance", "000000000001")])
                == EncodeError(.outOfRange("10 bytes"), field: "namespace"))
    }

    @Test func `decode of encode gives the fields back`() {
        var generator = TestRandom(seed: 0xFEAA)
        let printable = Array(UInt8(0x21)...0x7E) + Array(0...0x0D)
        var payloads: [[UInt8]] = []
        for index in 0..<100 {
            payloads.append([0x00] + generator.bytes(17 + (index % 2 == 0 ? 2 : 0)))
            payloads.append(
                [0x10] + generator.bytes(1) + [UInt8(index % 4)]
                    + (0..<(index % 18)).map { _ in printable.randomElement(using: &generator)! })
            payloads.append([0x20, UInt8(index % 2)] + generator.bytes(12 + (index % 2) * 4))
            payloads.append([0x30] + generator.bytes(9))
        }
        #expect(expectRoundTrips(uid, payloads) == 100)
        #expect(expectRoundTrips(url, payloads) == 100)
        #expect(expectRoundTrips(tlm, payloads) == 100)
        #expect(expectRoundTrips(eid, payloads) == 100)
    }
}
