import GoldenDiff
import JSON

/// `bluetape diff EXPECTED ACTUAL`: readings compared reading by reading, field by field.
enum DiffCommand: Command {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Compare two sets of readings, reading by reading and field by field.",
        arguments: "[options] EXPECTED ACTUAL",
        discussion: """
            Each side is a readings file (one JSON reading per line) or a capture, which is decoded
            first; a file whose first non-blank character is '{' is readings. A reading is any JSON
            object with "frame" and "decoder" (a string, or null for what nothing decoded), written
            with any spacing, key order, escapes and number spelling: 25, 25.0 and 2.5e1 are the
            same number. Readings are paired by
            (frame, decoder, addr, index), or with --align sequence by their order within each addr
            and decoder (frame and ts then only locate a reading and are not compared). The report
            gives the counts first, in total and per decoder, then each reading that differs, once,
            with every changed value as 'expected → actual'; runs of unchanged readings are collapsed.

            \(configHelp)

            Exit codes: 0 no differences, 1 differences, 2 usage error or a wrong golden.json value,
            3 unreadable input (lines that are not readings, each with what is wrong with it, and
            the damage in a capture read only in part, are named on stderr, and the rest is compared).
            """,
        options: comparisonOptions + [
            .value("format", "FORMAT", "text (default) or json: one JSON report."),
            .value("config", "FILE", "Rules from FILE instead of the golden.json beside EXPECTED."),
            limitOption,
        ])

    static let configHelp = """
        golden.json, beside the goldens (for diff: beside EXPECTED), carries a directory's rules;
        options on the command line add to them and win where both give a value. Every key is
        optional:
          {
            "version": 1,
            "align": "frame",                                 frame or sequence
            "ignore": ["ts", "rssi"],                         fields, top-level keys, dotted paths
            "tolerance": {"*": 1e-6, "temperature_c": 0.05},  absolute; "*" is every number
            "decode": {"param.acme.company": "0xABCD",        options for the capture decoder
                       "layouts": ["../layouts/a.json"],      a list, or one string with commas
                       "param.pin_characteristic": "…"},      a layout parameter
            "captures": {"idle.btsnoop": {"allow_empty": true}}   rules for one capture here
          }
        "tolerance" may also be a plain number (for every number); decode values are strings.
        Files that decode names ("layouts", "gatt") are relative to the golden.json itself.
        "captures" names files of the golden.json's own directory: "allow_empty" lets a capture
        that gives no readings pass 'golden check --strict' with its empty golden.
        """

    static let comparisonOptions: [OptionSpec] = [
        .value("align", "frame|sequence", "Pair readings by frame (default) or by order within addr and decoder."),
        .value("tolerance", "T|FIELD=T", "Absolute tolerance for every number, or for one field (repeatable)."),
        .value("ignore", "FIELD,…", "Leave out fields or top-level keys, e.g. ts,rssi (repeatable)."),
    ]

    static let limitOption = OptionSpec.value(
        "max", "N", "List at most N differing readings per file (default 50; 0 lists all).")

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 2 else {
            throw UsageError(
                "`bluetape diff` compares two files: EXPECTED and ACTUAL (got \(arguments.positionals.count))")
        }
        let (expectedPath, actualPath) = (arguments.positionals[0], arguments.positionals[1])
        let format = arguments.value("format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format must be text or json, not '\(format)'")
        }
        let limit = try limit(arguments)
        let commandLine = try comparisonConfig(arguments)

        let config: GoldenConfig
        let expected: ReadingLines
        let actual: ReadingLines
        var expectedDamage: String?
        var actualDamage: String?
        do {
            let file =
                if let path = arguments.value("config") {
                    try GoldenConfig.parse(try Files.read(path), file: path)
                } else {
                    try GoldenConfig.load(directory: directory(of: expectedPath))
                }
            config = (file ?? GoldenConfig()).overridden(by: commandLine)
            expected = try ReadingsSource.load(
                expectedPath, options: config.decodeOptions, decode: context.decodeCapture, damage: &expectedDamage)
            actual = try ReadingsSource.load(
                actualPath, options: config.decodeOptions, decode: context.decodeCapture, damage: &actualDamage)
        } catch {
            // A wrong golden.json value is a usage error, without the usage line: the command line is right.
            guard error.kind == .setting else { throw InputError(error.message) }
            context.error(error.message)
            return .usage
        }

        let report = ReadingsDiff.compare(expected: expected, actual: actual, settings: config.settings)
        let text = TextReport(colour: colour(context), limit: limit)
        if format == "json" {
            context.stdout.write(JSONReport.render(report, expected: expectedPath, actual: actualPath))
        } else {
            context.stdout.write(text.render(report, expected: expectedPath, actual: actualPath))
        }
        for problem in text.problems(report, expected: expectedPath, actual: actualPath) { context.error(problem) }
        // A damaged capture is compared as far as it could be read, and still fails as bad input.
        for damage in [expectedDamage, actualDamage].compactMap({ $0 }) { context.error(damage) }
        if !report.problems.isEmpty || expectedDamage != nil || actualDamage != nil { return .badInput }
        return report.hasDifferences ? .differences : .success
    }

    // MARK: Shared with `golden`

    /// The rules given by --align, --tolerance and --ignore.
    static func comparisonConfig(_ arguments: ParsedArguments) throws(UsageError) -> GoldenConfig {
        var config = GoldenConfig()
        do {
            if let alignment = arguments.value("align") { try config.setAlignment(alignment) }
            for tolerance in arguments.all("tolerance") { try config.addTolerance(tolerance) }
        } catch {
            throw UsageError(error.message)
        }
        for names in arguments.all("ignore") { config.addIgnored(names) }
        return config
    }

    /// --max N; nil lists everything.
    static func limit(_ arguments: ParsedArguments) throws(UsageError) -> Int? {
        guard let text = arguments.value("max") else { return 50 }
        guard let limit = Int(text), limit >= 0 else { throw UsageError("--max must be a whole number, 0 or more") }
        return limit == 0 ? nil : limit
    }

    /// ANSI colour only for a person at a terminal (and not when NO_COLOR is set).
    static func colour(_ context: Context) -> Bool {
        context.stdout.isTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
