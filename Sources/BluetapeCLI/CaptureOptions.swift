import Bluetape
import CaptureFiles

/// `--join`, `--member` and `--force`, as `info`, `events` and `decode` take them: what to read
/// from the paths given. Without `--join` each path (a directory: each capture in it) is a capture
/// of its own; with it, all of them are one session.
enum CaptureOptions {
    static let options: [OptionSpec] = [
        .flag("join", "Read the files given (or every log in one archive or directory) as one session."),
        .value("member", "PATH", "The member of a zip or tar archive to read."),
        .flag("force", "With --join: join files even from different adapters or out of time order."),
    ]

    /// Whether the paths given are one joined session.
    static func joins(_ arguments: ParsedArguments) throws(UsageError) -> Bool {
        let join = arguments.has("join")
        if arguments.has("force"), !join { throw UsageError("--force goes with --join (bluetape \(arguments.command) --join --force A B)") }
        return join
    }

    /// The request for `paths`: one capture, or (with `--join`) several as one session.
    static func request(_ paths: [String], _ arguments: ParsedArguments) throws(UsageError) -> CaptureRequest {
        CaptureRequest(paths: paths, member: arguments.value("member"), join: try joins(arguments), force: arguments.has("force"))
    }
}

/// Opens what a command reads: bad input exits 3; a join the files refuse, or a request that makes
/// no sense for them, is a usage error (2). Notes that are not damage (a guessed byte order) go to
/// stderr as warnings.
func openCapture(_ request: CaptureRequest, _ context: Context) throws -> Capture {
    let capture: Capture
    do {
        capture = try Capture(request, formats: captureFormats)
    } catch {
        if error.isUsageError { throw UsageError(error.description) }
        throw InputError(error.description)
    }
    for note in capture.contents.notes { context.warn("\(capture.path): \(note)") }
    return capture
}
