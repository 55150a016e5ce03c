import JSON
import TestSupport
import Testing

@testable import GoldenDiff

/// Any JSON spelling of a reading is that reading: whitespace, key order, number forms, escapes.
struct ReadingFormsTests {
    func compare(_ expected: [String], _ actual: [String], _ alignment: Alignment = .frame) -> DiffReport {
        ReadingsDiff.compare(
            expected: ReadingLines(Sample.lines(expected)), actual: ReadingLines(Sample.lines(actual)),
            settings: DiffSettings(alignment: alignment))
    }

    /// Each form against the canonical line: unchanged, nothing refused. Then with a value changed
    /// in the form, exactly that change (so the comparison is not merely blind).
    func expectSame(_ canonical: String, _ form: String, changing: (String, String)? = nil, _ alignment: Alignment = .frame) {
        let report = compare([canonical], [form], alignment)
        #expect(report.problems == [], "\(form)")
        #expect(report.counts.unchanged == 1 && !report.hasDifferences, "\(form)")
        if let (from, to) = changing {
            let changed = compare([canonical], [form.replacing(from, with: to)], alignment)
            #expect(changed.counts.changed == 1, "\(form)")
        }
    }

    /// The envsensor sample as Python's `json.dumps` writes it (", " and ": "), and with `sort_keys=True`.
    static let pythonDefault =
        #"{"frame": 12, "ts": 1710495001.151075, "addr": "C2:6B:30:F9:0E:C7", "decoder": "envsensor", "source": "adv", "company": 65535, "fields": {"nonce": 4660, "temperature_c": 23.45, "humidity_pct": 55.3}, "repeats": 3}"#
    static let pythonSorted =
        #"{"addr": "C2:6B:30:F9:0E:C7", "company": 65535, "decoder": "envsensor", "fields": {"humidity_pct": 55.3, "nonce": 4660, "temperature_c": 23.45}, "frame": 12, "repeats": 3, "source": "adv", "ts": 1710495001.151075}"#

    @Test func `whitespace anywhere JSON allows it`() {
        expectSame(Sample.env12, Self.pythonDefault, changing: ("23.45", "23.5"))
        expectSame(Sample.env12, "  " + Sample.env12.replacing(",", with: " ,\t").replacing("\":", with: "\"\t: ") + " \r")
        expectSame(Sample.env12, Sample.env12.replacing("{", with: "{ ").replacing("}", with: " }"), changing: ("4660", "4661"))
    }

    @Test func `keys in any order, fields before frame and index after them`() {
        expectSame(Sample.env12, Self.pythonSorted, changing: ("55.3", "55.4"))
        // jq -S -c: sorted, no spaces.
        expectSame(Sample.env12, Self.pythonSorted.replacing(": ", with: ":").replacing(", ", with: ","))
        let uartSorted =
            #"{"addr":"00:1A:7D:1A:FD:C9","decoder":"combustion.uart","fields":{"message":"read_logs","sequence":43},"frame":600,"index":1,"source":"notify","ts":1710495004.1,"uuid":"6e400003-b5a3-f393-e0a9-e50e24dcca9e"}"#
        expectSame(Sample.uart600, uartSorted, changing: ("43", "44"))
        // The index after "fields" is part of the key: index 2 is another reading.
        let other = compare([Sample.uart600], [uartSorted.replacing(#""index":1"#, with: #""index":2"#)])
        #expect(other.counts.added == 1 && other.counts.missing == 1)
    }

    @Test func `the same number in any JSON spelling is the same value`() {
        for spelling in ["25", "25.0", "2.5e1", "2.5E+1", "250e-1", "0.25e2", "25.000"] {
            expectSame(
                #"{"frame":1,"decoder":"d","fields":{"t":25}}"#, #"{"frame":1,"decoder":"d","fields":{"t":\#(spelling)}}"#)
        }
        for spelling in ["-0", "0.0", "-0.0e5", "0e-9"] {
            expectSame(#"{"frame":1,"decoder":"d","fields":{"z":0}}"#, #"{"frame":1,"decoder":"d","fields":{"z":\#(spelling)}}"#)
        }
        // Frames and indexes too: 12.0 is frame 12.
        expectSame(Sample.env12, Sample.env12.replacing(#""frame":12"#, with: #""frame":12.0"#), changing: ("23.45", "0"))
        expectSame(Sample.uart600, Sample.uart600.replacing(#""frame":600,"#, with: #""frame":6e2,"#).replacing(#""index":1"#, with: #""index":1.0e0"#))
        // Timestamps written with six decimals, as Python reads and writes them back.
        expectSame(Sample.uart600, Sample.uart600.replacing("1710495004.1", with: "1710495004.100000"))
    }

    @Test func `different numbers stay different, beyond what a double holds`() {
        let cases = [
            ("9007199254740993", "9007199254740992"), ("9007199254740993", "9007199254740992.0"),
            ("0.1", "0.1000000000000000055511151231257827"), ("1e400", "2e400"), ("1e-400", "0"), ("25", "-25"),
        ]
        for (a, b) in cases {
            let report = compare(
                [#"{"frame":1,"decoder":"d","fields":{"n":\#(a)}}"#], [#"{"frame":1,"decoder":"d","fields":{"n":\#(b)}}"#])
            #expect(report.counts.changed == 1, "\(a) vs \(b)")
        }
    }

    @Test func `exact numbers: equality and whole numbers, however large the exponent`() {
        func same(_ a: String, _ b: String) -> Bool { ExactNumber(a)! == ExactNumber(b)! }
        #expect(same("1e99999999999999999999", "10e99999999999999999998"))
        #expect(!same("1e99999999999999999999", "1e99999999999999999998"))
        #expect(same("1e-99999999999999999999", "0.01e-99999999999999999997"))
        #expect(same("1e000000000000000000000000003", "1000"))
        #expect(same("123.4500e2", "12345"))
        #expect(ExactNumber("12345e-2")!.int64 == nil)
        #expect(ExactNumber("-9223372036854775808")!.int64 == .min)
        #expect(ExactNumber("9223372036854775807")!.int64 == .max)
        #expect(ExactNumber("9223372036854775808")!.int64 == nil)
        #expect(ExactNumber("92233720368547758.07e2")!.int64 == .max)
        #expect(ExactNumber("1.5e1")!.int64 == 15)
        #expect(ExactNumber("-0.0")!.int64 == 0)
        #expect(ExactNumber("1.") == nil && ExactNumber("e5") == nil && ExactNumber("1e") == nil)
    }

    @Test func `strings with escapes are the strings they spell`() {
        let base = #"{"frame":1,"decoder":"d","fields":{"s":"café/ok 😀"}}"#
        expectSame(base, #"{"frame":1,"decoder":"d","fields":{"s":"caf\u00e9\/ok \ud83d\ude00"}}"#)
        expectSame(base, #"{"frame":1,"decoder":"d","fields":{"s":"caf\u00E9/ok \uD83D\uDE00"}}"#)
        // A decoder name and an address with escapes pair with the plain ones.
        expectSame(Sample.env12, Sample.env12.replacing(#""envsensor""#, with: #""env\u0073ensor""#), changing: ("4660", "1"))
        expectSame(Sample.env12, Sample.env12.replacing("C2:6B:30:F9:0E:C7", with: #"C2:6B:30:F9:0E:C\u0037"#))
        expectSame(Sample.env12, Sample.env12.replacing(#""frame""#, with: #""fr\u0061me""#))
        // The same look, other characters: é precomposed and e with a combining accent differ.
        let decomposed = compare([base], [base.replacing("é", with: "e\u{301}")])
        #expect(decomposed.counts.changed == 1)
    }

    @Test func `objects compare key by key in any order, also inside arrays`() {
        expectSame(
            #"{"frame":1,"decoder":"d","fields":{"list":[{"a":1,"b":[2,{"c":3,"d":4}]}]}}"#,
            #"{"frame":1,"decoder":"d","fields":{"list":[{"b":[2.0,{"d":4,"c":3}],"a":1}]}}"#)
        let report = compare(
            [#"{"frame":1,"decoder":"d","fields":{"list":[{"a":1,"b":2}]}}"#],
            [#"{"frame":1,"decoder":"d","fields":{"list":[{"b":2,"a":1,"c":3}]}}"#])
        #expect(report.counts.changed == 1)
    }

    @Test func `readings nothing decoded have a null decoder and pair by it`() {
        let undecoded =
            #"{"frame":3,"ts":1.000000,"addr":"C2:6B:30:F9:0E:C7","decoder":null,"source":"adv","company":76,"data":"0215"}"#
        var report = compare([undecoded, Sample.env12], [undecoded, Sample.env12])
        #expect(report.problems == [] && report.counts.unchanged == 2)
        #expect(report.decoders.map(\.name) == ["envsensor", "(no decoder)"])
        expectSame(undecoded, #"{"addr": "C2:6B:30:F9:0E:C7", "company": 76, "data": "0215", "decoder": null, "frame": 3, "source": "adv", "ts": 1.0}"#, changing: ("0215", "0216"))
        // A null decoder is not the decoder named "null".
        report = compare([undecoded], [undecoded.replacing("null", with: #""null""#)])
        #expect(report.counts.added == 1 && report.counts.missing == 1)
        #expect(TextReport().entries(report).first == "+ frame 3 null C2:6B:30:F9:0E:C7")
        #expect(TextReport().entries(report).dropFirst(2).first == "- frame 3 (no decoder) C2:6B:30:F9:0E:C7")
    }

    @Test func `the scanner reads the lines the tool and common JSON tools write, without the full check`() {
        let lines = ReadingLines(
            Sample.lines(Sample.all + [Self.pythonDefault, Self.pythonSorted, Self.pythonSorted.replacing(": ", with: ":")]))
        for i in 0..<lines.count {
            let key = ReadingPrefix.scan(lines, i, .key(requireFrame: true))
            #expect(key != nil, "line \(i + 1)")
            #expect(ReadingPrefix.scan(lines, i, .decoder(requireFrame: true)) != nil, "line \(i + 1)")
            let full = try? ReadingCheck.check(lines.line(i), requireFrame: true).get().head
            #expect(key?.frame == full?.frame && key?.index == full?.index)
            #expect(key.flatMap { $0.decoder.map { lines.string($0, escaped: false) } } == full?.decoder)
        }
        // What it cannot be sure of, it leaves to the full check.
        let unsure = ReadingLines(
            Sample.lines([
                #"{"frame":12.0,"decoder":"x"}"#, #"{"fr\u0061me":1,"decoder":"x"}"#,
                #"{"frame":1,"decoder":"x","frame":2}"#, #"{"frame":1,"decoder":"x","fields":{},"index":1.0}"#,
            ]))
        for i in 0..<unsure.count { #expect(ReadingPrefix.scan(unsure, i, .key(requireFrame: true)) == nil, "line \(i + 1)") }
    }

    @Test func `a byte order mark before the first line is not part of it`() {
        let workspace = Workspace()
        workspace.write("expected.jsonl", Sample.lines(Sample.all))
        workspace.write("actual.jsonl", "\u{FEFF}" + Sample.lines(Sample.all))
        let (code, out, err) = runTool(["diff", workspace.path("expected.jsonl"), workspace.path("actual.jsonl")])
        #expect(err == "")
        #expect(code == 0)
        #expect(out.hasPrefix("4 readings compared: 4 unchanged\n"))
    }

    @Test func `decode --all output diffs clean against itself`() throws {
        // The tool's own output, with "decoder": null for what no decoder took.
        let workspace = Workspace()
        let (code, out, _) = runTool(["decode", "--all", TestCaptures.tractor])
        #expect(code == 0)
        #expect(out.contains(#""decoder":null"#))
        workspace.write("a.jsonl", out)
        let result = runTool(["diff", workspace.path("a.jsonl"), workspace.path("a.jsonl")])
        #expect(result.err == "")
        #expect(result.code == 0)
    }
}

enum TestCaptures {
    static let envsensor = TestPaths.captures + "/envsensor.btsnoop"
    static let tractor = TestPaths.captures + "/tractor.btsnoop"
}
