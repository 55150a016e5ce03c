import BluetoothTracking
import CaptureFiles
import CaptureModel
import JSON
import SystemIO
import PcapFiles
import Readings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bluetape capture -o OUT.pcap`: live capture from the Linux Bluetooth monitor.
enum CaptureCommand: Command {
    static let spec = CommandSpec(
        name: "capture",
        abstract: "Capture live HCI traffic of every Bluetooth adapter into a pcap file (Linux).",
        arguments: "-o OUT.pcap [--layout L.json]…",
        discussion: """
            Reads libpcap's bluetooth-monitor interface (the kernel's monitor channel, as btmon does)
            and writes every packet to OUT.pcap (link type 254, Linux monitor) until Ctrl-C or
            SIGTERM. On a terminal, stderr shows how many packets and readings were seen; the
            readings are those 'bluetape decode' would find, with the same decoder options. Needs
            Linux, a Bluetooth adapter, and CAP_NET_RAW or root; without them it says which is
            missing and exits with code 3, writing nothing.
            """,
        options: [.value("output", "OUT.pcap", short: "o", "Where to write the capture.")]
            + DecodeSetup.options(["decoder", "layout", "layouts", "param", "bindkey"]))

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError("capture takes no file; give the output with -o") }
        guard let output = arguments.value("output") else { throw UsageError("say where to write the capture with -o OUT.pcap") }
        guard output.hasSuffix(".pcap") else {
            throw UsageError("capture writes pcap (link type 254): give -o with a name ending in .pcap")
        }
        let setup = try DecodeSetup(arguments)
        let capture: LiveCapture
        do {
            capture = try LiveCapture(output: output)
        } catch {
            throw InputError(error.message)
        }
        let stop = StopSignals.install()
        defer { stop.uninstall() }
        var progress = CaptureProgress(stderr: context.stderr)
        // Readings as 'bluetape decode' would find them, counted for the progress line.
        let tracker = Tracker(options: setup.configuration.tracker)
        let pipeline = ReadingsPipeline(decoders: setup.configuration.decoderSet, options: setup.configuration.pipeline)
        let countReading: (Reading) -> Void = { _ in progress.readings += 1 }
        do {
            try capture.run(until: stop.descriptor) { record in
                progress.packets += 1
                tracker.consume(record) { event in pipeline.consume(event, countReading) }
            } tick: {
                progress.show()
            }
        } catch {
            throw InputError(error.message)
        }
        tracker.finish { event in pipeline.consume(event, countReading) }
        pipeline.finish(countReading)
        progress.show(final: true)
        context.stderr.line("wrote \(progress.packets) packets to \(output)")
        return .success
    }
}

/// The progress line: packets and readings so far, on stderr when it is a terminal, at most four
/// times a second.
struct CaptureProgress {
    let stderr: Output
    var packets = 0
    var readings = 0
    private var shownAt: Int64 = 0

    init(stderr: Output) {
        self.stderr = stderr
    }

    mutating func show(final: Bool = false) {
        guard stderr.isTerminal else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let milliseconds = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        guard final || milliseconds - shownAt >= 250 else { return }
        shownAt = milliseconds
        stderr.write("\r\(packets) packets, \(readings) readings" + (final ? "\n" : ""))
        stderr.flush()
    }
}
