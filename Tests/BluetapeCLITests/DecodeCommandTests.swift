import JSON
import Testing
import TestSupport

/// The readings of `bluetape decode` as parsed JSON lines.
func readingLines(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
}

struct DecodeCommandTests {
    static let companyFFFF = "Bluetooth SIG Specification Reserved Default Vendor ID for Remote Devices Without Device ID Service Record."

    static let shipped = ["envsensor", "combustion", "arduino-temperature", "sig-heart-thermometer"]

    @Test(arguments: shipped)
    func `decode of a shipped capture prints exactly its golden file`(name: String) throws {
        let path = TestPaths.captures + "/\(name).btsnoop"
        let (code, out, err) = runTool(["decode", "--format", "jsonl", path])
        #expect(code == 0)
        #expect(err.isEmpty)
        #expect(out == TestPaths.readText(path + ".golden.jsonl"))
    }

    @Test func `the envsensor layout reads the shipped capture exactly as the built-in decoder does`() throws {
        let path = TestPaths.captures + "/envsensor.btsnoop"
        let (_, builtIn, _) = runTool(["decode", "--format", "jsonl", "--decoder", "envsensor", path])
        let (code, layout, err) = runTool([
            "decode", "--format", "jsonl", "--layout", TestPaths.packageRoot + "/layouts/envsensor.json",
            "--decoder", "envsensor.layout", path,
        ])
        #expect(code == 0)
        #expect(err.isEmpty)
        let expected = try readingLines(builtIn)
        let actual = try readingLines(layout)
        #expect(expected.count == 61)  // 60 nonces and the advert cut one byte short
        #expect(actual.count == expected.count)
        for (a, e) in zip(actual, expected) {
            #expect(a["frame"] == e["frame"])
            #expect(a["repeats"] == e["repeats"])
            // Layout and built-in decoder both round power (V × I) to the four decimals its
            // inputs carry (DecimalRounding): the same value, not merely a close one.
            #expect(a["fields"] == e["fields"])
            #expect((a["error"] == nil) == (e["error"] == nil))
        }
    }

    @Test func `the tractor PIN write decodes only with its layout and characteristic`() throws {
        let path = TestPaths.captures + "/tractor.btsnoop"
        // Without the layout the write is an undecoded payload (with --all), 2B 1A on the wire.
        let (_, undecoded, _) = runTool(["decode", "--all", path])
        let write = try readingLines(undecoded).first { $0["source"] == .string("write_req") }
        #expect(write?["decoder"] == .null)
        #expect(write?["data"] == .string("2b1a"))
        let (code, out, _) = runTool([
            "decode", "--layout", TestPaths.packageRoot + "/layouts/tractor-pin.json",
            "--param", "pin_characteristic=7a5b0002-3c9d-4e2f-8a1b-2c3d4e5f6071", "--decoder", "tractor.pin", path,
        ])
        #expect(code == 0)
        let readings = try readingLines(out)
        #expect(readings.count == 1)
        #expect(readings.first?["frame"] == write?["frame"])
        #expect(readings.first?["fields"]?["pin"]?.int64 == 0x1A2B)
    }

    @Test func `csv has one row per field and text one line per reading`() throws {
        let path = TestPaths.captures + "/envsensor.btsnoop"
        let (_, csv, _) = runTool(["decode", "--format", "csv", "--decoder", "envsensor", path])
        let rows = csv.split(separator: "\n")
        #expect(rows.first == "frame,ts,addr,decoder,source,match,index,field,value")
        // A company prints one way everywhere: its code in four digits, then its name from the
        // assigned numbers (company_ids.json names 0xFFFF after its Device ID use).
        let company = "company 0xffff (\(Self.companyFFFF))"
        #expect(rows.dropFirst().first == "2,1748772000.000719,C2:6B:30:F9:0E:C7,envsensor,adv,\(company),,nonce,4660")
        let (_, text, _) = runTool(["decode", "--format", "text", "--decoder", "envsensor", path])
        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("#2      C2:6B:30:F9:0E:C7  envsensor [\(company)]  nonce=4660"))
        #expect(first.hasSuffix("(×5)"))
    }

    @Test func `a capture cut in the middle of a record exits 3 and keeps the readings before the cut`() throws {
        let bytes = try #require(TestPaths.readFile(TestPaths.captures + "/envsensor.btsnoop"))
        let path = TestPaths.temporaryDirectory() + "/cut.btsnoop"
        TestPaths.writeFile(path, Array(bytes.prefix(bytes.count / 2 + 7)))
        let (code, out, err) = runTool(["decode", "--format", "jsonl", path])
        #expect(code == 3)
        #expect(err.contains("cut.btsnoop"))
        let readings = try readingLines(out)
        // The first half of 30 s of adverts: about half of the 60 nonces.
        #expect(readings.count(where: { $0["decoder"] == .string("envsensor") }) >= 25)
        let (_, whole, _) = runTool(["decode", "--format", "jsonl", TestPaths.captures + "/envsensor.btsnoop"])
        let kept = try readingLines(whole).prefix(10)
        #expect(Array(readings.prefix(10)) == Array(kept))
    }

    @Test func `an unknown decoder id or format is a usage error`() {
        let path = TestPaths.captures + "/envsensor.btsnoop"
        let (code, _, err) = runTool(["decode", "--decoder", "nosuch", path])
        #expect(code == 2)
        #expect(err.contains("unknown decoder 'nosuch'; 'bluetape decoders' lists them"))
        #expect(runTool(["decode", "--format", "xml", path]).0 == 2)
    }
}

/// iBeacon readings in the shared third-party captures against the bytes Wireshark found there.
@Suite(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
struct SharedCaptureDecodeTests {
    struct Expected: Hashable, CustomStringConvertible {
        var frame: Int64
        var uuid: String
        var major: Int64
        var minor: Int64
        var power: Int64
        var description: String { "#\(frame) \(uuid) \(major)/\(minor) \(power) dBm" }
    }

    /// Tests/Fixtures/reference/ibeacon-tshark.tsv, decoded by hand from its hex.
    static func reference() -> [String: Set<Expected>] {
        var byFile: [String: Set<Expected>] = [:]
        let text = TestPaths.readText(TestPaths.fixtures + "/reference/ibeacon-tshark.tsv") ?? ""
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t").map(String.init)
            let hex = Array(columns[2])
            func part(_ from: Int, _ to: Int) -> String { String(hex[from..<to]) }
            let uuid = [part(4, 12), part(12, 16), part(16, 20), part(20, 24), part(24, 36)].joined(separator: "-")
            let power = Int64(Int8(bitPattern: UInt8(part(44, 46), radix: 16)!))
            byFile[columns[0], default: []].insert(
                Expected(
                    frame: Int64(columns[1])!, uuid: uuid, major: Int64(part(36, 40), radix: 16)!,
                    minor: Int64(part(40, 44), radix: 16)!, power: power))
        }
        return byFile
    }

    @Test func `every iBeacon Wireshark sees is a reading with the same values at the same frame`() throws {
        let reference = Self.reference()
        #expect(reference.count == 4)
        for (file, expected) in reference {
            let (_, out, _) = runTool([
                "decode", "--format", "jsonl", "--all-repeats", "--decoder", "ibeacon", TestPaths.sharedCaptures! + "/" + file,
            ])
            let actual = Set(
                try readingLines(out).compactMap { r -> Expected? in
                    guard let f = r["fields"], case .string(let uuid)? = f["uuid"] else { return nil }
                    return Expected(
                        frame: r["frame"]?.int64 ?? 0, uuid: uuid, major: f["major"]?.int64 ?? -1,
                        minor: f["minor"]?.int64 ?? -1, power: f["measured_power_dbm"]?.int64 ?? 0)
                })
            #expect(actual == expected, "\(file): missing \(expected.subtracting(actual)), extra \(actual.subtracting(expected))")
        }
    }

    @Test func `decode reads every shared capture cleanly`() throws {
        let paths = TestPaths.sharedCaptureFiles
        #expect(paths.count == WiresharkReference.manifestPackets.count)
        var readings = 0
        for path in paths {
            let (code, out, err) = runTool(["decode", "--format", "jsonl", path])
            #expect(code == 0, "\(path): exit \(code): \(err)")
            readings += try readingLines(out).count
        }
        #expect(readings > 0)
    }

    /// The largest capture second: it starts first (the costliest do), out of turn, its output
    /// held in a file until the first capture's is out, and then (still running, as a rule) goes
    /// straight out; the smaller ones behind it wait whole. Whichever way the threads fall, the
    /// output is what one thread writes.
    @Test func `several captures on two jobs come out whole and in the order given`() throws {
        let names = [
            "blefun__btsnoop_hci.log", "bluethooth_light_controll__btsnoop_hci.log", "ec521__btsnoop_hci.log",
            "MachineSpiritTimetable__btsnoop_bbcc.log", "Tesi_BLE__garmin.pcapng",
        ]
        let paths = try names.map { name in
            try #require(TestPaths.sharedCaptureFiles.first { $0.hasSuffix("/" + name) }, "\(name) is not in ../shared/captures")
        }
        let (oneCode, one, _) = runTool(["decode", "--all", "--jobs", "1"] + paths)
        #expect(oneCode == 0)
        var separately = 0
        for path in paths { separately += try readingLines(runTool(["decode", "--all", path]).1).count }
        #expect(try readingLines(one).count == separately)
        for _ in 0..<3 {
            let (code, two, _) = runTool(["decode", "--all", "--jobs", "2"] + paths)
            #expect(code == 0)
            let same = two == one  // compared first: a failure is not diffed line by line
            #expect(same, "--jobs 2 wrote \(two.utf8.count) bytes, --jobs 1 \(one.utf8.count)")
        }
    }
}

struct CheckCommandTests {
    /// An EnvSensor whose humidity climbs past 100 %: the layout's max rule must catch it.
    static let scenario = """
        {"duration_s": 3, "devices": [{"address": "C2:6B:30:F9:0E:C7", "advertising": {
          "pdu": "adv_nonconn_ind", "interval_ms": 100, "jitter_ms": 0,
          "data": [{"type": "manufacturer", "company": "0xFFFF", "decoder": "envsensor", "fields": {
            "nonce": {"counter": 1}, "temperature_c": 21.5, "humidity_pct": {"ramp": [95, 110]},
            "pressure_hpa": 1013.2, "voltage_v": 3.3, "current_ma": -12}}]}}]}
        """

    @Test func `a value over its layout's bound is a violation at its frame, exit 1`() throws {
        let directory = TestPaths.temporaryDirectory()
        let scenarioPath = directory + "/humid.scenario.json"
        let capture = directory + "/humid.btsnoop"
        TestPaths.writeFile(scenarioPath, Array(Self.scenario.utf8))
        #expect(runTool(["synth", scenarioPath, "-o", capture]).0 == 0)
        let layout = TestPaths.packageRoot + "/layouts/envsensor.json"
        let (code, out, _) = runTool(["check", "--layout", layout, capture])
        #expect(code == 1)
        // The decoded humidity of each advert, and which ones are above 100.
        let (_, decoded, _) = runTool(["decode", "--format", "jsonl", "--all-repeats", "--decoder", "envsensor", capture])
        let over = try readingLines(decoded).filter { ($0["fields"]?["humidity_pct"]?.double ?? 0) > 100 }
        #expect(!over.isEmpty)
        let violations = out.split(separator: "\n").filter { $0.hasPrefix("frame ") && $0.contains("humidity_pct") }
        #expect(violations.count == over.count)
        if let first = over.first?["frame"]?.int64 {
            #expect(violations.first?.hasPrefix("frame \(first) C2:6B:30:F9:0E:C7 envsensor.layout") == true)
        }
        #expect(out.contains("envsensor.layout max humidity_pct ≤ 100: "))
        // Within bounds, the same board passes.
        let calm = Self.scenario.split(separator: "[95, 110]").joined(separator: "[40, 60]")
        TestPaths.writeFile(scenarioPath, Array(calm.utf8))
        #expect(runTool(["synth", scenarioPath, "-o", capture]).0 == 0)
        #expect(runTool(["check", "--quiet", "--layout", layout, capture]).0 == 0)
    }
}
