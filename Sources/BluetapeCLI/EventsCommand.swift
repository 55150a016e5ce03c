import BluetoothTracking
import CaptureFiles
import CaptureModel
import EventOutput
import Handoff
import JSON

/// `bluetape events FILE`: the event stream.
enum EventsCommand: Command {
    static let spec = CommandSpec(
        name: "events",
        abstract: "Print the event stream: advertising, connections, ATT with handles resolved to UUIDs.",
        arguments: "[--format jsonl|text] [filters] [--gatt MAP.json] FILE | --join FILE…",
        discussion: """
            One event per line as JSON (the default when output is piped) or btmon-like text (the
            default on a terminal). Filters combine: every one given must match. Handles resolve to
            UUIDs from discovery in the capture, from an earlier connection to the same device, or
            from a GATT map (--gatt, as printed by 'bluetape gatt'); "uuid_from" says which.
            FILE is any capture 'bluetape info' reads ('-' for standard input); --join reads several
            (a rotated btsnoop_hci.log.last, then btsnoop_hci.log) as one session.
            """,
        options: [
            .value("format", "FORMAT", "jsonl or text."),
            .value("gatt", "MAP.json", "A GATT map for handles whose discovery is not in the capture."),
            .flag("stats", "Print how records were used on stderr at the end."),
        ] + CaptureOptions.options + EventFilter.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        let text = try outputFormat(arguments, context)
        var filter = try EventFilter(arguments)
        let options = try trackerOptions(arguments)
        let reader = try openCapture(arguments, context)
        let path = reader.path
        var writer = JSONWriter(capacity: 1 << 17)
        var textWriter = EventText()
        let filtering = !filter.isEmpty
        // Reading and tracking on one thread, formatting and writing on this one.
        let statistics = Handoff.run { emit, cancelled in
            EventStream.read(reader, options: options, stop: cancelled) { event in
                if filtering, !filter.accepts(event) { return }
                emit(event)
            }
        } consume: { event in
            if text {
                textWriter.write(event, to: &writer)
            } else {
                EventJSON.write(event, to: &writer)
            }
            context.stdout.drain(&writer)
            return context.stdout.failure == nil
        }
        context.stdout.write(writer)
        if arguments.has("stats") { printStatistics(statistics, context) }
        return reportDamage(reader, path: path, context)
    }

    static func outputFormat(_ arguments: ParsedArguments, _ context: Context) throws(UsageError) -> Bool {
        switch arguments.value("format") {
        case nil: return context.stdout.isTerminal
        case "text": return true
        case "jsonl", "json": return false
        case let other?: throw UsageError("unknown format '\(other)'; use jsonl or text")
        }
    }

    static func trackerOptions(_ arguments: ParsedArguments) throws(InputError) -> Tracker.Options {
        var options = Tracker.Options()
        if let path = arguments.value("gatt") { options.gattMap = try GATTMapFile.load(path: path) }
        return options
    }

    /// Warns about damaged records; exit code 3 when there were any.
    static func reportDamage(_ reader: CaptureReader, path: String, _ context: Context) -> ExitCode {
        let problems = reader.problems
        guard problems.count > 0 else { return .success }
        for problem in problems.items.prefix(5) { context.warn("\(path): \(problem)") }
        if problems.count > 5 { context.warn("\(path): \(problems.count - 5) more damaged records") }
        return .badInput
    }

    static func printStatistics(_ s: Tracker.Statistics, _ context: Context) {
        var line = "records \(s.records), events \(s.events), diagnostics \(s.diagnostics)"
        if s.skippedRecords > 0 { line += ", records without events \(s.skippedRecords)" }
        if s.emptyDataPDUs > 0 { line += ", empty data PDUs \(s.emptyDataPDUs)" }
        if s.retransmissions > 0 { line += ", retransmissions \(s.retransmissions)" }
        if s.badCRC > 0 { line += ", bad CRC \(s.badCRC)" }
        if s.badMIC > 0 { line += ", bad MIC \(s.badMIC)" }
        if s.encryptedPDUs > 0 { line += ", encrypted PDUs \(s.encryptedPDUs)" }
        context.stderr.line(line)
    }
}

/// `bluetape gatt FILE`: the GATT map learned from a capture.
enum GattCommand: Command {
    static let spec = CommandSpec(
        name: "gatt",
        abstract: "Print the GATT map learned from a capture's discovery, as JSON for --gatt.",
        arguments: "[--gatt MAP.json] FILE",
        discussion: """
            Services, characteristics and descriptors per device address, from discovery in the
            capture. Save it and pass it with --gatt to resolve handles in captures without discovery.
            """,
        options: [.value("gatt", "MAP.json", "Start from this map (its entries are printed too).")])

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 1 else { throw UsageError("give one capture file") }
        let path = arguments.positionals[0]
        let options = try EventsCommand.trackerOptions(arguments)
        let reader = try openCapture(path)
        let tracker = Tracker(options: options)
        while let record = reader.next() { tracker.consume(record) { _ in } }
        tracker.finish { _ in }
        var databases = tracker.learnedDatabases
        for (address, db) in options.gattMap.devices where databases[.device(address)] == nil {
            databases[.device(address)] = db
        }
        context.stdout.write(GATTMapFile.render(databases))
        return EventsCommand.reportDamage(reader, path: path, context)
    }
}
