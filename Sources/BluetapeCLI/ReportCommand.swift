import Bluetape
import CaptureFiles
import GoldenDiff
import JSON
import Report
import SystemIO
import Statistics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bluetape report FILE… -o report.html`: one self-contained HTML file to look at.
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Write one self-contained HTML report: stats, timeline and a plot of every reading.",
        arguments: "-o REPORT.html [--layout L.json]… [--golden DIR] FILE…",
        discussion: """
            For each capture: a summary, a timeline of each device's connections with its adverts as
            ticks, one plot per numeric reading field per device over capture time (one line per
            decoder, units on the axis, rule violations of --layout rules and differences from
            --golden marked on the curve; hover shows frame, time and value), RSSI over time per
            device, histograms of advertising and notification intervals, and the tables of
            'bluetape stats'. The file needs nothing else: no network, no script, style or font from
            elsewhere. Plots are downsampled per pixel column, keeping each column's lowest and
            highest value, so every peak is drawn and a capture of millions of records still gives
            a file of a few megabytes.

            --golden DIR compares each capture's readings with DIR/<capture name>.golden.jsonl as
            'bluetape golden check' does (with DIR's golden.json). Exit codes: 0, or 1 when rules
            were broken or readings differ from their goldens (the report is written either way),
            3 when a capture is damaged or unreadable.
            """,
        options: [
            .value("output", "REPORT.html", short: "o", "Write the report to this file ('-' for standard output)."),
            .value("golden", "DIR", "Mark differences from the goldens in DIR."),
        ] + CaptureFeed.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("no capture file given") }
        guard let output = arguments.value("output") else { throw UsageError("report needs -o REPORT.html") }
        var feed = try CaptureFeed(arguments)
        let golden = try arguments.value("golden").map { try ReportGolden(directory: $0) }
        let decodeOptions = ["decoder", "layout", "layouts", "param", "gatt"]
        let decodesAsGoldens = !decodeOptions.contains(where: { arguments.values[$0] != nil })
        if let golden, !golden.config.decodeOptions.isEmpty, decodesAsGoldens {
            // Decoded as the goldens were made, so that what the plots show is what was compared.
            do throws(DecoderConfigurationError) {
                feed = CaptureFeed(configuration: try DecoderConfiguration(goldenOptions: golden.config.decodeOptions))
            } catch {
                let message = "\(golden.directory)/golden.json: \(error.message(command: "report"))"
                if error.isUsage { throw UsageError(message) }
                throw InputError(message)
            }
        }
        let units = feed.units()
        var progress = ProgressLine(stderr: context.stderr)
        var captures: [CaptureReport] = []
        var code = ExitCode.success
        var found = false
        for (index, path) in arguments.positionals.enumerated() {
            let reader: CaptureReader
            do {
                reader = try openReader(path)
            } catch {
                context.error(error.message)
                code = .badInput
                continue
            }
            let differences = try golden.flatMap { try $0.differences(path, configuration: feed.configuration, context) } ?? []
            var eventStatistics = EventStatistics()
            var eventTrack = EventTrack()
            var readingStatistics = ReadingStatistics()
            var readingTrack = ReadingTrack(units: units, golden: differences)
            let label = "report: capture \(index + 1) of \(arguments.positionals.count)"
            var events = 0
            let (tracked, rules) = feed.run(reader) { event in
                eventStatistics.add(event)
                eventTrack.add(event)
                events += 1
                if events & 0xFFF == 0 { progress.show("\(label), \(events) events") }
            } reading: { r, violations in
                readingStatistics.add(r.reading, packedIn: r.packer, span: r.span)
                readingTrack.add(r.reading, packedIn: r.packer, span: r.span, violations: violations)
            }
            eventStatistics.finish()
            eventTrack.finish()
            readingStatistics.finish(rules: rules)
            readingTrack.finish()
            let statistics = CaptureStatistics(
                info: CaptureFeed.info(reader, path: path, records: tracked.records), events: eventStatistics,
                readings: readingStatistics)
            captures.append(CaptureReport(statistics: statistics, events: eventTrack, readings: readingTrack))
            if (rules?.violations ?? 0) > 0 || !differences.isEmpty { found = true }
            if EventsCommand.reportDamage(reader.problems, path: path, context) != .success { code = .badInput }
        }
        progress.show("report: writing \(output)")
        let page = ReportPage.render(
            captures, generated: "bluetape \(CommandLineTool.version) report of \(captures.count) capture\(captures.count == 1 ? "" : "s")")
        progress.clear()
        if output == "-" {
            context.stdout.write(page)
        } else {
            do {
                try Files.writeAtomically(page, to: output)
            } catch {
                throw InputError(error.message)
            }
        }
        if code != .success { return code }
        return found ? .differences : .success
    }
}

/// One line of progress on stderr, rewritten at most four times a second; only on a terminal.
struct ProgressLine {
    let stderr: Output
    private var shownAt: Int64 = 0
    private var shown = false

    init(stderr: Output) { self.stderr = stderr }

    mutating func show(_ text: String) {
        guard stderr.isTerminal else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let milliseconds = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        guard milliseconds - shownAt >= 250 else { return }
        shownAt = milliseconds
        shown = true
        stderr.write("\r\u{1B}[K" + text)
        stderr.flush()
    }

    /// Removes the line, so that what comes after starts on a clean one.
    mutating func clear() {
        guard shown else { return }
        stderr.write("\r\u{1B}[K")
        stderr.flush()
        shown = false
    }
}
