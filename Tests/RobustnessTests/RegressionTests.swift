import BluetoothTracking
import CaptureFiles
import CaptureModel
import EventOutput
import GoldenDiff
import JSON
import Layouts
import PayloadDecoders
import Readings
import Synthesis
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs that once crashed a reader, found by the fuzz targets in Fuzz/Targets. Each test builds
/// the smallest input that shows the bug; the crash files themselves are replayed below.
struct CaptureRegressionTests {
    /// Found by `scripts/fuzz pklg`: while resynchronizing after a damaged record, the reader took a
    /// good record followed by fewer than 12 bytes as confirmed, and read the next "header" past the
    /// end of the input.
    @Test func `a PacketLogger resynchronization near the end reads nothing past the file`() throws {
        // Five good records first: PacketLogger is recognised by its first five.
        let first = PacketLoggerFile.sample(count: 5)
        // A record length of 2 cannot hold the timestamp: damage.
        let damaged: [UInt8] = [0x02, 0x00, 0x00, 0x00]
        let second = PacketLoggerFile.record(type: 0x01, [0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00], micros: 6000)
        // Two bytes: too few for another record header.
        let bytes = first + damaged + second + [0x11, 0x22]
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 2, 3, 4, 5])
        let problem = try #require(outcome.problems.first)
        #expect(problem.kind == .badRecord)
        #expect(problem.frame == 6)
        #expect(problem.offset == Int64(first.count))
        #expect(problem.reason == "record length 2 is too small")
        // The second record is not confirmed by a header after it, so reading does not resume.
        #expect(problem.skippedBytes == nil)
    }

    /// Found by the mutation sweep: PacketLogger has no magic, so a file is recognised by its first
    /// five records; one damaged among them made the whole file "not a capture", losing the
    /// records before it.
    @Test func `a PacketLogger file damaged in its third record keeps the two before it`() throws {
        var bytes = PacketLoggerFile.sample(count: 8)
        let third = 18 + 19  // two records: 12-byte header, type, 5 then 6 bytes of packet
        bytes[third + 3] = 0xFF  // record length 0xFF000015: more than any record
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 2] + Array(4...8))
        #expect(outcome.problems.map(\.frame) == [3])
        #expect(outcome.problems.first?.offset == Int64(third))
        // A file whose first record is implausible is still not taken for PacketLogger.
        bytes[3] = 0xFF
        #expect(readCapture(bytes) == nil)
    }

    @Test(arguments: Regressions.files("pklg") + Regressions.files("pcap") + Regressions.files("btsnoop"))
    func `every kept crash input reads to its end`(path: String) throws {
        let bytes = try #require(TestPaths.readFile(path))
        guard let outcome = readCapture(bytes) else { return }
        #expect(outcome.records.count + outcome.problemCount >= 1, "\(path)")
    }
}

struct PcapRegressionTests {
    /// Found by `scripts/fuzz pcap`: a pcapng timestamp of 2^64 - 1 µs gives libpcap a tv_sec that
    /// overflows when turned into microseconds.
    @Test func `a pcapng timestamp too large for microseconds does not stop reading`() throws {
        // H4 with pseudo-header: direction (received), then HCI Command Complete.
        let packet: [UInt8] = [0, 0, 0, 1, 0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
        let bytes =
            PcapNGFile.sectionHeader + PcapNGFile.interface(linkType: 201)
            + PcapNGFile.packet(packet, timestamp: .max) + PcapNGFile.packet(packet, timestamp: 1_700_000_000_000_000)
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 2])
        #expect(outcome.records.map(\.payload) == [Array(packet.dropFirst(5)), Array(packet.dropFirst(5))])
        // The 64-bit count wraps to its two's-complement value.
        #expect(outcome.records.map(\.timestamp) == [-1, 1_700_000_000_000_000])
        #expect(outcome.problems.isEmpty)
    }
}

/// Runs record sequences through the tracker and everything after it, as the tracker fuzz target does.
enum Pipeline {
    /// Events and the bytes written for them (JSON, text, readings).
    static func run(_ records: [StoredRecord]) -> (events: [Event], output: [UInt8]) {
        let tracker = Tracker()
        let readings = ReadingsPipeline(decoders: DecoderSet(Registry.builtIn))
        var text = EventText()
        var writer = JSONWriter(capacity: 4096)
        var events: [Event] = []
        let handle: (Event) -> Void = { event in
            events.append(event)
            EventJSON.write(event, to: &writer)
            text.write(event, to: &writer)
            readings.consume(event) { ReadingJSON.write($0, to: &writer) }
        }
        for record in records { record.withRecord { tracker.consume($0, handle) } }
        tracker.finish(handle)
        readings.finish { ReadingJSON.write($0, to: &writer) }
        return (events, writer.bytes)
    }
}

struct TrackerRegressionTests {
    /// Found by `scripts/fuzz tracker`: the text format shows each event's time since the first, and
    /// subtracting two timestamps far apart (a damaged capture's) overflowed.
    @Test func `the text format shows events at both ends of the Int64 range`() {
        var text = EventText()
        var writer = JSONWriter(capacity: 256)
        text.write(Event(frame: 1, timestamp: .max, body: .note("first")), to: &writer)
        text.write(Event(frame: 2, timestamp: .min, body: .note("second")), to: &writer)
        text.write(Event(frame: 3, timestamp: .max, body: .note("third")), to: &writer)
        let lines = String(decoding: writer.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "#1          0.000000        note       first")
        // The difference saturates at the Int64 range: -9223372036854.775808 s.
        #expect(lines[1] == "#2      -9223372036854.775808        note       second")
        #expect(lines[2] == "#3          0.000000        note       third")
    }

    @Test(arguments: Regressions.files("tracker"))
    func `every kept record sequence runs through the tracker and its outputs`(path: String) throws {
        let records = RecordScript.records(try #require(TestPaths.readFile(path)))
        let (events, output) = Pipeline.run(records)
        #expect(!events.isEmpty)
        #expect(!output.isEmpty)
    }
}

struct LayoutRegressionTests {
    /// Found by `scripts/fuzz layout-loader`: a cadence in milliseconds was turned into Int64
    /// microseconds unchecked, and 5e50 trapped.
    @Test(arguments: [("min_ms", "5e50", "5e+50"), ("max_ms", "1e999", "inf"), ("max_ms", "-1e300", "-1e+300")])
    func `a cadence with no microsecond value is a lint error`(key: String, value: String, shown: String) {
        let json =
            #"{"id": "a", "match": {"company": 1}, "fields": [{"name": "x", "type": "u8"}], "cadence": {"\#(key)": \#(value)}}"#
        let error = #expect(throws: LayoutLoadError.self) { try Layout.parse(bytes: Array(json.utf8), name: "a.json") }
        #expect(
            error?.issues.map(\.message).contains("\(key) \(shown) is out of range") == true, "\(error?.issues ?? [])")
    }

    /// Found while fixing the cadence: "bit" and "width" were summed before either was checked,
    /// and a bit position near Int64.max overflowed.
    @Test func `a bit position past Int64 is a lint error`() {
        let json =
            #"{"id": "a", "match": {"company": 1}, "fields": [{"type": "u8", "bits": [{"name": "x", "bit": 9223372036854775807}]}]}"#
        let error = #expect(throws: LayoutLoadError.self) { try Layout.parse(bytes: Array(json.utf8), name: "a.json") }
        #expect(error?.issues.map(\.message) == ["bit 9223372036854775807 with width 1 does not fit in u8 (bits 0…7)"])
    }

    @Test(arguments: Regressions.files("layout-loader"))
    func `every kept layout document loads or is refused with located issues`(path: String) throws {
        let bytes = try #require(TestPaths.readFile(path))
        do {
            _ = try Layout.parse(bytes: bytes, name: path, requireParameters: false)
        } catch {
            #expect(!error.issues.isEmpty)
            #expect(error.issues.allSatisfy { $0.line >= 1 })
        }
    }
}

struct TimestampRegressionTests {
    /// Resynchronizing after damage compares each candidate's timestamp with the last good one; with
    /// the last good one near the end of the Int64 range, `last + one day` overflowed.
    @Test func `btsnoop resynchronizes after a record stamped at the end of the Int64 range`() throws {
        var records = CaptureFactory.sampleRecords(count: 6, start: .max - 100_000)
        records[0].timestamp = .max
        var bytes = try CaptureFactory.capture(.btsnoop(.btsnoopUART), records)
        // Break the included length of the second record (16-byte header, 24 + 6 for the first).
        let second = 16 + 24 + 6
        bytes[second + 4] = 0x7F
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 3, 4, 5, 6])
        #expect(outcome.problems.map(\.offset) == [Int64(second)])
        #expect(outcome.problems.first?.skippedBytes == Int64(24 + 7))
    }
}

/// Tracker inputs: HCI ACL packets carrying ATT, on connection handle 0x0040.
enum ACL {
    /// An ACL start fragment with a whole L2CAP frame on the ATT channel (CID 4).
    static func att(_ pdu: [UInt8]) -> [UInt8] {
        let l2cap = [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
        return [0x40, 0x20, UInt8(l2cap.count & 0xFF), UInt8(l2cap.count >> 8)] + l2cap
    }

    static func record(_ frame: Int, _ timestamp: Int64, _ direction: Direction, _ pdu: [UInt8]) -> StoredRecord {
        StoredRecord(frame: frame, timestamp: timestamp, direction: direction, kind: .acl, payload: att(pdu))
    }
}

extension TimestampRegressionTests {
    /// A full-MTU Read Response is held until the next request shows whether a Read Blob continues
    /// it, and released after five seconds; measuring those seconds overflowed when the next record
    /// was stamped at the other end of the Int64 range.
    @Test func `a held read response is released when the next record is stamped far away`() {
        let records = [
            // ATT Read Request for handle 0x000E, then a Read Response of 22 bytes (MTU 23 - 1).
            ACL.record(1, 1_000, .sent, [0x0A, 0x0E, 0x00]),
            ACL.record(2, .max, .received, [0x0B] + [UInt8](repeating: 0x41, count: 22)),
            // ATT Handle Value Notification of handle 0x0010.
            ACL.record(3, .min, .received, [0x1B, 0x10, 0x00, 0x01]),
        ]
        let events = Pipeline.run(records).events.filter { if case .att = $0.body { true } else { false } }
        #expect(events.map(\.frame) == [1, 2, 3])
        #expect(events.map(\.timestamp) == [1_000, .max, .min])
    }

    /// Without the sniffer saying which way a data PDU went, the tracker alternates within 2 ms;
    /// measuring the 2 ms overflowed for timestamps at the two ends of the Int64 range.
    @Test func `link-layer data PDUs stamped far apart are followed`() {
        // LE link layer (DLT 251): access address, header (LLID 2: start of an L2CAP frame), length,
        // payload (an ATT Handle Value Notification), no CRC.
        // The two differ in their value, so the second is no retransmission.
        let records = [Int64.max, .min].enumerated().map { index, timestamp in
            StoredRecord(
                frame: index + 1, timestamp: timestamp, direction: .unknown, kind: .linkLayer, linkType: .leLL,
                payload: [0x78, 0x56, 0x34, 0x12, 0x02, 0x08, 0x04, 0x00, 0x04, 0x00, 0x1B, 0x10, 0x00, UInt8(index)])
        }
        let events = Pipeline.run(records).events
        let att = events.filter { if case .att = $0.body { true } else { false } }
        #expect(att.map(\.frame) == [1, 2])
    }
}

extension TimestampRegressionTests {
    /// `bluetape info` shows the time from the earliest to the latest record, which overflowed for a
    /// capture with records stamped at both ends of the Int64 range.
    @Test func `info shows the span of a capture stamped at both ends of the Int64 range`() throws {
        var records = CaptureFactory.sampleRecords(count: 3)
        records[0].timestamp = .min
        records[2].timestamp = .max
        let path = TestPaths.temporaryDirectory() + "/span.btsnoop"
        TestPaths.writeFile(path, try CaptureFactory.capture(.btsnoop(.btsnoopUART), records))
        let json = run(["info", "--json", path])
        #expect(json.code == 0)
        let summary = try JSONValue.parse(json.out)
        #expect(summary["records"]?.int64 == 3)
        // Saturated at Int64.max microseconds.
        #expect(summary["duration"] == .number("9223372036854.775807"))
        let text = run(["info", path])
        #expect(text.code == 0)
        #expect(text.out.contains("  duration   2562047788 h 00 min 54 s\n"), "\(text.out)")
    }
}

extension TimestampRegressionTests {
    /// A layout's cadence rule measures the time between a device's packets; for packets stamped at
    /// the two ends of the Int64 range the subtraction overflowed.
    @Test func `a cadence rule measures packets stamped at both ends of the Int64 range`() throws {
        let json =
            #"{"id": "a", "match": {"company": 1}, "fields": [{"name": "x", "type": "u8"}], "cadence": {"max_ms": 1000}}"#
        let layout = try Layout.parse(bytes: Array(json.utf8), name: "a.json")
        var checker = RuleChecker(layouts: [layout])
        let fields: Fields = [Field("x", 1)]
        #expect(checker.check(device: "d", frame: 1, timestamp: .min, decoder: "a", fields: fields).isEmpty)
        let violations = checker.check(device: "d", frame: 2, timestamp: .max, decoder: "a", fields: fields)
        #expect(violations.map(\.rule) == ["cadence"])
        #expect(violations.first?.value == .double(Double(Int64.max) / 1000))
    }
}

struct ScenarioRegressionTests {
    static func scenario(start: String = "2025-06-01T10:00:00Z", rssi: String = "-60") -> [UInt8] {
        Array(
            #"""
            {"start": "\#(start)", "duration_s": 1, "devices": [{"address": "C2:6B:30:F9:0E:C7",
              "advertising": {"interval_ms": 100, "rssi": \#(rssi), "data": [{"type": "flags", "value": 6}]}}]}
            """#.utf8)
    }

    /// A scenario's start time was turned into microseconds without range checks: a year, hour or
    /// second too large overflowed, and month 13 was accepted.
    @Test(arguments: [
        "99999999999-01-01T00:00:00Z", "2025-06-01T99999999999999:00:00Z", "2025-06-01T10:00:1e300Z",
        "2025-13-01T10:00:00Z", "2025-06-32T10:00:00Z", "2025-06-01T10:60:00Z", "2025-06-01T10:00:-1Z",
    ])
    func `a start time outside the calendar is an error at its path`(start: String) {
        let error = #expect(throws: ScenarioError.self) {
            try Scenario.parse(bytes: Self.scenario(start: start), name: "s.json", directory: ".")
        }
        #expect(error?.path == "$.start")
        #expect(error?.message == "expected an ISO time such as \"2025-06-01T10:00:00Z\"")
    }

    @Test func `a start time inside the calendar is read to the microsecond`() throws {
        let scenario = try Scenario.parse(
            bytes: Self.scenario(start: "2025-06-01T10:00:00.5Z"), name: "s.json", directory: ".")
        #expect(scenario.start == 1_748_772_000_500_000)
    }
}

extension ScenarioRegressionTests {
    /// The RSSI of each synthesized LE Advertising Report (its last byte).
    static func reportedRSSI(_ rssi: String) throws -> [Int8] {
        let scenario = try Scenario.parse(bytes: Self.scenario(rssi: rssi), name: "s.json", directory: ".")
        var values: [Int8] = []
        try Synthesizer(scenario).run(limit: 40) { record in
            // HCI LE Meta event (0x3E), subevent LE Advertising Report (0x02).
            if record.kind == .event, record.payload.count > 3, record.payload[0] == 0x3E, record.payload[2] == 0x02 {
                values.append(Int8(bitPattern: record.payload.last!))
            }
        }
        return values
    }

    /// A series is evaluated as a Double and turned into the RSSI's integer; ±1e300, an infinite
    /// ramp (1e308 - -1e308) or a NaN (its product with 0) trapped in Int64(_:). They saturate.
    @Test(arguments: [
        ("1e300", Int8.max), ("-1e300", Int8.min), (#"{"ramp": [1e308, -1e308]}"#, Int8.min),
        (#"{"sine": {"mean": 1e308, "amplitude": 1e308, "period_s": 1}}"#, Int8.max),
        (#"{"random": {"min": -1e300, "max": -1e299, "integer": true}}"#, Int8.min),
        // The remainder by a wrap near Int64.max: adding the wrap to it overflowed.
        (#"{"counter": 9223372036854775806, "step": 0, "wrap": 9223372036854775807}"#, Int8.max),
    ])
    func `an RSSI series beyond Int64 saturates`(rssi: String, expected: Int8) throws {
        let values = try Self.reportedRSSI(rssi)
        #expect(!values.isEmpty)
        #expect(values.first == expected)
    }

    @Test func `a random integer series between huge bounds yields integers`() throws {
        let values = try Self.reportedRSSI(#"{"random": {"min": -1e308, "max": 1e308, "integer": true}}"#)
        #expect(values.count >= 5)
        #expect(values.allSatisfy { $0 == .min || $0 == .max })
    }
}

extension ScenarioRegressionTests {
    static func scenario(connections: Int) -> [UInt8] {
        let list = (0..<connections).map { #"{"at_s": \#(1 + Double($0) / 10_000), "duration_s": 0.001}"# }
        return Array(
            #"{"duration_s": 10, "devices": [{"address": "C2:6B:30:F9:0E:C7", "connections": [\#(list.joined(separator: ","))]}]}"#
                .utf8)
    }

    /// Each connection is given the next HCI handle from 0x040 on, as a UInt16: a scenario with
    /// 65,473 connections trapped, and past 0xEFF the handles no longer fit the ACL header's 12 bits.
    @Test func `a scenario with more connections than HCI handles is an error`() throws {
        let error = #expect(throws: ScenarioError.self) {
            try Scenario.parse(bytes: Self.scenario(connections: 3777), name: "s.json", directory: ".")
        }
        #expect(error?.path == "$.devices")
        #expect(error?.message == "more than 3776 connections: HCI handles run out at 0xEFF")
        let most = try Scenario.parse(bytes: Self.scenario(connections: 3776), name: "s.json", directory: ".")
        #expect(try Synthesizer(most).run(limit: 20) { _ in } == 20)
    }
}

/// HCI LE Advertising Reports carrying EnvSensor manufacturer data (company 0xFFFF), whose readings
/// the pipeline de-duplicates by nonce.
enum EnvSensorAdvert {
    /// An advertising report from C6:05:04:03:`high`:`low` (random) with the payload of the
    /// EnvSensor decoder's tests and the given nonce.
    static func event(low: UInt8, high: UInt8 = 0x02, nonce: UInt16 = 0x1234) -> [UInt8] {
        let payload: [UInt8] =
            [0xFF, 0xFF, UInt8(nonce & 0xFF), UInt8(nonce >> 8)]
            + [0x29, 0x09, 0x9A, 0x15, 0x94, 0x27, 0x00, 0x00, 0x4A, 0x01, 0x2E, 0xFB, 0xFF, 0xFF]
        let ad: [UInt8] = [UInt8(payload.count + 1), 0xFF] + payload
        // Subevent 0x02, one report, ADV_IND, random address, the address, data, RSSI -60.
        let body: [UInt8] = [0x02, 0x01, 0x00, 0x01, low, high, 0x03, 0x04, 0x05, 0xC6, UInt8(ad.count)] + ad + [0xC4]
        return [0x3E, UInt8(body.count)] + body
    }
}

extension TimestampRegressionTests {
    /// A reading de-duplicated by its nonce waits ten seconds of capture time for more copies;
    /// measuring those seconds overflowed when the next event was stamped far before it.
    @Test func `a held reading is released when the next event is stamped far away`() {
        let records = [(Int64.max, UInt8(1)), (.min, 2)].enumerated().map { index, entry in
            StoredRecord(
                frame: index + 1, timestamp: entry.0, direction: .received, kind: .event,
                payload: EnvSensorAdvert.event(low: entry.1))
        }
        let tracker = Tracker()
        let readings = ReadingsPipeline(decoders: DecoderSet(Registry.builtIn))
        var frames: [Int] = []
        for record in records {
            record.withRecord { tracker.consume($0) { readings.consume($0) { frames.append($0.frame) } } }
        }
        // The first reading is released by the second event's far-away time, before the end.
        #expect(frames == [1])
        readings.finish { frames.append($0.frame) }
        #expect(frames == [1, 2])
    }
}

struct EventOrderRegressionTests {
    /// Found while sweeping damaged captures through the event stream: the reader's report of a
    /// damaged record went straight to the output, ahead of a Read Response the tracker still
    /// held (to see whether a Read Blob continues it), so frame 3 came out before frame 2.
    @Test func `a damaged record's diagnostic keeps its place behind a held event`() throws {
        let records = [
            // Read Request for handle 0x000E; a full Read Response (held); two more Read Requests.
            StoredRecord(timestamp: 1_000, direction: .sent, kind: .acl, payload: ACL.att([0x0A, 0x0E, 0x00])),
            StoredRecord(
                timestamp: 2_000, direction: .received, kind: .acl,
                payload: ACL.att([0x0B] + [UInt8](repeating: 0x41, count: 22))),
            StoredRecord(timestamp: 3_000, direction: .sent, kind: .acl, payload: ACL.att([0x0A, 0x10, 0x00])),
            StoredRecord(timestamp: 4_000, direction: .sent, kind: .acl, payload: ACL.att([0x0A, 0x10, 0x00])),
        ]
        var bytes = try CaptureFactory.capture(.btsnoop(.btsnoopUART), records)
        // The third record: after the file header and two records of 24 + 1 + 11 and 24 + 1 + 31 bytes.
        let third = 16 + 36 + 56
        bytes[third + 4] = 0x7F  // included length 0x7F00000F
        var events: [String] = []
        EventStream.read(try CaptureReader(bytes: bytes, formats: testFormats)) { events.append("\($0.frame) \($0.type.rawValue)") }
        #expect(events == ["1 att", "2 att", "3 diagnostic", "4 att"])
    }
}

struct GoldenSuiteRegressionTests {
    /// Found by trying directories as golden check inputs: symbolic links that loop (to "." and to
    /// the parent) were followed, branching at every level, until paths grew too long: in effect a
    /// hang. Each directory is searched once now, however many links lead to it.
    @Test func `golden check searches each directory once, through looping links`() throws {
        let root = TestPaths.temporaryDirectory() + "/suite"
        mkdir(root, 0o755)
        mkdir(root + "/sub", 0o755)
        TestPaths.writeFile(root + "/a.btsnoop", [])
        TestPaths.writeFile(root + "/sub/b.btsnoop", [])
        symlink(".", root + "/loop")
        symlink("../suite", root + "/up")
        symlink("sub", root + "/again")
        let start = monotonicMicroseconds()
        let suite = try GoldenSuite.find([root])
        #expect(Double(monotonicMicroseconds() - start) / 1e6 < 5)
        // "again" comes before "sub" and leads to the same directory: b.btsnoop is found once.
        #expect(suite.members.map(\.capture) == [root + "/a.btsnoop", root + "/again/b.btsnoop"])
    }
}

struct RuleRegressionTests {
    static func checker(_ counter: String, type: String = "i64") throws -> RuleChecker {
        let json =
            #"{"id": "a", "match": {"company": 1}, "fields": [{"name": "c", "type": "\#(type)", "counter": \#(counter)}]}"#
        return RuleChecker(layouts: [try Layout.parse(bytes: Array(json.utf8), name: "a.json")])
    }

    static func messages(_ checker: inout RuleChecker, _ values: [Int64]) -> [String] {
        values.enumerated().flatMap { index, value in
            checker.check(device: "d", frame: index + 1, timestamp: Int64(index), decoder: "a", fields: [Field("c", .int(value))])
                .map(\.message)
        }
    }

    /// Found by reading the counter rule after the cadence overflow: the next value was computed
    /// as (before + step) % modulo + modulo, and the advance as current - before, which overflow
    /// for 64-bit counters whose values, step or modulo are near Int64.max (the values come from
    /// the capture). The arithmetic is done modulo first now.
    @Test func `a 64-bit counter near the ends of Int64 is checked without overflowing`() throws {
        var checker = try Self.checker(#"{"step": 2, "modulo": 9223372036854775807}"#)
        // Int64.max - 1 plus 2, modulo Int64.max, is 1.
        #expect(Self.messages(&checker, [.max - 1, 1, 3]) == [])
        checker = try Self.checker(#"{"step": 1, "modulo": 4611686018427387904}"#)
        let messages = Self.messages(&checker, [.min, .max])
        #expect(messages == ["expected 1 after -9223372036854775808, got 9223372036854775807"])
        checker = try Self.checker(#"{"step": 9223372036854775807, "modulo": 9223372036854775807}"#)
        #expect(Self.messages(&checker, [5, 5]) == [])
    }

    @Test func `an 8-bit counter still counts missing packets`() throws {
        var checker = try Self.checker("true", type: "u8")
        #expect(
            Self.messages(&checker, [254, 255, 0, 3, 4])
                == ["expected 1 after 0, got 3 (2 missing)"])
    }
}
