import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import PayloadDecoders
import Readings
import Synthesis
import Testing
import TestSupport

/// `bluetape synth` makes encrypted BTHome captures: the encoder encrypts with the bindkey of the
/// advertising device, whose address the nonce holds, and the decoder given the same key reads the
/// values back; without the key they stay ciphertext.
struct EncryptedBTHomeSynthesisTests {
    static let address = "54:48:E6:8F:80:A5"
    /// bthome-ble's test key for this device (tests/test_parser_v2.py, `test_bindkey_correct`).
    static let key = hex("231d39c1d7cc1ab1aee224cd096db932")
    static var keyed: BTHome { BTHome(bindKeys: [BluetoothAddress(address)!: key]) }

    static let scenario = """
        {"duration_s": 1, "devices": [{"address": "\(address)", "advertising": {
          "pdu": "adv_nonconn_ind", "interval_ms": 100, "jitter_ms": 0,
          "data": [{"type": "service_data", "uuid": "fcd2", "decoder": "bthome", "fields": {
            "encrypted": true, "counter": {"counter": 1000}, "temperature_c": {"list": [25.06, 19.5]},
            "humidity_pct": 50.55}}]}}]}
        """

    func decode(_ capture: [UInt8], with decoder: BTHome) throws -> [Reading] {
        let pipeline = ReadingsPipeline(decoders: DecoderSet([decoder]))
        var result: [Reading] = []
        EventStream.read(try CaptureReader(bytes: capture, formats: testFormats)) { pipeline.consume($0) { result.append($0) } }
        pipeline.finish { result.append($0) }
        return result
    }

    @Test func `an encrypted scenario decodes back with the device's bindkey`() throws {
        let scenario = try Scenario.parse(
            bytes: Array(Self.scenario.utf8), name: "bthome.json", directory: TestPaths.captures, decoders: [Self.keyed])
        let writer = try CaptureWriter(format: .btsnoop(.btsnoopUART))
        try Synthesizer(scenario).write(to: writer)

        let decrypted = try decode(writer.bytes, with: Self.keyed)
        #expect(decrypted.count == 11)
        for (index, reading) in decrypted.enumerated() {
            guard case .fields(let fields) = reading.outcome else {
                Issue.record("reading \(index): \(reading.outcome)")
                continue
            }
            #expect(fields["encrypted"] == .bool(true))
            #expect(fields["counter"] == .int(Int64(1000 + index)))
            #expect(fields["temperature_c"] == .double(index % 2 == 0 ? 25.06 : 19.5))
            #expect(fields["humidity_pct"] == .double(50.55))
        }
        // The counter moved on with every advertisement: nothing for the counter check to report.
        #expect(!decrypted.contains { $0.decoder == "bthome.counter" })

        let kept = try decode(writer.bytes, with: BTHome())
        #expect(kept.count == 11)
        guard case .fields(let fields)? = kept.first?.outcome else { return #expect(Bool(false), "no fields") }
        #expect(fields["ciphertext"] != nil)
        #expect(fields["temperature_c"] == nil)
    }

    @Test func `an encrypted scenario without the key is refused with the reason`() {
        #expect(throws: ScenarioError.self) {
            let scenario = try Scenario.parse(bytes: Array(Self.scenario.utf8), name: "bthome.json", directory: TestPaths.captures)
            let writer = try CaptureWriter(format: .btsnoop(.btsnoopUART))
            try Synthesizer(scenario).write(to: writer)
        }
    }
}

private func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }
