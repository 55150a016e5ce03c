import JSON
import Testing
import TestSupport

/// Encrypted BTHome through the command line, end to end: `synth --bindkey` encrypts a scenario's
/// bthome fields for its device, `decode --bindkey` (or `--param bindkey=…`, or golden.json's
/// "param.bindkey") reads the values back and checks the counter; without the key the readings
/// keep the ciphertext, with a wrong one they are errors at the MIC.
struct EncryptedBTHomeCommandTests {
    /// bthome-ble's test device and key (tests/test_parser_v2.py, `test_bindkey_correct`).
    static let key = "54:48:E6:8F:80:A5=231d39c1d7cc1ab1aee224cd096db932"
    static let wrongKey = "54:48:E6:8F:80:A5=00112233445566778899aabbccddeeff"
    /// Three advertisements, 100 ms apart; the third one's counter goes back below the second's.
    static let scenario = """
        {"duration_s": 0.25, "devices": [{"address": "54:48:E6:8F:80:A5", "advertising": {
          "pdu": "adv_nonconn_ind", "interval_ms": 100, "jitter_ms": 0,
          "data": [{"type": "service_data", "uuid": "fcd2", "decoder": "bthome", "fields": {
            "encrypted": true, "counter": {"list": [1000, 1001, 999]}, "temperature_c": {"list": [25.06, 19.5]},
            "humidity_pct": 50.55}}]}}]}
        """

    /// The scenario synthesized with the key, in a directory of its own.
    func synthesized() throws -> (directory: String, capture: String) {
        let directory = TestPaths.temporaryDirectory()
        let scenario = directory + "/bthome.scenario.json"
        #expect(TestPaths.writeFile(scenario, Array(Self.scenario.utf8)))
        let capture = directory + "/bthome.btsnoop"
        let (code, _, err) = runTool(["synth", "--bindkey", Self.key, scenario, "-o", capture])
        #expect(code == 0, "\(err)")
        return (directory, capture)
    }

    func fields(_ reading: JSONValue) -> JSONValue? { reading["fields"] }

    @Test func `synth without the key says which key it needs and writes nothing`() throws {
        let directory = TestPaths.temporaryDirectory()
        let scenario = directory + "/bthome.scenario.json"
        #expect(TestPaths.writeFile(scenario, Array(Self.scenario.utf8)))
        let (code, _, err) = runTool(["synth", scenario, "-o", directory + "/out.btsnoop"])
        #expect(code == 2)
        #expect(err.contains("encrypting needs the bindkey of 54:48:E6:8F:80:A5"))
        #expect(!TestPaths.exists(directory + "/out.btsnoop"))
    }

    @Test func `decode with the key reads the values and reports the counter that went down`() throws {
        let (_, capture) = try synthesized()
        for option in [["--bindkey", Self.key], ["--param", "bindkey=" + Self.key], ["--param", "bthome.bindkey=" + Self.key]] {
            let (code, out, err) = runTool(["decode", "--format", "jsonl"] + option + [capture])
            #expect(code == 0)
            #expect(err.isEmpty)
            let readings = try readingLines(out)
            let values = readings.filter { $0["decoder"] == .string("bthome") }
            #expect(values.compactMap { fields($0)?["counter"]?.int64 } == [1000, 1001, 999])
            #expect(values.compactMap { fields($0)?["temperature_c"]?.double } == [25.06, 19.5, 25.06])
            #expect(values.allSatisfy { fields($0)?["humidity_pct"]?.double == 50.55 && fields($0)?["ciphertext"] == nil })
            let checks = readings.filter { $0["decoder"] == .string("bthome.counter") }
            #expect(checks.count == 1)
            #expect(checks.first?["frame"] == values.last?["frame"])
            #expect(checks.first.flatMap(fields)?["problem"] == .string("decreased"))
            #expect(checks.first.flatMap(fields)?["previous_counter"]?.int64 == 1001)
            #expect(checks.first.flatMap(fields)?["previous_frame"] == values[1]["frame"])
        }
    }

    @Test func `decode without the key keeps the ciphertext, with a wrong key it is an error at the MIC`() throws {
        let (_, capture) = try synthesized()
        let (_, plain, _) = runTool(["decode", "--format", "jsonl", capture])
        let all = try readingLines(plain)
        // The counter travels in the clear, so it is checked without the key too.
        #expect(all.filter { $0["decoder"] == .string("bthome.counter") }.count == 1)
        let kept = all.filter { $0["decoder"] == .string("bthome") }
        #expect(kept.count == 3)
        for reading in kept {
            #expect(fields(reading)?["encrypted"] == .bool(true))
            #expect(fields(reading)?["ciphertext"]?.string?.count == 12)  // two objects, 6 bytes
            #expect(fields(reading)?["mic"]?.string?.count == 8)
            #expect(fields(reading)?["temperature_c"] == nil)
        }
        let (code, wrong, _) = runTool(["decode", "--format", "jsonl", "--bindkey", Self.wrongKey, capture])
        #expect(code == 0)
        let errors = try readingLines(wrong).filter { $0["decoder"] == .string("bthome") }
        #expect(errors.count == 3)
        for reading in errors {
            #expect(reading["fields"] == nil)
            #expect(reading["error"]?["field"] == .string("mic"))
            #expect(reading["error"]?["offset"]?.int64 == 11)
        }
    }

    @Test func `golden.json's param.bindkey decodes the capture in golden update and check`() throws {
        let (directory, capture) = try synthesized()
        let golden = #"{"version": 1, "decode": {"param.bindkey": "\#(Self.key)"}}"#
        #expect(TestPaths.writeFile(directory + "/golden.json", Array(golden.utf8)))
        let (updated, _, updateErr) = runTool(["golden", "update", directory])
        #expect(updated == 0, "\(updateErr)")
        let lines = try readingLines(try #require(TestPaths.readText(capture + ".golden.jsonl")))
        #expect(lines.compactMap { fields($0)?["temperature_c"]?.double } == [25.06, 19.5, 25.06])
        #expect(lines.contains { $0["decoder"] == .string("bthome.counter") })
        let (checked, out, _) = runTool(["golden", "check", "--strict", directory])
        #expect(checked == 0, "\(out)")
    }
}
