import BluetoothTracking
import CaptureFiles
import CaptureModel
import JSON
import Readings

/// `bluetape decode FILE`: readings from the payloads in a capture.
enum DecodeCommand: Command {
    static let spec = CommandSpec(
        name: "decode",
        abstract: "Decode the payloads in a capture into readings with named, typed values.",
        arguments: "[--format jsonl|text|csv] [--decoder IDS] [--layout L.json]… [filters] FILE | --join FILE…",
        discussion: """
            Runs the built-in decoders (and any layouts given) over advertising data and attribute
            values. One reading per decoded payload: frame, ts, addr, decoder, source, uuid or
            company, and fields (or error, with reason, byte offset and field, when a payload the
            decoder claims does not decode). Readings of a device repeating the same value (EnvSensor's
            nonce, a layout's dedup key) are one reading with "repeats"; --all-repeats lists each.
            --all also lists the payloads no decoder matched. The event filters of 'bluetape events'
            apply. CSV is in long form: one row per field.
            """,
        options: [
            .value("format", "FORMAT", "jsonl (default when piped), text (default on a terminal) or csv."),
            .flag("all", "Also list payloads no decoder matched."),
            .flag("all-repeats", "List every copy of a repeated reading."),
        ] + DecodeSetup.options + CaptureOptions.options + EventFilter.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        let format: String
        switch arguments.value("format") {
        case nil: format = context.stdout.isTerminal ? "text" : "jsonl"
        case let f? where ["jsonl", "json", "text", "csv"].contains(f): format = f
        case let f?: throw UsageError("unknown format '\(f)'; use jsonl, text or csv")
        }
        let filter = try EventFilter(arguments)
        let setup = try DecodeSetup(arguments)
        let reader = try openCapture(arguments, context)
        let path = reader.path
        var writer = JSONWriter(capacity: 1 << 17)
        if format == "csv" { writer.raw(string: ReadingCSV.header) }
        let stop = { context.stdout.failure != nil }
        setup.run(reader, filter: filter.isEmpty ? nil : filter, concurrently: true, stop: stop) { reading in
            switch format {
            case "text": ReadingText.write(reading, to: &writer)
            case "csv": ReadingCSV.write(reading, to: &writer)
            default: ReadingJSON.write(reading, to: &writer)
            }
            context.stdout.drain(&writer)
        }
        context.stdout.write(writer)
        return EventsCommand.reportDamage(reader, path: path, context)
    }
}

/// `bluetape decoders`: what can be decoded.
enum DecodersCommand: Command {
    static let spec = CommandSpec(
        name: "decoders",
        abstract: "List the decoders: each id, what it matches, its fields and units.",
        arguments: "[--layout L.json]… [--json]",
        discussion: "Built-in decoders first, then the layouts given with --layout or --layouts.",
        options: [.flag("json", "One JSON object per decoder.")] + DecodeSetup.options.filter {
            ["layout", "layouts", "param", "envsensor-company"].contains($0.name)
        })

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
                context.stdout.write(text + "\n")
            }
        }
        return .success
    }
}
