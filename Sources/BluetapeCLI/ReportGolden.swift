import Bluetape
import CaptureFiles
import GoldenDiff
import JSON
import Report

/// `report --golden DIR`: each capture's readings compared with `DIR/<capture name>.golden.jsonl`
/// as `golden check` compares them (DIR's golden.json gives the tolerances, ignores and, when the
/// command line gives no decode options, how to decode), turned into what the plots mark.
struct ReportGolden {
    let directory: String
    let config: GoldenConfig

    init(directory: String) throws {
        guard Files.isDirectory(directory) else { throw InputError("\(directory): not a directory of goldens") }
        self.directory = directory
        do {
            config = try GoldenConfig.load(directory: directory) ?? GoldenConfig()
        } catch {
            throw InputError(error.message)
        }
    }

    func goldenPath(for capture: String) -> String {
        let name = capture.split(separator: "/").last.map(String.init) ?? capture
        return (directory.hasSuffix("/") ? directory : directory + "/") + name + GoldenSuite.goldenSuffix
    }

    /// The differences of one capture, or nil (with a warning) when it has no golden in DIR.
    /// `configuration` decodes the capture's readings for the comparison.
    func differences(
        _ capture: String, configuration: DecoderConfiguration, _ context: Context
    ) throws -> [GoldenDifference]? {
        let golden = goldenPath(for: capture)
        guard Files.exists(golden) else {
            context.warn("\(capture): no golden \(golden); nothing is marked against one")
            return nil
        }
        let expected: [UInt8]
        let actual: [UInt8]
        do {
            expected = try Files.read(golden)
        } catch {
            throw InputError(error.message)
        }
        // Compared as far as it was read; damage is reported with the report's own read.
        let opened = try openCapture(capture)
        actual = try readCapture { () throws(CaptureError) in try opened.readingsJSONL(configuration) }
        let report = ReadingsDiff.compare(
            expected: ReadingLines(expected), actual: ReadingLines(actual), settings: config.settings)
        return report.entries.compactMap(Self.difference)
    }

    static func difference(_ entry: DiffEntry) -> GoldenDifference? {
        switch entry {
        case .changed(let change):
            let fields = change.changes.map { c in
                GoldenDifference.Field(
                    name: c.field, expected: c.expected?.double, actual: c.actual?.double,
                    text: "\(c.expected?.jsonText ?? "absent") → \(c.actual?.jsonText ?? "absent")")
            }
            return GoldenDifference(
                kind: .changed, frame: Int(change.actual.frame ?? change.key.frame ?? 0), decoder: change.key.decoder ?? "-",
                address: change.key.address, index: change.key.index.map { Int($0) }, fields: fields)
        case .added(let reading):
            return oneSided(.added, reading)
        case .missing(let reading):
            return oneSided(.missing, reading)
        case .unchanged, .duplicateKey:
            return nil
        }
    }

    static func oneSided(_ kind: GoldenDifference.Kind, _ reading: OneSidedReading) -> GoldenDifference {
        var fields: [GoldenDifference.Field] = []
        for (name, value) in reading.reading["fields"]?.object?.entries ?? [] {
            guard let number = value.double else { continue }
            fields.append(
                GoldenDifference.Field(
                    name: name, expected: kind == .missing ? number : nil, actual: kind == .added ? number : nil,
                    text: value.jsonText))
        }
        return GoldenDifference(
            kind: kind, frame: Int(reading.location.frame ?? reading.key.frame ?? 0), decoder: reading.key.decoder ?? "-",
            address: reading.key.address, index: reading.key.index.map { Int($0) }, fields: fields,
            timestamp: reading.reading["ts"].flatMap(microseconds))
    }

    /// A `ts` as written in readings ("1748772000.123456") in microseconds, without a Double.
    static func microseconds(_ value: JSONValue) -> Int64? {
        guard case .number(let text) = value else { return nil }
        let parts = text.split(separator: ".", maxSplits: 1)
        guard let whole = Int64(parts[0]) else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = String(parts[1].prefix(6))
            guard let f = Int64(digits + String(repeating: "0", count: 6 - digits.count)) else { return nil }
            fraction = f
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        return text.hasPrefix("-") ? scaled - fraction : scaled + fraction
    }
}
