import FileAccess
import GoldenDiff
import Handoff
import SystemIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Several captures in one command (`bluetape decode a.btsnoop logs/ --jobs 2`): each is read on
/// its own, on `--jobs` threads (default: every core), through the same code as a single capture;
/// their output comes out whole and in the order given, and one that fails is reported and
/// counted without stopping the rest.
struct CaptureBatch {
    /// The captures, in the order given: files as named, directories expanded (sorted, with their
    /// subdirectories, capture files only: the names `golden check` takes for captures).
    let paths: [String]
    /// Whether output lines name their capture: more than one capture, or a directory given.
    let labelled: Bool

    static let option = OptionSpec.value(
        "jobs", "N", "Read N captures at once (default: every core); with 1, all the work is on one thread.")

    init(_ positionals: [String]) throws(InputError) {
        var paths: [String] = []
        var sawDirectory = false
        for path in positionals {
            if path != "-", Files.isDirectory(path) {
                sawDirectory = true
                paths += try Self.captures(in: path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path)
            } else {
                paths.append(path)
            }
        }
        if sawDirectory, paths.isEmpty {
            throw InputError("no captures in \(positionals.joined(separator: ", ")) (files named .btsnoop, .log, .pcap, …)")
        }
        self.paths = paths
        labelled = paths.count > 1 || sawDirectory
    }

    private static func captures(in directory: String) throws(InputError) -> [String] {
        var found: [String] = []
        let names: [String]
        do {
            names = try WholeFile.list(directory)
        } catch {
            throw InputError("\(directory): cannot be listed (\(error.reason))")
        }
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            if Files.isDirectory(path) {
                found += try captures(in: path)
            } else if GoldenSuite.isCapture(name) {
                found.append(path)
            }
        }
        return found
    }

    /// The number of captures read at once.
    static func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        guard let text = arguments.value("jobs") else { return Parallel.processorCount }
        guard let jobs = Int(text), jobs > 0 else {
            throw UsageError("--jobs takes a whole number, 1 or more, not '\(text)' (bluetape \(arguments.command) --jobs 2 …)")
        }
        return jobs
    }

    /// Runs `one` for every capture, `jobs` at once, and writes each capture's output and messages
    /// out in order. The capture whose turn it is when it starts (the output of every capture
    /// before it written out, though their messages may still wait) writes straight to standard
    /// output; the others get an output of their own, spooled to an unlinked temporary file so
    /// that memory stays flat however much a capture writes, until their turn comes: then what
    /// waits is copied out and the rest goes straight out. The exit code is the worst of them: 3
    /// if any capture could not be read, else 1 if any had differences, else 0.
    func run(
        jobs: Int, _ context: Context, _ one: @escaping @Sendable (_ path: String, _ context: Context) -> ExitCode
    ) -> ExitCode {
        var worst = ExitCode.success
        var failed = 0
        let environment = context.environment
        let decodeCapture = context.decodeCapture
        let stdout = context.stdout
        let turn = OutputTurn()
        // Finished captures wait on disk, not in memory: many may wait behind a long one.
        Parallel.forEach(Array(paths.enumerated()), width: jobs, ahead: jobs * 32, cost: { Files.size($0.element) ?? 0 }) {
            item -> BatchResult in
            let (index, path) = item
            let stderr = Output()
            if turn.isTurn(of: index) {
                let code = one(path, Context(stdout: stdout, stderr: stderr, environment: environment, decodeCapture: decodeCapture))
                // Its output is all out: the next capture may write straight after it, even
                // before this one's messages are delivered.
                turn.pass(to: index + 1)
                return BatchResult(spool: nil, messages: stderr.text, code: code)
            }
            let spool = Spool(for: stdout) { turn.isTurn(of: index) }
            let code: ExitCode
            if let output = spool.output {
                let result = one(path, Context(stdout: output, stderr: stderr, environment: environment, decodeCapture: decodeCapture))
                output.flush()
                if output.passedThrough {
                    turn.pass(to: index + 1)
                    return BatchResult(spool: nil, messages: stderr.text, code: result)
                }
                if let failure = output.failure {
                    // Its file failed before its turn came: what it held is cut short.
                    stderr.line(
                        "error: \(path): its output could not wait in a temporary file in \(Spool.directory) (\(failure)); "
                            + "set TMPDIR to a directory with room, or use --jobs 1")
                    code = .badInput
                } else {
                    code = result
                }
            } else {
                stderr.line("error: \(path): no temporary file for its output (\(spool.problem ?? "unknown"))")
                code = .badInput
            }
            return BatchResult(spool: spool, messages: stderr.text, code: code)
        } deliver: { index, result in
            result.spool?.copy(to: context.stdout)
            context.stderr.write(result.messages)
            if result.code == .badInput { failed += 1 }
            worst = Self.worse(worst, result.code)
            turn.pass(to: index + 1)
        }
        if failed > 0, paths.count > 1 { context.error("\(failed) of \(paths.count) captures could not be read in full") }
        return worst
    }

    private static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        let rank: (ExitCode) -> Int = { [.success: 0, .differences: 1, .usage: 2, .badInput: 3][$0] ?? 3 }
        return rank(a) >= rank(b) ? a : b
    }
}

/// One capture's output, waiting for its turn (nil spool: it was written out directly).
private struct BatchResult: @unchecked Sendable {
    let spool: Spool?
    let messages: String
    let code: ExitCode
}

/// Which capture may write to standard output itself: the one whose predecessors are all out.
private final class OutputTurn: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0

    func isTurn(of index: Int) -> Bool { lock.withLock { next == index } }

    /// Every capture before `index` has been written out.
    func pass(to index: Int) { lock.withLock { next = max(next, index) } }
}

/// An unlinked temporary file that holds one capture's output until its turn comes: then what it
/// holds is copied out and the rest goes straight to `destination` (`Output(holdingIn:…)`); a
/// capture that finishes before its turn is copied out by `copy(to:)`.
private final class Spool: @unchecked Sendable {
    private let fd: Int32
    let output: Output?
    let problem: String?

    init(for destination: Output, until isTurn: @escaping @Sendable () -> Bool) {
        var template = Array("\(Spool.directory)/bluetape-output-XXXXXX".utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            output = Output(holdingIn: fd, for: destination, until: isTurn)
            problem = nil
        } else {
            output = nil
            problem = SystemIO.reason(errno)
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    static var directory: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty else { return "/tmp" }
        return value
    }

    func copy(to destination: Output) {
        if fd >= 0 { destination.appendContents(ofFile: fd) }
    }
}
