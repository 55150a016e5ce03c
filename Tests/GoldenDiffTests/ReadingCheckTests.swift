import ByteReading
import JSON
import PayloadDecoders
import Testing

@testable import GoldenDiff
@testable import Readings

/// Lines that are not readings: each is refused with what is wrong with it, by the one check that
/// decides, whether or not the fast scanner could read the line.
struct ReadingCheckTests {
    /// The message a line gets in a comparison of a file holding it (alone) with an empty file.
    func message(_ line: String, _ alignment: Alignment = .frame) -> String? {
        let report = ReadingsDiff.compare(
            expected: ReadingLines(line + "\n"), actual: ReadingLines(""), settings: DiffSettings(alignment: alignment))
        #expect(report.problems.count <= 1)
        return report.problems.first?.message
    }

    @Test func `each kind of line that is not a reading is named for what is wrong with it`() {
        let cases: [(line: String, message: String)] = [
            // JSON errors, at the 1-based byte of the line where the parser stopped.
            (#"{"frame":1,"decoder":"x""#, "not JSON at byte 25: unexpected end of input inside an object"),
            (#"{"frame":1,"decoder":"x}"#, "not JSON at byte 25: unexpected end of input in a string"),
            (#"{"frame":1 "decoder":"x"}"#, "not JSON at byte 12: expected ',' or '}' in an object"),
            (#"{"frame":01x}"#, "not JSON at byte 12: expected ',' or '}' in an object"),
            (#"{frame:1}"#, "not JSON at byte 2: expected a quoted key"),
            (#"{"frame":1,"decoder":"x"} {}"#, "not JSON at byte 27: unexpected text after the JSON value"),
            // Not an object.
            ("[1, 2]", "an array, where a reading is a JSON object"),
            (#""frame""#, "a string, where a reading is a JSON object"),
            ("12", "a number, where a reading is a JSON object"),
            ("null", "null, where a reading is a JSON object"),
            // Members missing or of the wrong kind.
            (#"{"frame":1}"#, #"no "decoder" key"#),
            (#"{"decoder":"x","fields":{}}"#, #"no "frame" key"#),
            ("{}", #"no "frame" key"#),
            (#"{"frame":"12","decoder":"x"}"#, #""frame" is "12", not an integer"#),
            (#"{"frame":null,"decoder":"x"}"#, #""frame" is null, not an integer"#),
            (#"{"frame":1.5,"decoder":"x"}"#, #""frame" is 1.5, not a whole number"#),
            (#"{"frame":125e-2,"decoder":"x"}"#, #""frame" is 125e-2, not a whole number"#),
            (#"{"frame":1e30,"decoder":"x"}"#, #""frame" is 1e30, beyond 64-bit integers"#),
            (#"{"frame":9223372036854775808,"decoder":"x"}"#, #""frame" is 9223372036854775808, beyond 64-bit integers"#),
            (#"{"frame":1,"decoder":5}"#, #""decoder" is 5, not a string or null"#),
            (#"{"frame":1,"decoder":["x"]}"#, #""decoder" is ["x"], not a string or null"#),
            (#"{"frame":1,"decoder":"x","addr":7}"#, #""addr" is 7, not a string"#),
            (#"{"frame":1,"decoder":"x","index":"1"}"#, #""index" is "1", not an integer"#),
            (#"{"frame":1,"decoder":"x","index":0.5}"#, #""index" is 0.5, not a whole number"#),
            (#"{"frame":1,"decoder":"x","fields":[1]}"#, #""fields" is [1], not an object"#),
            // A key given twice: which one counts would be a guess.
            (#"{"frame":1,"decoder":"x","frame":2}"#, #""frame" appears twice"#),
            (#"{"frame":1,"decoder":"x","ts":1,"ts":1}"#, #""ts" appears twice"#),
            (#"{"frame":1,"decoder":"x","fr\u0061me":2}"#, #""frame" appears twice"#),
            // The decode error, exactly as readings write it.
            (#"{"frame":1,"decoder":"x","fields":{},"error":{"reason":"r","offset":0,"field":""}}"#,
             #"it has both "fields" and "error""#),
            (#"{"frame":1,"decoder":"x","error":"payload at offset 0: truncated"}"#,
             #""error" is "payload at offset 0: truncated", not {"reason":…,"offset":n,"field":…}"#),
            (#"{"frame":1,"decoder":"x","error":{"reason":"r","field":"f"}}"#,
             #""error" has no "offset" ({"reason":…,"offset":n,"field":…})"#),
            (#"{"frame":1,"decoder":"x","error":{"reason":"r","offset":"4","field":"f"}}"#,
             #""error.offset" is "4", not an integer"#),
            (#"{"frame":1,"decoder":"x","error":{"reason":3,"offset":4,"field":"f"}}"#,
             #""error.reason" is 3, not a string"#),
            (#"{"frame":1,"decoder":"x","error":{"reason":"r","offset":4,"field":null}}"#,
             #""error.field" is null, not a string"#),
            (#"{"frame":1,"decoder":"x","error":{"reason":"r","offset":4,"field":"f","code":2}}"#,
             #""error" has a key "code" that decode errors do not have ({"reason":…,"offset":n,"field":…})"#),
        ]
        for (line, expected) in cases {
            #expect(message(line) == "not a reading: " + expected, "\(line)")
        }
    }

    @Test func `a long value is quoted cut short, and control characters escaped`() {
        let long = String(repeating: "a", count: 60)
        #expect(message(#"{"frame":"\#(long)","decoder":"x"}"#) == #"not a reading: "frame" is "\#(String(repeating: "a", count: 36))…, not an integer"#)
        #expect(message(#"{"frame":"\u001b[31m","decoder":"x"}"#) == #"not a reading: "frame" is "\u001b[31m", not an integer"#)
    }

    @Test func `without frame alignment a reading needs no frame, but a frame given must be one`() {
        #expect(message(#"{"decoder":"x","fields":{}}"#, .sequence) == nil)
        #expect(message(#"{"frame":"1","decoder":"x"}"#, .sequence) == #"not a reading: "frame" is "1", not an integer"#)
    }

    @Test func `lines the tool's own writers give are readings, null decoder and decode error included`() throws {
        let lines = [
            Sample.env12, Sample.heartRate592, Sample.uart600, Sample.envError700,
            #"{"frame":3,"ts":1.000000,"addr":"C2:6B:30:F9:0E:C7","decoder":null,"source":"adv","company":76,"data":"0215"}"#,
            #"{"frame":4,"ts":1.000000,"decoder":null,"source":"notify","uuid":null,"data":""}"#,
        ]
        for line in lines {
            let reading = try ReadingCheck.check(Array(line.utf8), requireFrame: true).get()
            #expect(reading.head.frame != nil, "\(line)")
        }
        let undecoded = try ReadingCheck.check(Array(lines[4].utf8), requireFrame: true).get().head
        #expect(undecoded == ReadingHead(frame: 3, decoder: nil, address: "C2:6B:30:F9:0E:C7", index: nil))
        let uart = try ReadingCheck.check(Array(Sample.uart600.utf8), requireFrame: true).get().head
        #expect(uart == ReadingHead(frame: 600, decoder: "combustion.uart", address: "00:1A:7D:1A:FD:C9", index: 1))
    }

    @Test func `readings as the readings writer writes them pass, the decode error in FieldJSON's shape`() throws {
        let error = DecodeError(.truncated(needed: 2, available: 1), at: 3, field: "pin")
        let readings = [
            Reading(
                frame: 71, timestamp: 1_749_024_003_500_000, address: nil, decoder: "tractor.pin", source: "write_req",
                match: .characteristic(nil), index: 1, outcome: .error(error), repeats: nil),
            Reading(
                frame: 72, timestamp: 1_749_024_003_600_000, address: nil, decoder: nil, source: "adv",
                match: .company(76), index: nil, outcome: .undecoded([0x02, 0x15]), repeats: nil),
            Reading(
                frame: 73, timestamp: 1_749_024_003_700_000, address: nil, decoder: "d", source: "adv",
                match: .company(76), index: nil, outcome: .fields(Fields([Field("t", 25.5), Field("n", .null)])), repeats: 2),
        ]
        var writer = JSONWriter(capacity: 1024)
        for reading in readings { ReadingJSON.write(reading, to: &writer) }
        let lines = ReadingLines(writer.bytes)
        #expect(lines.count == 3)
        let heads = try (0..<lines.count).map { try ReadingCheck.check(lines.line($0), requireFrame: true).get() }
        #expect(heads.map(\.head) == [
            ReadingHead(frame: 71, decoder: "tractor.pin", address: nil, index: 1),
            ReadingHead(frame: 72, decoder: nil, address: nil, index: nil),
            ReadingHead(frame: 73, decoder: "d", address: nil, index: nil),
        ])
        #expect(heads[0].object["error"]?.object?.keys == ["reason", "offset", "field"])
        #expect(heads[0].object["error"]?["offset"] == .number("3"))
    }

    @Test func `the messages reach stderr with file and line, and the rest is compared`() {
        let workspace = Workspace()
        let golden = [
            Sample.env12, #"{"frame":592,"decoder":5}"#, #"{"frame":"600","decoder":"x"}"#, "[]", Sample.envError700,
        ]
        workspace.write("expected.jsonl", Sample.lines(golden))
        workspace.write("actual.jsonl", Sample.lines(Sample.all))
        let expected = workspace.path("expected.jsonl")
        let (code, out, err) = runTool(["diff", expected, workspace.path("actual.jsonl")])
        #expect(code == 3)
        #expect(
            err == """
                error: \(expected):2: not a reading: "decoder" is 5, not a string or null
                error: \(expected):3: not a reading: "frame" is "600", not an integer
                error: \(expected):4: not a reading: an array, where a reading is a JSON object

                """)
        #expect(out.hasPrefix("4 readings compared: 2 unchanged, 2 added, 3 lines not readings\n"))
    }
}
