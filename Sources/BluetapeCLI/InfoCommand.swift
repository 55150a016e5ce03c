import CaptureFiles
import CaptureModel
import JSON

/// `bluetape info FILE…`: what a capture holds, at file level.
enum InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show a capture's format, record counts, time span and damage.",
        arguments: "[--json] FILE|DIR…",
        discussion: """
            Reads btsnoop (1001, 1002, 2001), Apple PacketLogger, pcap and pcapng files; the format is
            found from the file's first bytes. First and last time are the earliest and latest
            timestamps, as capinfos reports them. With --json, one JSON object per file, one per line.
            Damaged or cut records are reported on stderr with frame and byte offset (exit code 3);
            everything before them is still counted.
            """,
        options: [.flag("json", "Print one JSON object per file."), CaptureBatch.option])

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no capture file given") }
        let batch = try CaptureBatch(arguments.positionals)
        let json = arguments.has("json")
        let paths = batch.paths
        return batch.run(jobs: try CaptureBatch.jobs(arguments), context) { path, context in
            let first = path == paths.first
            return info(path, json: json, separated: !first, context)
        }
    }

    private static func info(_ path: String, json: Bool, separated: Bool, _ context: Context) -> ExitCode {
        let summary: CaptureSummary
        do {
            summary = CaptureSummary(reading: try CaptureReader(path: path, formats: captureFormats))
        } catch {
            context.error(error.description)
            return .badInput
        }
        for problem in summary.problems.items { context.warn("\(path): \(problem)") }
        if json {
            context.stdout.write(Self.json(summary))
        } else {
            if separated { context.stdout.line("") }
            context.stdout.write(text(summary))
        }
        return summary.damaged > 0 ? .badInput : .success
    }

    static func json(_ summary: CaptureSummary) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        w.key("file")
        w.string(summary.path)
        w.key("format")
        w.string(summary.format.rawValue)
        w.key("datalink")
        if summary.format == .packetLogger { w.null() } else { w.int(summary.linkType.rawValue) }
        w.key("datalink_name")
        w.string(summary.linkType.name)
        w.key("records")
        w.int(summary.records)
        w.key("first_ts")
        if let first = summary.firstTimestamp { w.timestamp(micros: first) } else { w.null() }
        w.key("last_ts")
        if let last = summary.lastTimestamp { w.timestamp(micros: last) } else { w.null() }
        w.key("duration")
        if let duration = summary.durationMicros { w.timestamp(micros: duration) } else { w.null() }
        w.key("kinds")
        w.beginObject()
        for kind in RecordKind.allCases {
            if let count = summary.kinds[kind] {
                w.key(escaping: kind.name)
                w.int(count)
            }
        }
        w.endObject()
        w.key("adapters")
        w.beginObject()
        for (adapter, count) in summary.adapters.sorted(by: { $0.key < $1.key }) {
            w.key(escaping: String(adapter))
            w.int(count)
        }
        w.endObject()
        w.key("out_of_order")
        w.int(summary.outOfOrder)
        w.key("snapped")
        w.int(summary.snapped)
        w.key("damaged")
        w.int(summary.damaged)
        if !summary.problems.items.isEmpty {
            w.key("problems")
            w.beginArray()
            for problem in summary.problems.items {
                w.beginObject()
                w.key("kind")
                w.string(problem.kind.rawValue)
                w.key("frame")
                w.int(problem.frame)
                w.key("offset")
                w.int(problem.offset)
                w.key("reason")
                w.string(problem.reason)
                if let skipped = problem.skippedBytes {
                    w.key("skipped_bytes")
                    w.int(skipped)
                }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        w.newline()
        return w.bytes
    }

    static func text(_ summary: CaptureSummary) -> String {
        var lines = [summary.path]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: 11 - label.count) + value)
        }
        let datalink =
            summary.format == .packetLogger
            ? "Apple PacketLogger"
            : "\(summary.format.rawValue), datalink \(summary.linkType.rawValue) (\(summary.linkType.name))"
        row("format", datalink)
        let kinds = RecordKind.allCases.compactMap { kind in summary.kinds[kind].map { "\(kind.name) \($0)" } }
        row("records", "\(summary.records)" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"))
        if summary.adapters.count > 1 || summary.adapters.keys.contains(where: { $0 != 0 }) {
            row("adapters", summary.adapters.sorted { $0.key < $1.key }.map { ($0.key == 0xFFFF ? "system" : "hci\($0.key)") + " \($0.value)" }.joined(separator: ", "))
        }
        if let first = summary.firstTimestamp, let last = summary.lastTimestamp, let duration = summary.durationMicros {
            row("first", TimeFormat.utc(micros: first))
            row("last", TimeFormat.utc(micros: last))
            row("duration", TimeFormat.duration(micros: duration))
            if summary.outOfOrder > 0 { row("order", "\(summary.outOfOrder) records earlier than the one before") }
        }
        row("damaged", "\(summary.damaged)" + (summary.snapped > 0 ? ", snapped \(summary.snapped)" : ""))
        return lines.joined(separator: "\n") + "\n"
    }
}
