import Bluetape
import CaptureFiles
import CaptureModel
import FileAccess
import GoldenDiff
import JSON
import Layouts
import PayloadDecoders
import Readings

/// `bluetape check FILE --layout L.json`: every packet against its layout's rules.
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check every decoded packet against its layout's rules; exit 1 on any violation.",
        arguments: "--layout L.json [--layout …] [--junit FILE] FILE",
        discussion: """
            Decodes the capture with the layouts given and checks each reading against its layout's
            rules: per field (min, max, allowed enum values, length) and across the packets of one
            device (a counter that must step by one, the cadence between packets, the largest jump
            a value may make). Prints every violation with frame, device, field, rule and value,
            then a summary per rule. --junit writes one test case per layout rule.
            """,
        options: [
            .value("junit", "FILE", "Also write JUnit XML (a test case per layout rule) to FILE."),
            .flag("quiet", "Print only the summary."),
        ] + DecodeSetup.options(["layout", "layouts", "param", "gatt"]))

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "no capture file given" : "give one capture file")
        }
        let path = arguments.positionals[0]
        let setup = try DecodeSetup(arguments)
        guard !setup.layouts.isEmpty else {
            throw UsageError("`bluetape check` needs at least one --layout L.json (or --layouts DIR)")
        }
        let capture = try openCapture(path)
        let quiet = arguments.has("quiet")
        let run = try readCapture { () throws(CaptureError) in
            try RuleCheckRun(capture, setup.configuration) { violation in
                if !quiet { context.stdout.line(violation.description) }
            }
        }
        context.stdout.line(run.summary.description)
        for layout in run.unmatchedLayouts {
            // No silent pass: "0 readings, ok" is true of a layout that never matched.
            context.warn("layout \(layout.id) (\(layout.file)) matched no packet in \(path): none of its rules was checked")
        }
        if let junit = arguments.value("junit") {
            let xml = JUnitXML.document(run.junitSuites(capture: path), name: "bluetape check")
            do {
                try WholeFile.write(Array(xml.utf8), to: junit)
            } catch {
                throw InputError("\(junit): cannot be written (\(error.reason))")
            }
        }
        let damage = EventsCommand.reportDamage(capture.problems, path: path, context)
        if damage != .success { return damage }
        return run.summary.violations > 0 ? .differences : .success
    }
}
