import GoldenDiff
import JSON
import SystemIO

/// A `bluetape` subcommand.
protocol Command {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode
}

/// What a command runs with: its outputs and environment, injectable for in-process tests.
struct Context: Sendable {
    var stdout: Output
    var stderr: Output
    var environment: [String: String]
    /// How `diff` and `golden` turn a capture into readings (tests give a stand-in).
    var decodeCapture: CaptureDecoder

    func warn(_ message: String) { stderr.line("warning: \(message)") }
    func error(_ message: String) { stderr.line("error: \(message)") }
}

/// The whole command-line tool as a function, so tests can run it in-process.
public enum CommandLineTool {
    public static let version = "0.1.0"

    static var commands: [any Command.Type] { [
        InfoCommand.self,
        EventsCommand.self,
        GattCommand.self,
        DecodeCommand.self,
        DecodersCommand.self,
        PayloadCommand.self,
        CheckCommand.self,
        SynthCommand.self,
        ReplayCommand.self,
        CaptureCommand.self,
        DiffCommand.self,
        GoldenCommand.self,
        LayoutCommand.self,
    ] }

    static var overview: String {
        var text = """
            bluetape \(version): capture-and-replay toolkit for Bluetooth Low Energy.

            usage: bluetape <command> [options] FILE…

            commands:

            """
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 2
        for command in commands {
            let name = command.spec.name
            text += "  \(name)\(String(repeating: " ", count: width - name.count))\(command.spec.abstract)\n"
        }
        text += "\n'bluetape help <command>' or 'bluetape <command> --help' describes a command.\n"
        text += "Exit codes: 0 success, 1 differences or violations, 2 usage error, 3 unreadable input.\n"
        return text
    }

    public static func run(
        _ arguments: [String], stdout: Output = .standardOutput, stderr: Output = .standardError,
        environment: [String: String] = [:], decodeCapture: @escaping CaptureDecoder = builtInDecoding
    ) -> Int32 {
        let context = Context(stdout: stdout, stderr: stderr, environment: environment, decodeCapture: decodeCapture)
        defer {
            stdout.flush()
            stderr.flush()
        }
        guard let first = arguments.first else {
            stderr.write(overview)
            return ExitCode.usage.rawValue
        }
        switch first {
        case "--version", "version":
            stdout.line("bluetape \(version)")
            return ExitCode.success.rawValue
        case "--help", "-h":
            stdout.write(overview)
            return ExitCode.success.rawValue
        case "help":
            guard let topic = arguments.dropFirst().first else {
                stdout.write(overview)
                return ExitCode.success.rawValue
            }
            guard let command = command(named: topic) else {
                stderr.line("error: no command named '\(topic)'")
                stderr.write(overview)
                return ExitCode.usage.rawValue
            }
            stdout.write(command.spec.help)
            return ExitCode.success.rawValue
        default:
            break
        }
        guard let command = command(named: first) else {
            stderr.line("error: unknown command '\(first)'")
            stderr.write(overview)
            return ExitCode.usage.rawValue
        }
        do {
            let parsed = try command.spec.parse(Array(arguments.dropFirst()))
            if parsed.has("help") {
                stdout.write(command.spec.help)
                return ExitCode.success.rawValue
            }
            let code = try command.run(parsed, context)
            stdout.flush()
            if stdout.readerClosed { return code.rawValue }
            if let failure = stdout.failure {
                stderr.line("error: cannot write output (\(failure))")
                return ExitCode.badInput.rawValue
            }
            return code.rawValue
        } catch let error as UsageError {
            stderr.line("error: \(error.message)")
            stderr.line(command.spec.usageLine)
            return ExitCode.usage.rawValue
        } catch let error as InputError {
            stderr.line("error: \(error.message)")
            return ExitCode.badInput.rawValue
        } catch {
            stderr.line("error: \(error)")
            return ExitCode.badInput.rawValue
        }
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }
}
