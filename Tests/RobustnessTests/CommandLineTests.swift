import BluetapeCLI
import CaptureFiles
import CaptureModel
import Foundation
import JSON
import SystemIO
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the tool in-process: (exit code, stdout, stderr, seconds taken).
func run(_ arguments: [String], environment: [String: String] = [:]) -> (code: Int32, out: String, err: String) {
    let out = Output()
    let err = Output()
    let code = CommandLineTool.run(arguments, stdout: out, stderr: err, environment: environment)
    return (code, out.text, err.text)
}

/// The lines of stderr that report an error.
func errorLines(_ stderr: String) -> [Substring] {
    stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
}

/// Inputs a command can be given instead of a good file.
enum BadInput: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case missing, directory, devZero, fifo, unreadable, notJSONOrCapture

    var testDescription: String { rawValue }
}

/// A scratch directory with one of each bad input and a few good files.
final class Scratch: Sendable {
    let directory = TestPaths.temporaryDirectory()
    var capture: String { directory + "/good.btsnoop" }
    var layout: String { TestPaths.packageRoot + "/layouts/envsensor.json" }
    var scenario: String { TestPaths.captures + "/envsensor.scenario.json" }
    var readings: String { TestPaths.captures + "/envsensor.btsnoop.golden.jsonl" }

    init() {
        TestPaths.writeFile(
            capture, (try? CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 4))) ?? []
        )
        mkdir(directory + "/dir", 0o755)
        mkfifo(directory + "/fifo", 0o644)
        TestPaths.writeFile(directory + "/unreadable", Array("{}".utf8))
        chmod(directory + "/unreadable", 0)
        TestPaths.writeFile(directory + "/text", Array("hello, this is neither JSON nor a capture\n".utf8))
    }

    func path(_ input: BadInput) -> String {
        switch input {
        case .missing: directory + "/missing.json"
        case .directory: directory + "/dir"
        case .devZero: "/dev/zero"
        case .fifo: directory + "/fifo"
        case .unreadable: directory + "/unreadable"
        case .notJSONOrCapture: directory + "/text"
        }
    }
}

/// Keeps a FIFO open for writing while `body` runs, so that opening it for reading never blocks;
/// after `seconds` the write end is closed, so a reader stuck on it sees the end and the test
/// fails on time instead of hanging.
func withFIFOWriter<T>(_ path: String, seconds: UInt32 = 5, _ body: () -> T) -> T {
    let fd = open(path, O_RDWR | O_NONBLOCK)
    let state = Mutex<Int32>(fd)
    let watchdog = Thread {
        sleep(seconds)
        state.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }
    watchdog.start()
    defer {
        state.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }
    return body()
}

/// A detached pthread running a closure (no Foundation).
final class Thread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &thread, nil,
            { raw in
                let me = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
                me.body()
                return nil
            }, context)
        pthread_detach(thread)
    }
}

let runningAsRoot = geteuid() == 0

struct CommandLineUsageTests {
    /// The commands, as `bluetape help` lists them.
    static let commands: [String] = {
        let (_, out, _) = run(["help"])
        guard let start = out.range(of: "commands:\n") else { return [] }
        return out[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }.map {
            String($0.split(separator: " ")[0])
        }
    }()

    @Test func `help lists every command`() {
        #expect(
            Self.commands == [
                "info", "events", "gatt", "decode", "decoders", "payload", "check", "synth", "replay", "capture", "diff",
                "golden", "layout",
            ])
    }

    @Test(arguments: commands)
    func `an unknown option is one error line and exit code 2`(command: String) {
        let result = run([command, "--no-such-option", "x"])
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(errorLines(result.err) == ["error: unknown option '--no-such-option' for 'bluetape \(command)'"])
        #expect(result.err.split(separator: "\n").last?.hasPrefix("usage: bluetape \(command)") == true)
    }

    /// The options a command's help lists: long name, and whether it takes a value.
    static func options(_ command: String) -> [(name: String, takesValue: Bool)] {
        run(["help", command]).out.split(separator: "\n").compactMap { line in
            // "  -o, --output OUT  Write…": the label ends where two spaces start the option's help.
            let entry = line.drop { $0 == " " }
            guard entry.hasPrefix("-"), let gap = entry.range(of: "  ") else { return nil }
            let label = entry[..<gap.lowerBound].split(separator: " ")
            guard let long = label.first(where: { $0.hasPrefix("--") }), long != "--help" else { return nil }
            return (String(long), label.last.map { !$0.hasPrefix("-") } ?? false)
        }
    }

    @Test(arguments: commands)
    func `an option without its value, or a flag given one, is one error line and exit code 2`(command: String) {
        let options = Self.options(command)
        #expect(!options.isEmpty)
        for option in options {
            let arguments = option.takesValue ? [command, option.name] : [command, option.name + "=x"]
            let result = run(arguments)
            #expect(result.code == 2, "\(arguments)")
            let message = option.takesValue ? "needs a value" : "takes no value"
            #expect(
                errorLines(result.err).count == 1
                    && errorLines(result.err)[0].hasPrefix("error: option '\(option.name)' \(message)"),
                "\(arguments): \(result.err)")
        }
    }

    @Test func `an unknown command is one error line and exit code 2`() {
        let result = run(["frobnicate"])
        #expect(result.code == 2)
        #expect(errorLines(result.err) == ["error: unknown command 'frobnicate'"])
    }

    @Test(arguments: [
        "nan", "inf", "-inf", "1e300", "-1e300", "99999999999-01-01", "2024-13-01", "2024-01-32",
        "2024-01-01T24:00", "2024-01-01T99999999999999999:00", "2024-01-01T10:60", "2024-01-01T10:00:1e300",
    ])
    func `a time filter outside the calendar is a usage error`(time: String) throws {
        let scratch = Scratch()
        for option in ["--since", "--until"] {
            let result = run(["events", option, time, scratch.capture])
            #expect(result.code == 2, "\(option) \(time)")
            #expect(
                errorLines(result.err) == [
                    "error: '\(time)' is not a time: give seconds from the start of the capture (12.5) or an ISO time "
                        + "(2024-03-15T09:30:01Z, 2025-10-04T08:15:20+02:00)"
                ])
        }
    }

    @Test func `time filters inside the calendar still work`() throws {
        let scratch = Scratch()
        // The sample records start at 2024-03-15 09:30:01.151075 UTC, 1.25 ms apart.
        #expect(
            run(["events", "--since", "2024-03-15T09:30:01.153Z", scratch.capture]).out.split(separator: "\n").count
                == 2)
        #expect(run(["events", "--until", "0.002", scratch.capture]).out.split(separator: "\n").count == 2)
        #expect(run(["events", "--since", "-9e11", scratch.capture]).out.split(separator: "\n").count == 4)
    }

    @Test func `a relative time filter on a capture at the end of the Int64 range does not overflow`() throws {
        // A damaged btsnoop timestamp can be anything: here the last microseconds Int64 can hold.
        let records = CaptureFactory.sampleRecords(count: 2, start: .max - 10_000)
        let path = TestPaths.temporaryDirectory() + "/late.btsnoop"
        TestPaths.writeFile(path, try CaptureFactory.capture(.btsnoop(.btsnoopUART), records))
        #expect(run(["events", "--since", "100", path]).out.isEmpty)
        #expect(run(["events", "--until", "100", path]).out.split(separator: "\n").count == 2)
        #expect(run(["events", "--since", "-100", path]).out.split(separator: "\n").count == 2)
    }
}

/// Every command given each kind of bad file where it expects one: one error line that names the
/// file, exit code 3, and no hang (a FIFO is read with a watchdog on it).
struct CommandLineInputTests {
    /// Command lines with `%` where the bad file goes; whether a directory is valid there; and the
    /// exit code for a readable file with the wrong content (`layout` reports an invalid layout as
    /// a failed check, 1, with the issue as it reports any lint issue).
    static let commandLines: [(arguments: String, directoryIsValid: Bool, wrongContentCode: Int32)] = [
        ("info %", false, 3),
        ("events %", false, 3),
        ("events --gatt % @capture", false, 3),
        ("gatt %", false, 3),
        ("decode %", false, 3),
        ("decode --layout % @capture", false, 3),
        ("decoders --layout %", false, 3),
        ("payload envsensor 00 --layout %", false, 3),
        ("check --layout % @capture", false, 3),
        ("check --layout @layout %", false, 3),
        ("synth % -o @out", false, 3),
        ("diff % @readings", false, 3),
        ("diff @readings %", false, 3),
        ("golden check %", true, 3),
        ("golden update %", true, 3),
        ("layout lint %", false, 1),
        ("layout vectors %", false, 1),
        ("layout encode % {}", false, 1),
        ("layout decode % 00", false, 1),
    ]

    static var cases: [(String, BadInput)] {
        commandLines.flatMap { line in
            BadInput.allCases.filter { !(line.directoryIsValid && $0 == .directory) && $0 != .unreadable }.map {
                (line.arguments, $0)
            }
        }
    }

    @Test(arguments: cases)
    func `a bad input file is one error line naming it and exit code 3`(commandLine: String, input: BadInput) throws {
        try check(commandLine, input)
    }

    @Test(
        .enabled(if: !runningAsRoot, "file permissions do not apply to root"), arguments: commandLines.map(\.arguments))
    func `an unreadable file is one error line naming it and exit code 3`(commandLine: String) throws {
        try check(commandLine, .unreadable)
    }

    func check(_ commandLine: String, _ input: BadInput) throws {
        let scratch = Scratch()
        let path = scratch.path(input)
        let arguments = commandLine.split(separator: " ").map { word -> String in
            switch word {
            case "%": path
            case "@capture": scratch.capture
            case "@layout": scratch.layout
            case "@readings": scratch.readings
            case "@out": scratch.directory + "/out.btsnoop"
            default: String(word)
            }
        }
        let start = monotonicMicroseconds()
        let result = withFIFOWriter(scratch.path(.fifo)) { run(arguments) }
        let seconds = Double(monotonicMicroseconds() - start) / 1e6
        #expect(seconds < 4, "\(arguments) took \(seconds) s")
        let lines = (result.err + result.out).split(separator: "\n")
        if input == .notJSONOrCapture {
            let expected = Self.commandLines.first { $0.arguments == commandLine }?.wrongContentCode
            #expect(result.code == expected, "\(arguments): \(result.err)")
            #expect(lines.contains { $0.contains(path) }, "\(arguments): \(result.err)")
            return
        }
        #expect(result.code == 3, "\(arguments): \(result.err)")
        let errors = errorLines(result.err)
        #expect(errors.count == 1, "\(arguments): \(result.err)")
        #expect(errors.first?.contains(path) == true, "\(arguments): \(result.err)")
    }

    @Test func `a capture that cannot be written is one error line naming it and exit code 3`() {
        let scratch = Scratch()
        let result = run(["synth", scratch.scenario, "-o", "/nonexistent/x.btsnoop"])
        #expect(result.code == 3)
        #expect(errorLines(result.err) == ["error: /nonexistent/x.btsnoop: cannot write (No such file or directory)"])
        #expect(!TestPaths.exists("/nonexistent/x.btsnoop.partial"))
    }

    @Test func `a JUnit report that cannot be written is one error line naming it and exit code 3`() throws {
        let scratch = Scratch()
        // A golden without its capture: the check has something to report without decoding.
        let golden = scratch.directory + "/golden"
        mkdir(golden, 0o755)
        TestPaths.writeFile(golden + "/gone.btsnoop.golden.jsonl", try #require(TestPaths.readFile(scratch.readings)))
        var result = run(["golden", "check", "--junit", "/nonexistent/x", golden])
        #expect(result.code == 3)
        #expect(errorLines(result.err) == ["error: /nonexistent/x: cannot write: no such file or directory"])
        result = run(["check", "--layout", scratch.layout, "--junit", "/nonexistent/x", scratch.capture])
        #expect(result.code == 3)
        #expect(errorLines(result.err) == ["error: /nonexistent/x: cannot be written (no such file or directory)"])
    }

    @Test(arguments: [
        (#"{"uuid": "2a37", "value_handle": 0}"#, "value_handle: expected a handle (1–65535)"),
        (
            #"{"uuid": "2a37", "value_handle": 3, "properties": 256}"#,
            "properties: expected the properties byte (0–255)"
        ),
        (#"{"uuid": "2a37", "value_handle": 3, "properties": -1}"#, "properties: expected the properties byte (0–255)"),
        (
            #"{"uuid": "2a37", "value_handle": 3, "properties": "read"}"#,
            "properties: expected the properties byte (0–255)"
        ),
    ])
    func `a GATT map with an impossible characteristic is one error line and exit code 3`(
        characteristic: String, message: String
    ) {
        let scratch = Scratch()
        let map = scratch.directory + "/map.json"
        TestPaths.writeFile(
            map,
            Array(
                #"{"devices": [{"services": [{"uuid": "180d", "start": 1, "characteristics": [\#(characteristic)]}]}]}"#
                    .utf8))
        let result = run(["events", "--gatt", map, scratch.capture])
        #expect(result.code == 3)
        #expect(errorLines(result.err) == ["error: \(map): $.devices[0].services[0].characteristics[0].\(message)"])
    }
}
