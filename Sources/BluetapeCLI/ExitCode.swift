import CaptureFiles
import CaptureModel
import PcapFiles

/// Exit codes, the same for every command.
public enum ExitCode: Int32, Sendable {
    /// Success; for `diff` and `check`: no differences, no violations.
    case success = 0
    /// Differences found, or validation failed.
    case differences = 1
    /// The command line is wrong.
    case usage = 2
    /// An input file is unreadable, invalid or damaged (whatever was readable is still output).
    case badInput = 3
}

/// A wrong command line: printed with the command's usage line, exit code 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// An input that cannot be used: printed as is, exit code 3.
struct InputError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Every format the command line reads: btsnoop and PacketLogger here, pcap and pcapng through libpcap.
let captureFormats: [any ExternalCaptureFormat] = [PcapFormat()]

/// Opens a capture for a command: a file that cannot be opened or is no capture is bad input (exit 3).
func openCapture(_ path: String) throws(InputError) -> CaptureReader {
    do {
        return try CaptureReader(path: path, formats: captureFormats)
    } catch {
        throw InputError(error.description)
    }
}

/// The options that say what to read, for the commands that take them (`CaptureOptions.options`):
/// a path or `-`, an archive member, several files joined. Bad input exits 3; a join the files
/// refuse, or a request that makes no sense for them, is a usage error (2). Notes that are not
/// damage (a guessed byte order) go to stderr as warnings.
func openCapture(_ arguments: ParsedArguments, _ context: Context, listing: Bool = false) throws -> CaptureReader {
    var request = try CaptureOptions.request(arguments)
    request.listsWholeArchive = listing
    let reader: CaptureReader
    do {
        reader = try CaptureReader(request, formats: captureFormats)
    } catch {
        if error.isUsageError { throw UsageError(error.description) }
        throw InputError(error.description)
    }
    if !listing { for note in reader.contents.notes { context.warn("\(reader.path): \(note)") } }
    return reader
}

/// `--join`, `--member` and `--force`, as `info`, `events` and `decode` take them.
enum CaptureOptions {
    static let options: [OptionSpec] = [
        .flag("join", "Read the files given (or every log in one archive or directory) as one session."),
        .value("member", "PATH", "The member of a zip or tar archive to read."),
        .flag("force", "With --join: join files even from different adapters or out of time order."),
    ]

    static func request(_ arguments: ParsedArguments) throws(UsageError) -> CaptureRequest {
        let paths = arguments.positionals
        guard !paths.isEmpty else { throw UsageError("no capture file given") }
        let join = arguments.has("join")
        if paths.count > 1, !join { throw UsageError("give one capture file, or several with --join to read them as one session") }
        if arguments.has("force"), !join { throw UsageError("--force goes with --join") }
        return CaptureRequest(paths: paths, member: arguments.value("member"), join: join, force: arguments.has("force"))
    }
}
