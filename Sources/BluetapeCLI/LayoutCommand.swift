import FileAccess
import ByteReading
import JSON
import Layouts
import PayloadDecoders

/// `bluetape layout lint|encode|vectors|decode`: work with declarative payload layouts.
enum LayoutCommand: Command {
    static let spec = CommandSpec(
        name: "layout",
        abstract: "Check payload layout files, encode values with them and generate test vectors.",
        arguments:
            "lint FILE… | encode FILE VALUES | vectors FILE | decode FILE HEX | export --wireshark|--c|--markdown FILE… [-o OUT]",
        discussion: """
            lint     checks layout files; every problem is printed as FILE:LINE: PATH: MESSAGE.
                     Exit code 1 when a file has errors (warnings alone exit 0).
            encode   encodes field values, a JSON object such as '{"nonce":1,"temperature_c":23.45,…}',
                     and prints the payload as hex.
            vectors  prints one test vector per line, {"name":…,"hex":…,"expect":{…}}: the boundaries
                     of every field, every enum name, every switch case.
            decode   decodes a payload given as hex (the bytes after the company id, service UUID
                     or ATT handle) and prints its fields as JSON.
            export   writes the layout for other tools: --wireshark a Lua dissector plugin (one
                     protocol per layout, several layouts in one file), --c a header-only C99
                     encoder and decoder for firmware, --markdown the payload's spec page with
                     worked examples. To stdout, or to -o OUT.
            The file format is described in layouts/README.md. A layout parameter is set with
            --param NAME=VALUE; encode, vectors and decode do not need parameters that only matching
            uses.
            """,
        options: [
            .value("param", "NAME=VALUE", "Set a layout parameter (repeatable)."),
            .flag("quiet", short: "q", "lint: print errors only, not warnings or 'ok' lines."),
            .flag("wireshark", "export: a Wireshark Lua plugin."),
            .flag("c", "export: a header-only C99 file."),
            .flag("markdown", "export: a Markdown spec page."),
            .flag("c-test", "export: a C program checking the --c header against the vectors (scripts/test-layout-export)."),
            .value("output", "OUT", short: "o", "export: where to write (default: stdout)."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard let action = arguments.positionals.first else {
            throw UsageError("say what to do: lint, encode, vectors or decode")
        }
        let operands = Array(arguments.positionals.dropFirst())
        let parameters = try parseParameters(arguments.all("param"))
        switch action {
        case "lint":
            guard !operands.isEmpty else { throw UsageError("no layout file given") }
            return lint(operands, parameters, quiet: arguments.has("quiet"), context)
        case "encode":
            guard operands.count == 2 else {
                throw UsageError("layout encode takes a layout file and a JSON object of values")
            }
            let values: JSONValue
            do {
                values = try JSONValue.parse(operands[1])
            } catch {
                throw UsageError("the values are not valid JSON: \(error)")
            }
            guard let layout = try load(operands[0], parameters, context) else { return .differences }
            do {
                context.stdout.line(Hex.encode(try layout.encode(values)))
                return .success
            } catch {
                context.error(error.description)
                return .differences
            }
        case "vectors":
            guard operands.count == 1 else { throw UsageError("layout vectors takes one layout file") }
            guard let layout = try load(operands[0], parameters, context) else { return .differences }
            for vector in layout.vectors() { context.stdout.line(vector.jsonLine) }
            return .success
        case "decode":
            guard operands.count == 2 else {
                throw UsageError("layout decode takes a layout file and the payload as hex")
            }
            guard let bytes = Hex.decode(operands[1]) else { throw UsageError("'\(operands[1])' is not hex") }
            guard let layout = try load(operands[0], parameters, context) else { return .differences }
            let outcome = layout.decode(bytes: bytes)
            context.stdout.line(LayoutJSON.text(outcome))
            if case .error = outcome { return .differences }
            return .success
        case "export":
            return try export(operands, parameters, arguments, context)
        default:
            let actions = ["lint", "encode", "vectors", "decode", "export"]
            let close = actions.min { editDistance($0, action) < editDistance($1, action) }
            throw UsageError(
                "unknown action '\(action)' (lint, encode, vectors, decode or export)"
                    + (close.map { editDistance($0, action) <= 2 ? "; did you mean '\($0)'?" : "" } ?? ""))
        }
    }

    static func export(
        _ paths: [String], _ parameters: [String: String], _ arguments: ParsedArguments, _ context: Context
    ) throws -> ExitCode {
        let formats = ["wireshark", "c", "markdown", "c-test"].filter { arguments.has($0) }
        guard formats.count == 1 else { throw UsageError("layout export takes one of --wireshark, --c or --markdown") }
        guard !paths.isEmpty else { throw UsageError("no layout file given") }
        if formats[0] != "wireshark", paths.count > 1 {
            throw UsageError("layout export --\(formats[0]) takes one layout file (--wireshark takes several)")
        }
        var layouts: [Layout] = []
        for path in paths {
            guard let layout = try load(path, parameters, context) else { return .differences }
            layouts.append(layout)
        }
        let text: String
        switch formats[0] {
        case "wireshark": text = LayoutExport.wireshark(layouts)
        case "c": text = LayoutExport.c(layouts[0])
        case "c-test": text = LayoutExport.cTest(layouts[0])
        default: text = LayoutExport.markdown(layouts[0])
        }
        if let output = arguments.value("output") {
            do {
                try WholeFile.write(Array(text.utf8), to: output)
            } catch {
                throw InputError("\(output): cannot be written (\(error.reason))")
            }
        } else {
            context.stdout.write(text)
        }
        return .success
    }

    static func parseParameters(_ values: [String]) throws(UsageError) -> [String: String] {
        var parameters: [String: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw UsageError("--param takes NAME=VALUE, not '\(value)'")
            }
            parameters[String(value[..<equals])] = String(value[value.index(after: equals)...])
        }
        return parameters
    }

    /// Loads a layout for encoding or decoding; issues go to stderr. Nil when it has errors.
    static func load(_ path: String, _ parameters: [String: String], _ context: Context) throws -> Layout? {
        do {
            let layout = try Layout.load(path: path, parameters: parameters, requireParameters: false)
            for warning in layout.warnings { context.stderr.line(warning.description) }
            return layout
        } catch {
            switch error {
            case .unreadable(let path, let reason): throw InputError("\(path): cannot read: \(reason)")
            case .invalid(let issues):
                for issue in issues { context.stderr.line(issue.description) }
                return nil
            }
        }
    }

    static func lint(_ paths: [String], _ parameters: [String: String], quiet: Bool, _ context: Context) -> ExitCode {
        var code = ExitCode.success
        var unreadable = false
        for path in paths {
            let issues = LayoutLinter.lint(path: path, parameters: parameters)
            if issues.count == 1, issues[0].line == 0 {
                context.error("\(path): \(issues[0].message)")
                unreadable = true
                continue
            }
            if issues.contains(where: \.isError) { code = .differences }
            let shown = quiet ? issues.filter(\.isError) : issues
            for issue in shown { context.stdout.line(issue.description) }
            if issues.isEmpty, !quiet { context.stdout.line("\(path): ok") }
        }
        return unreadable ? .badInput : code
    }
}
