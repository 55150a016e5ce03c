import Bluetape
import CaptureFiles
import CaptureModel
import EventOutput
import JSON
import Readings
import Replay

/// `bluetape replay FILE`: the event stream, or the readings, at the pace of the capture.
enum ReplayCommand: Command {
    static let spec = CommandSpec(
        name: "replay",
        abstract: "Replay a capture's events (or readings) at the pace they were recorded, to stdout or a socket.",
        arguments: "[--speed X | --max] [--max-gap S] [--loop] [--decode] [--to unix:PATH|tcp:127.0.0.1:PORT] [filters] FILE",
        discussion: """
            Writes the lines of 'bluetape events' (with --decode, those of 'bluetape decode'), each when
            it is due: at its time in the capture, counted from the first line. --speed 10 plays ten
            times as fast, --max does not wait at all, --max-gap cuts longer silences (in capture
            time, before --speed), --loop starts again at the end (lines keep their frame and ts).
            Each line is flushed as it goes out; with --max, in blocks. The filters of 'bluetape
            events' apply, and with --decode the decoder options of 'bluetape decode'.
            With --to, the lines go to a Unix socket or to TCP on the loopback interface (no other
            address is accepted). The replay starts once --clients clients (default 1) have
            connected; a client that connects later gets the lines from then on. The socket file is
            removed at the end. Ctrl-C (SIGINT) or SIGTERM ends a replay cleanly, with exit code 0.
            """,
        options: [
            .value("speed", "X", "Play X times as fast as recorded (default 1; 0.5 is half speed)."),
            .flag("max", "Do not wait: as fast as the capture can be read."),
            .value("max-gap", "SECONDS", "Cut longer silences to SECONDS (capture time)."),
            .flag("loop", "Start again at the end, until stopped."),
            .flag("decode", "Replay readings instead of events."),
            .value("to", "DEST", "unix:PATH, or tcp:127.0.0.1:PORT (port 0: any free port); default stdout."),
            .value("clients", "N", "With --to: start once N clients have connected (default 1)."),
        ] + DecodeSetup.options + EventFilter.options)

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "no capture file given" : "give one capture file")
        }
        let path = arguments.positionals[0]
        let setup = try DecodeSetup(arguments)
        var options = try replayOptions(arguments)
        options.tracker = setup.configuration.tracker
        let filter = try EventFilter(arguments)
        options.filter = ReplayFilter {
            var filter = filter
            return { filter.accepts($0) }
        }
        let destination = try arguments.value("to").map { text throws(UsageError) in try parseDestination(text) }
        let clientCount = try clients(arguments, serving: destination != nil)
        let capture = try openCapture(path)

        // Signals first: a Ctrl-C while waiting for clients must still remove the socket file.
        let stop = StopSignals.install()
        defer { stop.uninstall() }
        var clients: ClientBroadcast?
        if let destination {
            do {
                clients = ClientBroadcast(listener: try SocketListener(destination))
            } catch {
                throw UsageError(error.message)
            }
        }
        defer { clients?.close() }
        let pacer = ReplayPacer(stop: stop.descriptor, clients: clients)
        if let clients {
            context.stderr.line(
                "waiting for \(clientCount == 1 ? "a client" : "\(clientCount) clients") on \(clients.listener.destination)")
            context.stderr.flush()
            guard pacer.waitForClients(clientCount) else { return .success }
        }

        let lines = ReplayLines(stdout: context.stdout, clients: clients, pacer: pacer, paced: options.speed.isFinite)
        let last: CaptureReader
        do {
            if arguments.has("decode") {
                let configuration = setup.configuration
                let decoding = ReplayDecoding(
                    decoders: configuration.decoderSet, pipeline: configuration.pipeline, keep: configuration.keeps)
                let source = ReadingSource(tracker: options.tracker, decoding: decoding)
                var json = ReadingJSON.Context()
                last = try lines.play(ReplayRun(capture: capture, source: source, options: options)) {
                    ReadingJSON.write($0, to: &$1, context: &json)
                }
            } else {
                let source = EventSource(tracker: options.tracker)
                last = try lines.play(ReplayRun(capture: capture, source: source, options: options)) {
                    EventJSON.write($0, to: &$1)
                }
            }
        } catch {
            throw InputError(error.description)
        }
        return EventsCommand.reportDamage(last.problems, path: path, context)
    }

    static func replayOptions(_ arguments: ParsedArguments) throws(UsageError) -> ReplayOptions {
        var options = ReplayOptions(formats: captureFormats)
        if arguments.has("max") {
            guard arguments.value("speed") == nil else { throw UsageError("give --speed or --max, not both") }
            options.speed = .infinity
        } else if let text = arguments.value("speed") {
            guard let speed = Double(text), speed > 0, speed.isFinite else {
                throw UsageError("--speed takes a number above zero, such as 10 or 0.5, not '\(text)'")
            }
            options.speed = speed
        }
        if let text = arguments.value("max-gap") {
            guard let seconds = Double(text), seconds >= 0, seconds < 1e9 else {
                throw UsageError("--max-gap takes seconds (0 or more), not '\(text)'")
            }
            options.maxGap = .microseconds(Int64((seconds * 1_000_000).rounded()))
        }
        options.passes = arguments.has("loop") ? nil : 1
        return options
    }

    static func parseDestination(_ text: String) throws(UsageError) -> ReplayDestination {
        do {
            return try ReplayDestination.parse(text)
        } catch {
            throw UsageError(error.message)
        }
    }

    static func clients(_ arguments: ParsedArguments, serving: Bool) throws(UsageError) -> Int {
        guard let text = arguments.value("clients") else { return 1 }
        guard serving else { throw UsageError("--clients goes with --to") }
        guard let count = Int(text), count >= 1 else { throw UsageError("--clients takes a number of 1 or more, not '\(text)'") }
        return count
    }
}
