import JSON
import Testing

@testable import GoldenDiff

struct ReadingsDiffTests {
    func compare(_ expected: [String], _ actual: [String], _ settings: DiffSettings = DiffSettings()) -> DiffReport {
        ReadingsDiff.compare(
            expected: ReadingLines(Sample.lines(expected)), actual: ReadingLines(Sample.lines(actual)),
            settings: settings)
    }

    @Test func `identical lines are unchanged without their values being read`() {
        // The values are not JSON at all: identical lines are taken as they are.
        let odd = #"{"frame":5,"decoder":"x","fields":{not json at all}}"#
        let report = compare([Sample.env12, odd], [Sample.env12, odd])
        #expect(report.counts.unchanged == 2)
        #expect(report.problems.isEmpty)
        #expect(report.decoders.map(\.decoder) == ["envsensor", "x"])
    }

    @Test func `the tool's own output, known to be identical, is counted as the line-by-line check counts it`() {
        // As `bluetape decode` writes readings: a decoder, one of null, and one with an escape
        // (read the slow way); the decoder of each is found without checking the line.
        let lines = Sample.lines([
            Sample.env12, #"{"frame":3,"ts":"2024-05-01T10:00:00.000000Z","decoder":null,"source":"adv","company":76,"data":"0215"}"#,
            #"{"frame":4,"ts":"2024-05-01T10:00:00.000000Z","addr":"C0:98:E5:00:00:01","decoder":"odd\"id","source":"adv","company":1,"fields":{}}"#,
            Sample.heartRate592, Sample.env12,
        ])
        let plain = ReadingsDiff.compare(expected: ReadingLines(lines), actual: ReadingLines(lines))
        let known = ReadingsDiff.compare(expected: ReadingLines(lines), actual: ReadingLines(lines), canonical: true)
        #expect(known == plain)
        #expect(known.decoders.map(\.decoder) == ["envsensor", "odd\"id", "sig.heart_rate", nil])
        #expect(known.decoders.map(\.counts.unchanged) == [2, 1, 1, 1])
    }

    @Test func `numbers are compared by value`() {
        let report = compare(
            [#"{"frame":1,"decoder":"d","fields":{"a":1,"b":[2,0.5]}}"#],
            [#"{"frame":1,"decoder":"d","fields":{"a":1.0,"b":[2e0,0.50]}}"#])
        #expect(report.counts.unchanged == 1)
        #expect(report.counts.withinTolerance == 0)
    }

    @Test func `a tolerance of 0.01 accepts a step of 0.01 despite binary rounding`() {
        let settings = DiffSettings(fieldTolerances: ["temperature_c": 0.01])
        var report = compare([Sample.env12], [Sample.env12.replacing("23.45", with: "23.46")], settings)
        #expect(report.counts.withinTolerance == 1)
        report = compare([Sample.env12], [Sample.env12.replacing("23.45", with: "23.4601")], settings)
        #expect(report.counts.changed == 1)
        report = compare([Sample.heartRate592], [Sample.heartRate592.replacing("0.775390625", with: "0.78")], settings)
        #expect(report.counts.changed == 1)
        report = compare(
            [Sample.heartRate592], [Sample.heartRate592.replacing("0.775390625", with: "0.78")],
            DiffSettings(fieldTolerances: ["rr_intervals_s": 0.005]))
        #expect(report.counts.withinTolerance == 1)
    }

    @Test func `readings out of frame order are still paired by key`() {
        let report = compare(
            [Sample.uart600, Sample.env12, Sample.heartRate592],
            [Sample.env12, Sample.heartRate592.replacing("82", with: "83"), Sample.uart600])
        #expect(report.counts.unchanged == 2)
        #expect(report.counts.changed == 1)
        guard case .changed(let change) = report.entries.first(where: { $0.key?.decoder == "sig.heart_rate" }) else {
            Issue.record("no change reported")
            return
        }
        #expect(change.expected.line == 3)
        #expect(change.actual.line == 2)
        #expect(
            change.changes == [FieldChange(field: "heart_rate_bpm", expected: .number("82"), actual: .number("83"))])
    }

    @Test func `ignoring addr leaves it out of the key`() {
        let moved = Sample.env12.replacing("C2:6B:30:F9:0E:C7", with: "D0:00:00:00:00:01")
        var report = compare([Sample.env12], [moved])
        #expect(report.counts.added == 1)
        #expect(report.counts.missing == 1)
        report = compare([Sample.env12], [moved], DiffSettings(ignored: ["addr"]))
        #expect(report.counts.unchanged == 1)
    }

    @Test func `pairing by key keeps reading order and never pairs a duplicated key`() {
        let outcomes = KeyJoin.join(expected: ["a", "b", "c", "d", "d"], actual: ["a", "x", "c", "d", "b"])
        #expect(
            outcomes == [
                .pair(expected: 0, actual: 0), .added(1), .pair(expected: 2, actual: 2),
                .duplicate(expected: [3, 4], actual: [3]), .pair(expected: 1, actual: 4),
            ])
    }

    @Test func `colour is added only when asked for`() {
        let report = compare([Sample.env12], [Sample.env12.replacing("23.45", with: "23.5")])
        let plain = TextReport().entries(report)
        #expect(plain == ["~ frame 12 envsensor C2:6B:30:F9:0E:C7", "    temperature_c  23.45 → 23.5"])
        let coloured = TextReport(colour: true).entries(report)
        #expect(
            coloured == [
                "\u{1B}[33m~\u{1B}[0m frame 12 envsensor C2:6B:30:F9:0E:C7",
                "    temperature_c  \u{1B}[31m23.45\u{1B}[0m → \u{1B}[32m23.5\u{1B}[0m",
            ])
    }

    @Test func `a long list of differences stops at the limit with a count`() {
        let expected = (1...5).map { Sample.envsensor(frame: $0) }
        let actual = (1...5).map { Sample.envsensor(frame: $0, temperature: "30.5") }
        let lines = TextReport(limit: 2).entries(compare(expected, actual))
        #expect(lines.count == 5)
        #expect(lines.last == "… 3 more differing readings not shown")
    }

    @Test func `golden.json is read into settings and decode options`() throws {
        let config = try GoldenConfig.parse(
            Array(
                #"{"version":1,"align":"sequence","ignore":["ts","fields.rssi"],"tolerance":0.5,"decode":{"company":"0xABCD","strict":true}}"#
                    .utf8),
            file: "golden.json")
        #expect(config.settings == DiffSettings(alignment: .sequence, tolerance: 0.5, ignored: ["ts", "rssi"]))
        #expect(config.decodeOptions == ["company": "0xABCD", "strict": "true"])
        #expect(throws: GoldenError("golden.json:1: \"align\" must be \"frame\" or \"sequence\"", kind: .setting)) {
            try GoldenConfig.parse(Array(#"{"align":"time"}"#.utf8), file: "golden.json")
        }
        #expect(throws: GoldenError("golden.json:1: column 2: expected a quoted key", kind: .setting)) {
            try GoldenConfig.parse(Array("{,}".utf8), file: "golden.json")
        }
    }

    @Test func `files named in golden.json are relative to its directory`() throws {
        let text = #"{"decode":{"layouts":"../layouts/a.json, /abs/b.json","gatt":"maps/g.json","company":"0xABCD"}}"#
        let config = try GoldenConfig.parse(Array(text.utf8), file: "suite/captures/golden.json")
        #expect(
            config.decodeOptions == [
                "layouts": "suite/captures/../layouts/a.json,/abs/b.json", "gatt": "suite/captures/maps/g.json",
                "company": "0xABCD",
            ])
        // A golden.json in the working directory names its files as they are.
        let here = try GoldenConfig.parse(Array(text.utf8), file: "golden.json")
        #expect(here.decodeOptions["gatt"] == "maps/g.json")
    }

    /// Not timed: exercises the paths a large check takes, at a size where a slow one would show.
    @Test func `a hundred thousand readings: identical, one changed, one dropped, out of order`() {
        let count = 100_000
        let readings = (0..<count).map {
            Sample.envsensor(frame: $0, addr: $0 % 2 == 0 ? "C2:6B:30:F9:0E:C7" : "00:1A:7D:1A:FD:C9")
        }
        let text = ReadingLines(Sample.lines(readings))

        var report = ReadingsDiff.compare(expected: text, actual: text)
        #expect(report.counts.unchanged == count)
        #expect(report.entries == [.unchanged(count: count)])

        var changed = readings
        changed[54_321] = Sample.envsensor(frame: 54_321, temperature: "99.5", addr: "00:1A:7D:1A:FD:C9")
        report = ReadingsDiff.compare(
            expected: text, actual: ReadingLines(Sample.lines(changed)), settings: DiffSettings(alignment: .sequence))
        #expect(report.counts.unchanged == count - 1)
        #expect(report.counts.changed == 1)

        changed.remove(at: 77_777)
        report = ReadingsDiff.compare(expected: text, actual: ReadingLines(Sample.lines(changed)))
        #expect(report.counts.unchanged == count - 2)
        #expect(report.counts.changed == 1)
        #expect(report.counts.missing == 1)
        #expect(report.entries.count == 5)
        #expect(report.entries.first == .unchanged(count: 54_321))

        let shuffled = ReadingLines(Sample.lines(readings.reversed()))
        report = ReadingsDiff.compare(expected: text, actual: shuffled)
        #expect(report.counts.unchanged == count)
    }
}
