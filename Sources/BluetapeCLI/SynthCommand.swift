import CaptureFiles
import CaptureModel
import Synthesis

/// `bluetape synth SCENARIO.json -o OUT`: a capture made from a scenario.
enum SynthCommand: Command {
    static let spec = CommandSpec(
        name: "synth",
        abstract: "Make a capture from a scenario: advertising, connections, GATT traffic, as an Android phone logs it.",
        arguments: "SCENARIO.json -o OUT.btsnoop|OUT.pcap [--records N]",
        discussion: """
            The scenario lists devices (address, advertising interval and jitter, advertising data
            given as hex or as field values through a decoder's encoder or a layout, value series)
            and connections (GATT table, MTU, subscriptions, notifications, writes and reads, then
            disconnection). The output is the HCI traffic of the phone: advertising reports, LE
            connection set-up, full discovery, ATT fragmented at the controller's buffer size with
            Number of Completed Packets, disconnection. The same scenario and seed give the same
            bytes. Output is btsnoop (datalink 1002, or 2001 with --datalink 2001), or pcap (link type
            201) when the file name ends in .pcap. The format is described in captures/README.md.
            """,
        options: [
            .value("output", "OUT", short: "o", "Where to write the capture."),
            .value("records", "N", "Stop after N records (benchmark captures of a given size)."),
            .value("datalink", "N", "btsnoop datalink: 1002 (H4, default) or 2001 (Linux monitor)."),
        ] + DecodeSetup.options(["param", "bindkey"]))

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 1 else { throw UsageError("give one scenario file") }
        guard let output = arguments.value("output") else { throw UsageError("say where to write the capture with -o OUT") }
        var limit: Int?
        if let text = arguments.value("records") {
            guard let n = Int(text), n > 0 else { throw UsageError("--records takes a positive number") }
            limit = n
        }
        let format: CaptureWriter.Format
        if output.hasSuffix(".pcapng") {
            throw UsageError("pcapng is not written; use .pcap (link type 201) or .btsnoop")
        } else if output.hasSuffix(".pcap") {
            format = .pcap(.h4WithPHDR)
        } else {
            switch arguments.value("datalink") ?? "1002" {
            case "1002": format = .btsnoop(.btsnoopUART)
            case "2001": format = .btsnoop(.btsnoopMonitor)
            case let other: throw UsageError("--datalink is 1002 or 2001, not \(other)")
            }
        }
        let decoders = try DecodeSetup(arguments).allDecoders
        let scenario: Scenario
        do {
            scenario = try Scenario.load(path: arguments.positionals[0], decoders: decoders)
        } catch {
            // A wrong field is the scenario's author's to fix, like a wrong option (exit 2).
            throw error.isUnreadable ? InputError(error.description) as any Error : UsageError(error.description)
        }
        let temporary = output + ".partial"
        do {
            let writer = try CaptureWriter(path: temporary, format: format)
            let count = try Synthesizer(scenario).write(to: writer, limit: limit)
            try writer.finish()
            guard rename(temporary, output) == 0 else { throw InputError("\(output): cannot be written") }
            context.stderr.line("wrote \(count) records to \(output)")
        } catch let error as ScenarioError {
            unlink(temporary)
            throw UsageError(error.description)
        } catch let error as CaptureWriteError {
            unlink(temporary)
            // Name the file asked for, not the temporary one beside it.
            throw InputError("\(output): cannot write (\(error.reason))")
        }
        return .success
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
