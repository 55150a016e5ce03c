// Readings compared with readings, as `bluetape diff` and `golden check` do: the input is two
// readings files (JSON lines) separated by the first 0x00 byte, compared under the alignment and
// tolerance byte 0 picks, and reported as text and JSON. The first file is also read as a
// golden.json.

import GoldenDiff
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
    let report = ReadingsDiff.compare(
        expected: ReadingLines(expected), actual: ReadingLines(actual), settings: settings[Int(first) % settings.count])
    blackHole(TextReport(limit: Int(first >> 4)).render(report, expected: "a.jsonl", actual: "b.jsonl"))
    blackHole(JSONReport.render(report, expected: "a.jsonl", actual: "b.jsonl"))
    blackHole(try? GoldenConfig.parse(expected, file: "golden.json"))
    return 0
}
