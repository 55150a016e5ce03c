// Readings compared with readings, as `bluetape diff` and `golden check` do: the input is two
// readings files (JSON lines) separated by the first 0x00 byte, compared under the alignment and
// tolerance byte 0 picks, and reported as text and JSON. The first file is also read as a
// golden.json.
//
// Checked on every input:
// - on every line, the fast scanner (ReadingPrefix) and the full check (ReadingCheck) find the same
//   frame, decoder, addr and index whenever both accept the line, at every depth the scanner is
//   asked for; and the frame used to put lines in order is the full check's whenever it accepts;
// - when every line of the first file is a reading, that file compares clean against itself
//   written the way another JSON tool would (keys in reverse order, a space after each colon and
//   comma): nothing changed, added or missing, and no line refused.

@testable import GoldenDiff
import JSON

private let settings: [DiffSettings] = Alignment.allCases.flatMap { alignment in
    [
        DiffSettings(alignment: alignment),
        DiffSettings(
            alignment: alignment, tolerance: 0.5, fieldTolerances: ["fields.temperature_c": 1e300],
            ignored: ["ts", "addr"]),
    ]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = fuzzBytes(data, size)
    guard let first = input.first else { return 0 }
    let body = input.dropFirst()
    let split = body.firstIndex(of: 0) ?? body.endIndex
    let expected = Array(body[..<split])
    let actual = split < body.endIndex ? Array(body[body.index(after: split)...]) : []
    let chosen = settings[Int(first) % settings.count]
    let expectedLines = ReadingLines(expected)
    let actualLines = ReadingLines(actual)
    let report = ReadingsDiff.compare(expected: expectedLines, actual: actualLines, settings: chosen)
    blackHole(TextReport(limit: Int(first >> 4)).render(report, expected: "a.jsonl", actual: "b.jsonl"))
    blackHole(JSONReport.render(report, expected: "a.jsonl", actual: "b.jsonl"))
    blackHole(try? GoldenConfig.parse(expected, file: "golden.json"))

    for lines in [expectedLines, actualLines] {
        for i in 0..<lines.count { checkAgreement(lines, i) }
    }
    checkRewritten(expectedLines, chosen)
    return 0
}

/// The scanner and the full check agree on line `i` wherever both accept it.
private func checkAgreement(_ lines: ReadingLines, _ i: Int) {
    func text(_ range: Range<Int>?, _ escaped: Bool) -> String? { range.map { lines.string($0, escaped: escaped) } }
    func fail(_ what: String, _ fast: Any?, _ full: Any?) -> Never {
        fuzzFailure(
            "line \(i + 1): the scanner reads \(what) \(String(describing: fast)), "
                + "the full check \(String(describing: full))")
    }
    for requireFrame in [true, false] {
        guard let full = try? ReadingCheck.check(lines.line(i), requireFrame: requireFrame).get().head else { continue }
        let depths: [ReadingPrefix.Depth] =
            [.decoder(requireFrame: requireFrame), .key(requireFrame: requireFrame)] + (requireFrame ? [.frame] : [])
        for depth in depths {
            guard let fast = ReadingPrefix.scan(lines, i, depth) else { continue }
            let whole = if case .key = depth { true } else { false }
            if (whole || fast.frame != nil), fast.frame != full.frame { fail("frame", fast.frame, full.frame) }
            if case .frame = depth { continue }
            let decoder = text(fast.decoder, fast.escaped)
            if decoder != full.decoder { fail("decoder", decoder, full.decoder) }
            guard whole else { continue }
            let address = text(fast.address, fast.escaped)
            if address != full.address { fail("addr", address, full.address) }
            if fast.index != full.index { fail("index", fast.index, full.index) }
        }
        if requireFrame, ReadingPrefix.frame(lines, i) != full.frame {
            fail("the frame to order by", ReadingPrefix.frame(lines, i), full.frame)
        }
    }
}

/// A readings file compares clean against itself rewritten by another JSON tool.
private func checkRewritten(_ lines: ReadingLines, _ settings: DiffSettings) {
    var rewritten: [UInt8] = []
    for i in 0..<lines.count {
        guard case .success(let reading) = ReadingCheck.check(lines.line(i), requireFrame: settings.alignment == .frame)
        else { return }
        let members = reading.object.entries.reversed().map {
            JSONValue.string($0.key).jsonText + ": " + $0.value.jsonText
        }
        rewritten += Array(("{" + members.joined(separator: ", ") + "}\n").utf8)
    }
    let report = ReadingsDiff.compare(expected: lines, actual: ReadingLines(rewritten), settings: settings)
    let counts = report.counts
    if counts.changed + counts.added + counts.missing > 0 || !report.problems.isEmpty {
        fuzzFailure(
            "a file compared with itself rewritten: \(counts.changed) changed, \(counts.added) added, "
                + "\(counts.missing) missing, \(report.problems.count) lines refused: "
                + TextReport().render(report, expected: "original", actual: "rewritten"))
    }
}
