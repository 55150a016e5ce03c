import GoldenDiff
import Handoff
import JSON

/// `bluetape golden check|update [DIR|FILE…]`: the regression suite of captures and their goldens.
enum GoldenCommand: Command {
    static let spec = CommandSpec(
        name: "golden",
        abstract: "Check captures against their golden readings, or update the goldens.",
        arguments: "check [options] [DIR|FILE…]  |  update [--force] [DIR|FILE…]",
        discussion: """
            A golden holds a capture's readings, in '<capture file name>.golden.jsonl' beside it
            (sensor.btsnoop → sensor.btsnoop.golden.jsonl). Captures are files ending in
            .btsnoop, .log, .cfa, .snoop, .pcap, .pcapng or .pklg; directories (default: captures/)
            are searched with their subdirectories.

            check decodes every capture, several at a time, and compares its readings with its
            golden as 'bluetape diff' does: a golden may be written by any JSON tool (any spacing,
            key order or number spelling). A capture without golden, a golden without capture, and
            an empty golden of a capture that gives no readings (a check that passes on nothing)
            are reported; they fail the check with --strict, the default when the environment sets
            CI. golden.json accepts an empty golden for one capture with
            "captures": {"idle.btsnoop": {"allow_empty": true}}. --junit FILE also writes JUnit XML
            (a test case per capture and decoder); --format github prints GitHub Actions
            annotations on the golden files' lines.

            update writes each golden from the current decoders, byte for byte, replacing the file
            atomically, and says per file what changed (created / n changed, n added, n removed /
            unchanged); it warns about a capture that gives no readings. Goldens without capture
            are reported, not deleted. update refuses to run when CI is set (exit code 2), so that
            a CI run never blesses its own output; --force runs it anyway. CI counts as set unless
            it is empty, 0 or false.

            \(DiffCommand.configHelp)

            Exit codes: 0 everything matches, 1 differences (with --strict also missing, obsolete
            or empty goldens), 2 usage error, a wrong golden.json value, or update under CI, 3 a
            capture or golden could not be read (its name is given, and the other captures are
            still checked).
            """,
        options: DiffCommand.comparisonOptions + [
            .value("format", "FORMAT", "check: text (default), json or github."),
            .value("junit", "FILE", "check: also write JUnit XML to FILE."),
            .flag("strict", "check: fail on captures without golden and goldens without capture."),
            .value("jobs", "N", "Captures processed at a time (default: one per core)."),
            .flag("force", "update: run even when CI is set."),
            DiffCommand.limitOption,
        ])

    static let defaultDirectory = "captures"
    static let checkOnly = ["align", "tolerance", "ignore", "format", "junit", "strict", "max"]

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard let action = arguments.positionals.first else {
            throw UsageError(
                "golden needs an action: `bluetape golden check [DIR…]` or `bluetape golden update [DIR…]`")
        }
        let paths = arguments.positionals.count > 1 ? Array(arguments.positionals.dropFirst()) : [defaultDirectory]
        switch action {
        case "check":
            if arguments.has("force") { throw UsageError("--force applies to `bluetape golden update` only") }
            return try check(paths, arguments, context)
        case "update":
            if let option = checkOnly.first(where: { arguments.values[$0] != nil || arguments.has($0) }) {
                throw UsageError("--\(option) applies to `bluetape golden check` only")
            }
            return try update(paths, arguments, context)
        default:
            throw UsageError(
                "unknown action '\(action)': `bluetape golden check [DIR…]` or `bluetape golden update [DIR…]`")
        }
    }

    static func check(_ paths: [String], _ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        let format = arguments.value("format") ?? "text"
        guard ["text", "json", "github"].contains(format) else {
            throw UsageError("--format must be text, json or github, not '\(format)'")
        }
        let overrides = try DiffCommand.comparisonConfig(arguments)
        let limit = try DiffCommand.limit(arguments)
        let jobs = try jobs(arguments)
        let strict = arguments.has("strict") || isCI(context.environment)
        let suite: GoldenSuite
        switch find(paths, defaulted: arguments.positionals.count == 1, action: "check") {
        case .success(let found): suite = found
        case .failure(let failure): return failure.report(context)
        }
        if suite.members.isEmpty {
            context.warn(
                "no captures in \(paths.joined(separator: ", ")): `bluetape golden check` checks files ending in ."
                    + GoldenSuite.captureExtensions.sorted().joined(separator: ", ."))
        }

        let check = GoldenCheck.run(
            suite, overrides: overrides, strict: strict, jobs: jobs, decode: context.decodeCapture)
        let report = CheckReport(colour: DiffCommand.colour(context), limit: limit)
        switch format {
        case "json": context.stdout.write(CheckReport.json(check))
        case "github": context.stdout.write(GitHubAnnotations(limit: limit).render(check))
        default: context.stdout.write(report.render(check))
        }
        for diagnostic in report.diagnostics(check) { context.error(diagnostic) }
        if let junit = arguments.value("junit") {
            do {
                try Files.writeAtomically(Array(JUnitReport.render(check).utf8), to: junit)
            } catch {
                context.error(error.message)
                return .badInput
            }
        }
        return ExitCode(rawValue: check.exitStatus) ?? .badInput
    }

    static func update(_ paths: [String], _ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        if isCI(context.environment), !arguments.has("force") {
            context.error(
                "golden update does not run when CI is set: goldens are written where a person reviews them, "
                    + "never by the CI run that checks them (`bluetape golden update --force` runs it anyway)")
            return .usage
        }
        let jobs = try jobs(arguments)
        let suite: GoldenSuite
        switch find(paths, defaulted: arguments.positionals.count == 1, action: "update") {
        case .success(let found): suite = found
        case .failure(let failure): return failure.report(context)
        }
        let update = GoldenUpdate.run(suite, jobs: jobs, decode: context.decodeCapture)
        context.stdout.write(UpdateReport.render(update))
        for warning in UpdateReport.warnings(update) { context.warn(warning) }
        for diagnostic in UpdateReport.diagnostics(update) { context.error(diagnostic) }
        return ExitCode(rawValue: update.exitStatus) ?? .badInput
    }

    /// A suite that could not be found: a wrong golden.json (exit 2) or a path that cannot be read (3).
    struct SuiteFailure: Error {
        var error: GoldenError

        func report(_ context: Context) -> ExitCode {
            context.error(error.message)
            return error.kind == .setting ? .usage : .badInput
        }
    }

    /// The captures and goldens under `paths`. When no path was given, a missing default
    /// directory is explained with the command that names one.
    static func find(_ paths: [String], defaulted: Bool, action: String) -> Result<GoldenSuite, SuiteFailure> {
        do {
            return .success(try GoldenSuite.find(paths))
        } catch {
            var error = error
            if defaulted, error.kind == .input, !Files.exists(defaultDirectory) {
                error.message += "; without a directory `bluetape golden \(action)` looks in \(defaultDirectory)/: "
                    + "name one with `bluetape golden \(action) DIR`"
            }
            return .failure(SuiteFailure(error: error))
        }
    }

    static func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        guard let text = arguments.value("jobs") else { return Parallel.processorCount }
        guard let jobs = Int(text), jobs > 0 else { throw UsageError("--jobs must be a whole number, 1 or more") }
        return jobs
    }

    /// CI systems set CI (GitHub Actions, GitLab, CircleCI, Travis, Buildkite…); "false" or "0" opt out.
    static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "false" && value != "0"
    }
}
