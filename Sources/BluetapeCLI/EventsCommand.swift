import Bluetape
import BluetoothTracking
import CaptureFiles
import ByteReading
import CaptureModel
import EventOutput
import Handoff
import JSON

/// `bluetape events FILE`: the event stream.
enum EventsCommand: Command {
    static let spec = CommandSpec(
        name: "events",
        abstract: "Print the event stream: advertising, connections, ATT with handles resolved to UUIDs.",
        arguments: "[--format jsonl|text] [filters] [--gatt MAP.json] FILE|DIR… | --join FILE…",
        discussion: """
            One event per line as JSON (the default when output is piped) or btmon-like text (the
            default on a terminal). Filters combine: every one given must match. Handles resolve to
            UUIDs from discovery in the capture, from an earlier connection to the same device, or
            from a GATT map (--gatt, as printed by 'bluetape gatt'); "uuid_from" says which.
            Several captures (or a directory of them) are read --jobs at a time; each line then
            names its capture ("capture"), and output stays in the order given. FILE is any input
            'bluetape info' reads ('-' for standard input); --join reads several (a rotated
            btsnoop_hci.log.last, then btsnoop_hci.log) as one session.
            """,
        options: [
            .value("format", "FORMAT", "jsonl or text."),
            .value("gatt", "MAP.json", "A GATT map for handles whose discovery is not in the capture."),
            .flag("stats", "Print how records were used on stderr at the end."),
            .value(
                "time", "MODE",
                "Text's time column: relative (seconds since the first record; the default), absolute (UTC) or delta."),
            CaptureBatch.option,
        ] + CaptureOptions.options + EventFilter.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no capture file given") }
        let text = try outputFormat(arguments, context)
        let filter = try EventFilter(arguments)
        let options = try trackerOptions(arguments)
        let statistics = arguments.has("stats")
        let mode = try timeMode(arguments)
        if try CaptureOptions.joins(arguments) {
            let request = try CaptureOptions.request(arguments.positionals, arguments)
            return try events(request, text, filter, options, label: false, statistics: statistics, timeMode: mode, context)
        }
        let batch = try CaptureBatch(arguments.positionals)
        let member = arguments.value("member")
        let jobs = try CaptureBatch.jobs(arguments)
        if !batch.labelled {
            return try StageThreads.holdingBack(jobs == 1) {
                try events(
                    CaptureRequest(paths: batch.paths, member: member), text, filter, options, label: false,
                    statistics: statistics, timeMode: mode, context)
            }
        }
        return batch.run(jobs: jobs, context) { path, context in
            do {
                return try events(
                    CaptureRequest(paths: [path], member: member), text, filter, options, label: true,
                    statistics: statistics, timeMode: mode, context)
            } catch {
                context.error(message(of: error))
                return .badInput
            }
        }
    }

    /// One capture's events; `label`: each line names the capture (`"capture": PATH`).
    private static func events(
        _ request: CaptureRequest, _ text: Bool, _ filter: EventFilter, _ options: Tracker.Options, label: Bool,
        statistics: Bool, timeMode: EventText.TimeMode, _ context: Context
    ) throws -> ExitCode {
        let capture = try openCapture(request, context)
        let path = capture.path
        var writer = JSONWriter(capacity: 1 << 17)
        var textWriter = EventText(mode: timeMode)
        let base = TimeBase()
        let member = JSONWriter.member("capture", path)
        let adverts = EventJSONCache()
        if text, label { writer.raw(string: "== \(PrintableText.escape(path))\n") }
        // Reading and tracking on one thread, formatting and writing on this one.
        let counts = try readCapture { () throws(CaptureError) in
            try capture.forEachEvent(filter: filter, tracker: options, concurrently: true, timeBase: base) { event in
                if text {
                    if textWriter.timeBase == nil { textWriter.timeBase = base.value }
                    textWriter.write(event, to: &writer)
                } else {
                    let start = writer.count
                    EventJSON.write(event, to: &writer, cache: adverts)
                    if label { writer.insert(member, at: start + 1) }
                }
                // Whether output failed can change only when the writer is drained.
                guard context.stdout.drain(&writer) else { return true }
                return context.stdout.failure == nil
            }
        }
        context.stdout.write(writer)
        if statistics { printStatistics(counts, context) }
        return reportDamage(capture.problems, path: path, context)
    }

    static func timeMode(_ arguments: ParsedArguments) throws(UsageError) -> EventText.TimeMode {
        guard let text = arguments.value("time") else { return .relative }
        guard let mode = EventText.TimeMode(rawValue: text) else {
            throw UsageError("--time is relative, absolute or delta, not '\(text)' (bluetape events --time absolute …)")
        }
        return mode
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
        if let path = arguments.value("gatt") { options.gattMap = try loadGATTMap(path) }
        return options
    }

    /// Warns about damaged records; exit code 3 when there were any.
    static func reportDamage(_ problems: ProblemLog, path: String, _ context: Context) -> ExitCode {
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
        let capture = try openCapture(path)
        let reader = try readCapture { () throws(CaptureError) in try capture.openReader() }
        let tracker = Tracker(options: options)
        tracker.consumeAll({ reader.next() }) { _ in }
        tracker.finish { _ in }
        var databases = tracker.learnedDatabases
        for (address, db) in options.gattMap.devices where databases[.device(address)] == nil {
            databases[.device(address)] = db
        }
        context.stdout.write(GATTMapFile.render(databases))
        return EventsCommand.reportDamage(reader.problems, path: path, context)
    }
}
