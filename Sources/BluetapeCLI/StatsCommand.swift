import CaptureFiles
import JSON
import Statistics

/// `bluetape stats FILE…`: per device, connection, adapter and decoder, what a capture holds.
enum StatsCommand: Command {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Summarize captures: per device, connection, adapter and decoder.",
        arguments: "[--json] [--layout L.json]… [--gatt MAP.json] FILE…",
        discussion: """
            Per device: adverts by PDU type, advertising interval (median, p5, p95; scan responses
            are not counted in it), RSSI (min, median, max), names, companies, service UUIDs, the
            decoders that matched and when it was first and last seen. Per connection: peer, start,
            end and duration, the connection parameters and their updates, PHY, data length, MTU,
            encryption, ATT PDUs per opcode and per attribute, notification and indication rates,
            attribute value bytes per second each way, request → response latency and ATT errors,
            and the disconnect reason. Per adapter: HCI commands and events, command → Command
            Complete or Status latency. Per decoder: readings, decode errors, and per numeric field
            min, median and max; with --layout rules, how many readings broke each rule.

            Memory stays flat on captures of any size: quantiles are exact up to 512–1024 values
            and within ±0.4% beyond (marked "approximate" in JSON). With --json, one object per
            capture, one per line. --events-only leaves out the readings: nothing is decoded, which
            takes about half the time. Exit code 3 when a capture is damaged (what could be read is
            still summarized).
            """,
        options: [
            .flag("json", "Print one JSON object per capture."),
            .flag("events-only", "Only devices, connections and adapters: decode nothing."),
        ] + CaptureFeed.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no capture file given") }
        let feed = try CaptureFeed(arguments)
        var code = ExitCode.success
        for (index, path) in arguments.positionals.enumerated() {
            let reader: CaptureReader
            do {
                reader = try openReader(path)
            } catch {
                context.error(error.message)
                code = .badInput
                continue
            }
            var events = EventStatistics()
            var readings = ReadingStatistics()
            let (tracked, rules) =
                arguments.has("events-only")
                ? (feed.runEvents(reader) { events.add($0) }, nil)
                : feed.run(reader) { events.add($0) } reading: { r, _ in readings.add(r.reading, packedIn: r.packer, span: r.span) }
            events.finish()
            readings.finish(rules: rules)
            let statistics = CaptureStatistics(
                info: CaptureFeed.info(reader, path: path, records: tracked.records), events: events, readings: readings)
            if arguments.has("json") {
                var writer = JSONWriter(capacity: 1 << 14)
                StatisticsJSON.write(statistics, to: &writer)
                context.stdout.write(writer)
            } else {
                if index > 0 { context.stdout.line("") }
                context.stdout.write(StatisticsText.render(statistics))
            }
            if EventsCommand.reportDamage(reader.problems, path: path, context) != .success { code = .badInput }
        }
        return code
    }
}
