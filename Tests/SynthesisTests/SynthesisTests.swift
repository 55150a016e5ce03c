import BluetoothTracking
import CaptureFiles
import CaptureModel
import PayloadDecoders
import Readings
import Synthesis
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Synthesizes a scenario document in memory.
func synthesize(_ json: String, directory: String = TestPaths.captures) throws -> [UInt8] {
    let scenario = try Scenario.parse(bytes: Array(json.utf8), name: "test.json", directory: directory)
    let writer = try CaptureWriter(format: .btsnoop(.btsnoopUART))
    try Synthesizer(scenario).write(to: writer)
    return writer.bytes
}

/// Decodes a capture in memory with the built-in decoders.
func readings(_ bytes: [UInt8]) throws -> [Reading] {
    let pipeline = ReadingsPipeline(decoders: DecoderSet(Registry.builtIn))
    var result: [Reading] = []
    EventStream.read(try CaptureReader(bytes: bytes, formats: testFormats)) { pipeline.consume($0) { result.append($0) } }
    pipeline.finish { result.append($0) }
    return result
}

struct ShippedCaptureTests {
    static let scenarios = TestPaths.list(TestPaths.captures).filter { $0.hasSuffix(".scenario.json") }

    @Test(arguments: scenarios)
    func `every shipped capture is its scenario, synthesized again byte for byte`(name: String) throws {
        let path = TestPaths.captures + "/" + name
        let scenario = try Scenario.load(path: path)
        let writer = try CaptureWriter(format: .btsnoop(.btsnoopUART))
        try Synthesizer(scenario).write(to: writer)
        let capture = try #require(TestPaths.readFile(path.replacingSuffix(".scenario.json", with: ".btsnoop")))
        #expect(writer.bytes.count == capture.count)
        let firstDifference = zip(writer.bytes, capture).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing byte at \(firstDifference ?? -1): run scripts/regen-captures")
    }

    @Test(.enabled(if: ShippedCaptureTests.hasTshark, "tshark is not installed"), arguments: scenarios)
    func `Wireshark finds no malformed packet and the same attribute values`(name: String) throws {
        let capture = TestPaths.captures + "/" + name.replacingSuffix(".scenario.json", with: ".btsnoop")
        let malformed = shell("tshark -r '\(capture)' -n -Y '_ws.malformed || _ws.expert.severity >= 6291456' 2>/dev/null")
        #expect(malformed.isEmpty, "Wireshark flags: \(malformed.prefix(300))")
        // Raw ATT PDUs as Wireshark reassembles them, against the values of our att events.
        let raw = shell(
            "tshark -r '\(capture)' -n --disable-protocol btatt -Y 'btl2cap.cid == 4' -T fields -e frame.number -e btl2cap.payload 2>/dev/null")
        var theirs: [Int: String] = [:]
        for line in raw.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let frame = Int(parts[0]), let pdu = Hex.bytes(String(parts[1])), let op = pdu.first,
                [0x12, 0x52, 0x1B, 0x1D].contains(op)
            else { continue }
            theirs[frame] = Hex.string(Array(pdu.dropFirst(3)))
        }
        var ours: [Int: String] = [:]
        EventStream.read(try CaptureReader(path: capture, formats: testFormats)) { event in
            if case .att(let att) = event.body, [0x12, 0x52, 0x1B, 0x1D].contains(att.opcode), let value = att.value {
                ours[event.frame] = Hex.string(value)
            }
        }
        #expect(!theirs.isEmpty || ours.isEmpty)
        #expect(theirs == ours)
    }

    static let hasTshark = !shell("command -v tshark").isEmpty
}

struct ScenarioRoundTripTests {
    /// One device advertising `fields` through `decoder`, every 100 ms for 1 s.
    func advertising(_ decoder: String, company: String, _ fields: String) -> String {
        """
        {"duration_s": 1, "devices": [{"address": "C2:6B:30:F9:0E:C7", "advertising": {
          "pdu": "adv_nonconn_ind", "interval_ms": 100, "jitter_ms": 0,
          "data": [{"type": "manufacturer", "company": "\(company)", "decoder": "\(decoder)", "fields": \(fields)}]}}]}
        """
    }

    @Test func `a reading held for its repeats keeps its place while thousands pass it`() throws {
        // The EnvSensor repeats one nonce for the whole capture, so its reading stays held to
        // the end while 10000 iBeacon readings queue behind it: order and counts must survive.
        let json = """
            {"duration_s": 200, "devices": [
              {"address": "C2:6B:30:F9:0E:C7", "advertising": {"pdu": "adv_nonconn_ind", "interval_ms": 100, "jitter_ms": 0,
                "data": [{"type": "manufacturer", "company": "0xFFFF", "decoder": "envsensor", "fields":
                  {"nonce": 7, "temperature_c": 20, "humidity_pct": 50, "pressure_hpa": 1000, "voltage_v": 3, "current_ma": 1}}]}},
              {"address": "C2:6B:30:F9:0E:C8", "advertising": {"pdu": "adv_nonconn_ind", "interval_ms": 20, "jitter_ms": 0,
                "data": [{"type": "manufacturer", "company": "0x004C", "decoder": "ibeacon", "fields":
                  {"uuid": "fda50693-a4e2-4fb1-afcf-c6eb07647825", "major": 5, "minor": 6, "measured_power_dbm": -59}}]}}
            ]}
            """
        let result = try readings(try synthesize(json))
        #expect(result.first?.decoder == "envsensor")
        #expect(result.first?.repeats == 2001)
        #expect(result.count(where: { $0.decoder == "ibeacon" }) == 10001)
        #expect(zip(result, result.dropFirst()).allSatisfy { $0.frame < $1.frame })
    }

    @Test func `synthesized advertising decodes back to the scenario's values`() throws {
        let fields = #"{"nonce": 7, "temperature_c": -3.25, "humidity_pct": 41.5, "pressure_hpa": 998.7, "voltage_v": 3.01, "current_ma": 12.5}"#
        let result = try readings(try synthesize(advertising("envsensor", company: "0xFFFF", fields)))
        let envsensor = result.filter { $0.decoder == "envsensor" }
        #expect(envsensor.count == 1)
        #expect(envsensor.first?.repeats == 11)
        guard case .fields(let decoded)? = envsensor.first?.outcome else {
            Issue.record("no fields")
            return
        }
        #expect(decoded["nonce"] == .int(7))
        #expect(decoded["temperature_c"] == .double(-3.25))
        #expect(decoded["humidity_pct"] == .double(41.5))
        #expect(decoded["pressure_hpa"] == .double(998.7))
        #expect(decoded["voltage_v"] == .double(3.01))
        #expect(decoded["current_ma"] == .double(12.5))
    }

    @Test func `a connection's notifications, writes and reads decode back to their values`() throws {
        let json = """
            {"duration_s": 10, "devices": [{"address": "00:1A:7D:1A:FD:C9", "address_type": "public",
              "gatt": [{"service": "180d", "characteristics": [{"uuid": "2a37", "properties": ["notify"]}]},
                       {"service": "180f", "characteristics": [{"uuid": "2a19", "properties": ["read"]}]}],
              "connections": [{"at_s": 1, "duration_s": 8, "subscribe": ["2a37"], "actions": [
                {"notify": "2a37", "at_s": 1, "every_ms": 1000, "count": 3, "decoder": "sig.heart_rate",
                 "fields": {"heart_rate_bpm": {"list": [61, 62, 300]}, "rr_intervals_s": [0.5, 0.75]}},
                {"read": "2a19", "at_s": 4.5, "decoder": "sig.battery_level", "fields": {"battery_pct": 42}}]}]}]}
            """
        let result = try readings(try synthesize(json))
        let rates = result.filter { $0.decoder == "sig.heart_rate" }.compactMap { reading -> FieldValue? in
            if case .fields(let f) = reading.outcome { return f["heart_rate_bpm"] } else { return nil }
        }
        #expect(rates == [.int(61), .int(62), .int(300)])
        let battery = result.first { $0.decoder == "sig.battery_level" }
        #expect(battery?.source == "read_rsp")
        if case .fields(let f)? = battery?.outcome { #expect(f["battery_pct"] == .int(42)) }
    }

    @Test func `a value longer than the MTU is read with Read Blob and written with prepared writes`() throws {
        let long = String(repeating: "ab", count: 60)
        let json = """
            {"duration_s": 6, "devices": [{"address": "00:1A:7D:1A:FD:C9",
              "gatt": [{"service": "180a", "characteristics": [{"uuid": "2a29", "properties": ["read", "write"], "value": "\(long)"}]}],
              "connections": [{"at_s": 0.5, "duration_s": 5, "actions": [
                {"read": "2a29", "at_s": 1}, {"write": "2a29", "at_s": 2, "hex": "\(long)"}]}]}]}
            """
        var longValues: [String: String] = [:]
        EventStream.read(try CaptureReader(bytes: try synthesize(json), formats: testFormats)) { event in
            if case .att(let att) = event.body, att.kind != .pdu, let value = att.value { longValues[att.op] = Hex.string(value) }
        }
        #expect(longValues["read_long"] == long)
        #expect(longValues["write_long"] == long)
    }

    @Test func `the same scenario gives the same bytes`() throws {
        let json = advertising(
            "envsensor", company: "0xFFFF",
            #"{"nonce": {"counter": 1}, "temperature_c": {"round": 2, "random": {"min": 10, "max": 30}}, "humidity_pct": 50, "pressure_hpa": 1000, "voltage_v": 3.3, "current_ma": 1}"#)
        #expect(try synthesize(json) == synthesize(json))
    }
}

struct ScenarioErrorTests {
    func error(_ json: String) -> String {
        do {
            _ = try synthesize(json)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func `legacy advertising data over 31 bytes is refused with its path`() {
        let json = """
            {"duration_s": 1, "devices": [{"address": "C2:6B:30:F9:0E:C7", "advertising": {
              "data": [{"type": "name", "value": "a name that is far too long for a legacy advert"}]}}]}
            """
        #expect(error(json) == "test.json: $.devices[0].advertising.data: advertising data of 49 bytes does not fit a legacy advertisement (31)")
    }

    @Test func `a notification longer than MTU − 3 is refused`() {
        let json = """
            {"duration_s": 5, "devices": [{"address": "C2:6B:30:F9:0E:C7",
              "gatt": [{"service": "180d", "characteristics": [{"uuid": "2a37", "properties": ["notify"]}]}],
              "connections": [{"at_s": 1, "actions": [{"notify": "2a37", "at_s": 1, "hex": "\(String(repeating: "00", count: 21))"}]}]}]}
            """
        #expect(
            error(json)
                == "test.json: $.devices[0].connections[0].actions[0]: a 21-byte value does not fit a notification at MTU 23 (at most 20)")
    }

    @Test func `an unknown key names its line and path`() {
        let json = "{\n\"duration_s\": 1,\n\"devices\": [{\"address\": \"C2:6B:30:F9:0E:C7\",\n \"advertsing\": {}}]}"
        #expect(error(json).hasPrefix("test.json:4: $.devices[0].advertsing: unknown key"))
    }

    @Test func `an unknown decoder lists the ones that can encode`() {
        let json = advertisingWith(#"{"type": "manufacturer", "company": 1, "decoder": "nope", "fields": {}}"#)
        #expect(error(json).contains("no encoder for 'nope'; these can encode: envsensor"))
    }

    func advertisingWith(_ entry: String) -> String {
        """
        {"duration_s": 1, "devices": [{"address": "C2:6B:30:F9:0E:C7", "advertising": {"data": [\(entry)]}}]}
        """
    }
}

func shell(_ command: String) -> String {
    guard let pipe = popen(command, "r") else { return "" }
    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, pipe)
        if n <= 0 { break }
        output += buffer[0..<n]
    }
    pclose(pipe)
    return String(decoding: output, as: UTF8.self).trimmingCharacters()
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

enum Hex {
    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
    static func bytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        while !chars.isEmpty {
            guard let b = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            out.append(b)
            chars.removeFirst(2)
        }
        return out
    }
}
