import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

/// Encrypted BTHome v2 (bthome.io "Encryption"), against bthome-ble's own test vectors.
struct BTHomeEncryptionTests {
    /// bthome-ble tests/test_parser_v2.py, `test_bindkey_correct`: a Shelly BLU H&T at
    /// 54:48:E6:8F:80:A5 with bind key 231d39c1d7cc1ab1aee224cd096db932; bthome-ble reads 25.06 °C
    /// and 50.55 % (plaintext 02 CA 09 03 BF 13, as bthome_v2_encryption.py's example encrypts it).
    static let shelly = BluetoothAddress("54:48:E6:8F:80:A5")!
    static let shellyKey = hex("231d39c1d7cc1ab1aee224cd096db932")
    static let shellyPayload = hex("41 A4 72 66 C9 5F 73 00 11 22 33 78 23 72 14")

    /// bthome-ble tests/test_parser_v2.py, `test_bindkey_wrong`: a payload from A4:C1:38:8D:18:B2
    /// with a bind key that is not its own (bthome-ble: decryption fails, no values).
    static let other = BluetoothAddress("A4:C1:38:8D:18:B2")!
    static let wrongKey = hex("814aac74c4f17b6c1581e1ab87816b99")
    static let otherPayload = hex("41 D2 FC EF E5 2E B2 12 D6 00 11 22 33 BC 38 C9 66")

    func payload(_ bytes: [UInt8], from address: BluetoothAddress?) -> Payload {
        Payload(.serviceData(uuid: BluetoothUUID(0xFCD2)), bytes, context: PayloadContext(address: address))
    }

    @Test func `the device's bindkey decrypts its payload`() {
        let decoder = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        expectFields(
            decodeFields(decoder, payload(Self.shellyPayload, from: Self.shelly)),
            [
                "encrypted": true, "trigger_based": false, "counter": 0x3322_1100, "temperature_c": 25.06,
                "humidity_pct": 50.55,
            ])
    }

    @Test func `the bindkey parameter configures the decoder`() throws {
        let values = DecoderParameterValues(["bindkey": ["54:48:E6:8F:80:A5=231D39C1D7CC1AB1AEE224CD096DB932"]])
        let decoder = try BTHome().configured(with: values)
        let fields = decodeFields(decoder, payload(Self.shellyPayload, from: Self.shelly))
        #expect(fields?["temperature_c"] == 25.06)
        #expect(decoder.parameters.first?.name == "bindkey")
        #expect(decoder.parameters.first?.kind == .keys)
        #expect(decoder.parameters.first?.value == "keys for 54:48:E6:8F:80:A5")
    }

    @Test func `a wrong bindkey is an error at the MIC, not invented values`() {
        let decoder = BTHome(bindKeys: [Self.other: Self.wrongKey])
        #expect(
            decodeError(decoder, payload(Self.otherPayload, from: Self.other))
                == DecodeError(
                    .badValue("MIC does not match: the bindkey for A4:C1:38:8D:18:B2 is wrong, or the payload was altered"),
                    at: 13, field: "mic"))
        // The right key from the wrong address: the nonce holds the sender, so that fails too.
        let moved = BTHome(bindKeys: [Self.other: Self.shellyKey])
        #expect(decodeError(moved, payload(Self.shellyPayload, from: Self.other))?.field == "mic")
        // One changed ciphertext byte.
        var altered = Self.shellyPayload
        altered[2] ^= 0x01
        let decoder2 = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        #expect(decodeError(decoder2, payload(altered, from: Self.shelly))?.offset == 11)
    }

    @Test func `a payload from a device without a key stays encrypted`() {
        let decoder = BTHome(bindKeys: [Self.other: Self.wrongKey])
        expectFields(
            decodeFields(decoder, payload(Self.shellyPayload, from: Self.shelly)),
            [
                "encrypted": true, "trigger_based": false, "counter": 0x3322_1100, "ciphertext": "a47266c95f73",
                "mic": "78237214",
            ])
    }

    @Test func `with no address known every key is tried, and only a matching MIC decrypts`() {
        let decoder = BTHome(bindKeys: [Self.other: Self.wrongKey, Self.shelly: Self.shellyKey])
        #expect(decodeFields(decoder, payload(Self.shellyPayload, from: nil))?["humidity_pct"] == 50.55)
        let unmatched = decodeFields(decoder, payload(Self.otherPayload, from: nil))
        #expect(unmatched?["ciphertext"] == "d2fcefe52eb212d6")
    }

    @Test func `objects inside the ciphertext report errors at their offset in the payload`() {
        // Plaintext 02 C4 09 FF 01 (an unknown id at payload offset 4), counter 7, encrypted for
        // the Shelly with `cryptography`'s AESCCM (bthome-ble's own dependency).
        let decoder = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        #expect(
            decodeError(decoder, payload(hex("41 9E 59 B4 A0 CD 07 00 00 00 21 62 11 C1"), from: Self.shelly))
                == DecodeError(.badValue("unknown object id 0xFF"), at: 4, field: "object_id"))
    }

    @Test func `encoding with the bindkey gives bthome-ble's bytes`() throws {
        let decoder = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        let fields: Fields = [
            Field("encrypted", true), Field("counter", .int(0x3322_1100)), Field("temperature_c", 25.06),
            Field("humidity_pct", 50.55),
        ]
        #expect(try decoder.encode(fields, context: PayloadContext(address: Self.shelly)) == Self.shellyPayload)
        // With no address, the only key given is the device's.
        #expect(try decoder.encode(fields) == Self.shellyPayload)
        let twoKeys = BTHome(bindKeys: [Self.shelly: Self.shellyKey, Self.other: Self.wrongKey])
        #expect(encodeError(twoKeys, fields)?.field == "encrypted")
        #expect(
            encodeError(BTHome(), fields)
                == EncodeError(
                    .outOfRange("encrypting needs the bindkey of the device: --param bthome.bindkey=ADDRESS=32 hex digits"),
                    field: "encrypted"))
    }

    @Test func `a payload decoded without its key encodes back to its bytes`() throws {
        let fields = try #require(decodeFields(BTHome(), payload(Self.otherPayload, from: Self.other)))
        #expect(try BTHome().encode(fields) == Self.otherPayload)
        let mixed = fields + [Field("battery_pct", 50)]
        #expect(encodeError(BTHome(), mixed)?.field == "battery_pct")
    }

    @Test func `decode of encrypted encode gives the fields back`() throws {
        var generator = TestRandom(seed: 0xCC11)
        let decoder = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        for index in 0..<100 {
            var fields: Fields = [
                Field("encrypted", true), Field("trigger_based", .bool(index % 3 == 0)),
                Field("counter", .int(Int64(UInt32.random(in: 0...UInt32.max, using: &generator)))),
                Field("temperature_c", .double(Double(Int.random(in: -4000...4000, using: &generator)) / 100)),
            ]
            if index % 2 == 0 { fields.append("text", .string("n\(index)")) }
            if index % 5 == 0 { fields.append("command", "step_up"); fields.append("command_args", "0102") }
            let bytes = try decoder.encode(fields, context: PayloadContext(address: Self.shelly))
            #expect(decodeFields(decoder, payload(bytes, from: Self.shelly)) == fields)
        }
    }

    // MARK: - The counter

    func counterCheck(_ counters: [(counter: UInt32, second: Int64)], repeatLast: Bool = false) throws -> [String] {
        let decoder = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        let followUp = try #require(decoder.makeFollowUp())
        #expect(followUp.ids == ["bthome.counter"])
        var problems: [String] = []
        for (frame, step) in counters.enumerated() {
            let fields: Fields = [
                Field("encrypted", true), Field("counter", .int(Int64(step.counter))),
                Field("temperature_c", .double(Double(frame))),
            ]
            let bytes = try decoder.encode(fields, context: PayloadContext(address: Self.shelly))
            let decoded = try #require(decodeFields(decoder, payload(bytes, from: Self.shelly)))
            let moment = CaptureMoment(frame: frame + 1, timestamp: step.second * 1_000_000)
            for reading in followUp.observe(decoded, from: Self.shelly, at: moment) {
                #expect(reading.decoder == "bthome.counter")
                #expect(reading.moment.frame == frame + 1)
                guard case .string(let problem) = reading.fields["problem"],
                    case .int(let previous) = reading.fields["previous_counter"]
                else { continue }
                problems.append("\(problem) \(step.counter) after \(previous)")
            }
        }
        return problems
    }

    @Test func `a counter that goes down is reported`() throws {
        // bthome-ble drops such a payload ("The new encryption counter (250) is smaller than the previous").
        #expect(try counterCheck([(300, 0), (301, 1), (250, 2), (302, 3)]) == ["decreased 250 after 301"])
    }

    @Test func `the same counter with other contents is reported as reused`() throws {
        #expect(try counterCheck([(10, 0), (10, 1)]) == ["reused 10 after 10"])
    }

    @Test func `a payload repeated later than 4 s is a replay, sooner a repeat`() throws {
        let decoder = BTHome(bindKeys: [Self.shelly: Self.shellyKey])
        let followUp = try #require(decoder.makeFollowUp())
        let decoded = try #require(decodeFields(decoder, payload(Self.shellyPayload, from: Self.shelly)))
        var found: [FieldValue?] = []
        for (frame, second) in [0, 1, 3, 9].enumerated() {
            let moment = CaptureMoment(frame: frame + 1, timestamp: Int64(second) * 1_000_000)
            found += followUp.observe(decoded, from: Self.shelly, at: moment).map { $0.fields["problem"] }
        }
        #expect(found == ["replayed"])
        // Plain payloads and other devices are not followed.
        let plain = try #require(decodeFields(BTHome(), .service(0xFCD2, hex("40 02 C4 09"))))
        #expect(followUp.observe(plain, from: Self.shelly, at: CaptureMoment(frame: 9, timestamp: 0)).isEmpty)
        #expect(followUp.observe(decoded, from: Self.other, at: CaptureMoment(frame: 10, timestamp: 0)).isEmpty)
    }
}
