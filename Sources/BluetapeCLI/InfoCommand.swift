import CaptureFiles
import CaptureModel
import JSON

/// `bluetape info FILE…`: what a capture holds, at file level.
enum InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show a capture's format, record counts, time span and damage.",
        arguments: "[--json] FILE|DIR… | --join FILE…",
        discussion: """
            Reads btsnoop (1001, 1002, 2001), Apple PacketLogger, pcap and pcapng files; the format is
            found from the file's first bytes. First and last time are the earliest and latest
            timestamps, as capinfos reports them. With --json, one JSON object per file, one per line.
            Damaged or cut records are reported on stderr with frame and byte offset (exit code 3);
            everything before them is still counted. Also reads gzip'd captures, Android bug reports
            (zip) and their text, btsnooz files, iOS sysdiagnose archives (tar.gz) and directories
            holding a rotated pair; '-' is standard input. For those it lists the Bluetooth logs found
            and which were read. --join reads the files given as one session and shows the gap
            between them.
            """,
        options: [.flag("json", "Print one JSON object per file."), CaptureBatch.option] + CaptureOptions.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no capture file given") }
        let json = arguments.has("json")
        if try CaptureOptions.joins(arguments) {
            return info(try CaptureOptions.request(arguments.positionals, arguments), json: json, separated: false, context)
        }
        let batch = try CaptureBatch(arguments.positionals)
        let member = arguments.value("member")
        let paths = batch.paths
        return batch.run(jobs: try CaptureBatch.jobs(arguments), context) { path, context in
            let first = path == paths.first
            return info(CaptureRequest(paths: [path], member: member), json: json, separated: !first, context)
        }
    }

    private static func info(_ request: CaptureRequest, json: Bool, separated: Bool, _ context: Context) -> ExitCode {
        var request = request
        // info lists every Bluetooth log an archive holds, not only the one read.
        request.listsWholeArchive = true
        let summary: CaptureSummary
        do {
            summary = CaptureSummary(reading: try CaptureReader(request, formats: captureFormats))
        } catch {
            context.error(error.description)
            return error.isUsageError ? .usage : .badInput
        }
        let path = summary.path
        for note in summary.contents.notes { context.warn("\(path): \(note)") }
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
        w.key("truncated")
        w.int(summary.snapped)
        w.key("damaged")
        w.int(summary.damaged)
        contentsJSON(summary.contents, &w)
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
        row("damaged", "\(summary.damaged)" + (summary.snapped > 0 ? ", truncated \(summary.snapped)" : ""))
        contentsText(summary.contents, row)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where the records came from: archive layers, the logs found and read, joined parts.
    static func contentsJSON(_ contents: CaptureContents, _ w: inout JSONWriter) {
        if !contents.containers.isEmpty {
            w.key("containers")
            w.beginArray()
            for container in contents.containers { w.string(container) }
            w.endArray()
        }
        if let count = contents.memberCount {
            w.key("members")
            w.int(count)
        }
        if !contents.found.isEmpty {
            w.key("found")
            w.beginArray()
            for log in contents.found {
                w.beginObject()
                w.key("name")
                w.string(log.name)
                if let size = log.size {
                    w.key("size")
                    w.int(size)
                }
                w.key("kind")
                w.string(log.kind)
                w.endObject()
            }
            w.endArray()
        }
        if !contents.read.isEmpty {
            w.key("read")
            w.beginArray()
            for name in contents.read { w.string(name) }
            w.endArray()
        }
        if !contents.parts.isEmpty {
            w.key("joined")
            w.beginArray()
            for part in contents.parts {
                w.beginObject()
                w.key("file")
                w.string(part.name)
                w.key("records")
                w.int(part.records)
                w.key("first_ts")
                if let first = part.firstTimestamp { w.timestamp(micros: first) } else { w.null() }
                w.key("last_ts")
                if let last = part.lastTimestamp { w.timestamp(micros: last) } else { w.null() }
                if let gap = part.gapBefore {
                    w.key("gap")
                    w.timestamp(micros: gap)
                }
                if let controller = part.controller {
                    w.key("controller")
                    w.string(controller)
                }
                w.endObject()
            }
            w.endArray()
        }
        if contents.relativeTimes {
            w.key("times")
            w.string("relative")
        }
        if !contents.notes.isEmpty {
            w.key("notes")
            w.beginArray()
            for note in contents.notes { w.string(note) }
            w.endArray()
        }
    }

    static func contentsText(_ contents: CaptureContents, _ row: (String, String) -> Void) {
        if !contents.containers.isEmpty {
            let layers = contents.containers.reversed().joined(separator: " in ")
            row("archive", layers + (contents.memberCount.map { ", \($0) members" } ?? ""))
        }
        for (index, log) in contents.found.enumerated() {
            row(index == 0 ? "found" : "", log.name + " (" + (log.size.map { "\($0) bytes, " } ?? "") + log.kind + ")")
        }
        for (index, name) in contents.read.enumerated() where contents.parts.isEmpty {
            row(index == 0 ? "read" : "", name)
        }
        for (index, part) in contents.parts.enumerated() {
            var text = "\(part.name): \(part.records) records"
            if let first = part.firstTimestamp, let last = part.lastTimestamp {
                text += ", " + TimeFormat.utc(micros: first) + " – " + TimeFormat.utc(micros: last)
            }
            if let gap = part.gapBefore { text += "; " + (gap < 0 ? "overlaps by " : "gap ") + TimeFormat.duration(micros: abs(gap)) }
            row(index == 0 ? "joined" : "", text)
        }
        if contents.relativeTimes { row("times", "relative: the format holds no clock, times count from the first record") }
    }
}
