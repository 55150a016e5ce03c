import Bluetape
import BluetoothTracking
import CaptureFiles
import ByteReading
import CaptureModel
import Handoff
import JSON
import Readings

/// `bluetape decode FILE`: readings from the payloads in a capture.
enum DecodeCommand: Command {
    static let spec = CommandSpec(
        name: "decode",
        abstract: "Decode the payloads in a capture into readings with named, typed values.",
        arguments: "[--format jsonl|text|csv] [--decoder IDS] [--layout L.json]… [filters] FILE|DIR… | --join FILE…",
        discussion: """
            Runs the built-in decoders (and any layouts given) over advertising data and attribute
            values. One reading per decoded payload: frame, ts, addr, decoder, source, uuid or
            company, and fields (or error, with reason, byte offset and field, when a payload the
            decoder claims does not decode). Readings of a device repeating the same value (a decoder's
            dedup key, such as a nonce) are one reading with "repeats"; --all-repeats lists each.
            --all also lists the payloads no decoder matched. The event filters of 'bluetape events'
            apply. CSV is in long form: one row per field. Several captures (or a directory of them)
            are read --jobs at a time; each line then names its capture ("capture"), and output
            stays in the order given. FILE is any input 'bluetape info' reads ('-' for standard
            input); --join reads several (a rotated btsnoop_hci.log.last, then btsnoop_hci.log) as
            one session.
            """,
        options: [
            .value("format", "FORMAT", "jsonl (default when piped), text (default on a terminal) or csv."),
            .flag("all", "Also list payloads no decoder matched."),
            .flag("all-repeats", "List every copy of a repeated reading."),
            CaptureBatch.option,
        ] + DecodeSetup.options + CaptureOptions.options + EventFilter.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no capture file given") }
        let format: String
        switch arguments.value("format") {
        case nil: format = context.stdout.isTerminal ? "text" : "jsonl"
        case let f? where ["jsonl", "json", "text", "csv"].contains(f): format = f
        case let f?: throw UsageError("unknown format '\(f)'; use jsonl, text or csv")
        }
        let filter = try EventFilter(arguments)
        let setup = try DecodeSetup(arguments)
        if try CaptureOptions.joins(arguments) {
            let request = try CaptureOptions.request(arguments.positionals, arguments)
            return try decode(request, format, filter, setup, label: false, context)
        }
        let batch = try CaptureBatch(arguments.positionals)
        let member = arguments.value("member")
        let jobs = try CaptureBatch.jobs(arguments)
        if !batch.labelled {
            return try StageThreads.holdingBack(jobs == 1) {
                try decode(CaptureRequest(paths: batch.paths, member: member), format, filter, setup, label: false, context)
            }
        }
        if format == "csv" { context.stdout.write("capture," + ReadingCSV.header) }
        return batch.run(jobs: jobs, context) { path, context in
            do {
                return try decode(CaptureRequest(paths: [path], member: member), format, filter, setup, label: true, context)
            } catch {
                context.error(message(of: error))
                return .badInput
            }
        }
    }

    /// One capture's readings; `label`: each line names the capture (`"capture": PATH`).
    private static func decode(
        _ request: CaptureRequest, _ format: String, _ filter: EventFilter, _ setup: DecodeSetup, label: Bool,
        _ context: Context
    ) throws -> ExitCode {
        let capture = try openCapture(request, context)
        let path = capture.path
        var writer = JSONWriter(capacity: 1 << 17)
        let column = label ? ReadingCSV.quote(path) + "," : ""
        if format == "csv", !label { writer.raw(string: ReadingCSV.header) }
        if format == "text", label { writer.raw(string: "== \(PrintableText.escape(path))\n") }
        try readCapture { () throws(CaptureError) in
            if format == "text" || format == "csv" {
                try capture.forEachReading(setup.configuration, filter: filter, concurrently: true) { reading in
                    if format == "text" {
                        ReadingText.write(reading, to: &writer)
                    } else {
                        ReadingCSV.write(reading, to: &writer, leading: column)
                    }
                    context.stdout.drain(&writer)
                    return context.stdout.failure == nil
                }
                return
            }
            let member = label ? JSONWriter.member("capture", path) : nil
            try capture.writeReadingsJSONL(setup.configuration, filter: filter, leading: member) { json in
                context.stdout.write(json)
                return context.stdout.failure == nil
            }
        }
        context.stdout.write(writer)
        return EventsCommand.reportDamage(capture.problems, path: path, context)
    }
}

/// `bluetape decoders`: what can be decoded.
enum DecodersCommand: Command {
    static let spec = CommandSpec(
        name: "decoders",
        abstract: "List the decoders: each id, what it matches, its fields and units.",
        arguments: "[--layout L.json]… [--json]",
        discussion: "Built-in decoders first, then the layouts given with --layout or --layouts.",
        options: [.flag("json", "One JSON object per decoder.")] + DecodeSetup.options(["layout", "layouts", "param"]))

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        let setup = try DecodeSetup(arguments)
        for decoder in setup.allDecoders {
            if arguments.has("json") {
                var w = JSONWriter(capacity: 512)
                w.beginObject()
                w.key("id")
                w.string(decoder.id)
                w.key("summary")
                w.string(decoder.summary)
                w.key("matches")
                w.beginArray()
                for key in decoder.matches { w.string(key.description) }
                w.endArray()
                w.key("fields")
                w.beginArray()
                for field in decoder.fields {
                    w.beginObject()
                    w.key("name")
                    w.string(field.name)
                    if let unit = field.unit {
                        w.key("unit")
                        w.string(unit)
                    }
                    w.key("summary")
                    w.string(field.summary)
                    w.endObject()
                }
                w.endArray()
                if !decoder.parameters.isEmpty {
                    w.key("parameters")
                    w.beginArray()
                    for parameter in decoder.parameters {
                        w.beginObject()
                        w.key("name")
                        w.string(parameter.name)
                        w.key("type")
                        w.string(parameter.kind.rawValue)
                        w.key("default")
                        if let value = parameter.defaultValue { w.string(value) } else { w.null() }
                        w.key("value")
                        if let value = parameter.value { w.string(value) } else { w.null() }
                        w.key("summary")
                        w.string(parameter.summary)
                        w.endObject()
                    }
                    w.endArray()
                }
                if let dedup = decoder.dedupKey {
                    w.key("dedup")
                    w.beginArray()
                    for name in dedup { w.string(name) }
                    w.endArray()
                }
                w.endObject()
                w.newline()
                context.stdout.write(w.bytes)
            } else {
                var text = "\(decoder.id)\n    \(decoder.summary)\n"
                text += "    matches: \(decoder.matches.map(\.description).joined(separator: "; "))\n"
                for field in decoder.fields {
                    let name = field.name + (field.unit.map { " [\($0)]" } ?? "")
                    text += "    \(name)\(String(repeating: " ", count: max(2, 30 - name.count)))\(field.summary)\n"
                }
                for parameter in decoder.parameters {
                    let value = parameter.value.map { " = \($0)" } ?? " (no default: give it with --param)"
                    text += "    --param \(decoder.id).\(parameter.name)\(value): \(parameter.summary)\n"
                }
                if let dedup = decoder.dedupKey {
                    text += "    repeats: one reading per \(dedup.joined(separator: ", ")) value\n"
                }
                context.stdout.write(text + "\n")
            }
        }
        return .success
    }
}
