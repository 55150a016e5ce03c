import CaptureFiles
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
            then a summary per rule. --junit writes one test case per layout rule. A layout that
            matches no packet of the capture is named on stderr: nothing was checked against it.
            """,
        options: [
            .value("junit", "FILE", "Also write JUnit XML (a test case per layout rule) to FILE."),
            .flag("quiet", "Print only the summary."),
        ] + DecodeSetup.options.filter { ["layout", "layouts", "param", "gatt"].contains($0.name) })

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "no capture file given" : "give one capture file")
        }
        let path = arguments.positionals[0]
        var setup = try DecodeSetup(arguments)
        guard !setup.layouts.isEmpty else {
            throw UsageError("`bluetape check` needs at least one --layout L.json (or --layouts DIR)")
        }
        // Only the layouts are checked; every reading they give is checked, repeats included.
        setup.only = Set(setup.layouts.map(\.id))
        setup.pipeline.allRepeats = true
        let reader = try openCapture(path)
        var checker = RuleChecker(layouts: setup.layouts)
        var violations: [RuleViolation] = []
        let quiet = arguments.has("quiet")
        var matched: Set<String> = []
        setup.run(reader) { reading in
            guard let decoder = reading.decoder else { return }
            matched.insert(decoder)
            let outcome: DecodeOutcome
            switch reading.outcome {
            case .fields(let fields): outcome = .fields(fields)
            case .error(let error): outcome = .error(error)
            case .undecoded: return
            }
            let found = checker.check(
                device: reading.address?.description ?? "-", frame: reading.frame, timestamp: reading.timestamp,
                decoder: decoder, outcome: outcome)
            for violation in found where !quiet { context.stdout.line(violation.description) }
            if violations.count < 100_000 { violations += found }
        }
        context.stdout.line(checker.summary.description)
        // No silent pass: "0 readings, ok" is true of a layout that never matched.
        for layout in setup.layouts where !matched.contains(layout.id) {
            context.warn(
                "layout \(layout.id) (\(layout.file)) matched no packet in \(path): none of its rules was checked")
        }
        if let junit = arguments.value("junit") {
            let xml = JUnitXML.document(suites(checker.summary, violations, capture: path), name: "bluetape check")
            guard writeWholeFile(junit, Array(xml.utf8)) else { throw InputError("\(junit): cannot be written") }
        }
        let damage = EventsCommand.reportDamage(reader, path: path, context)
        if damage != .success { return damage }
        return checker.summary.violations > 0 ? .differences : .success
    }

    static func suites(_ summary: RuleChecker.Summary, _ violations: [RuleViolation], capture: String) -> [JUnitXML.Suite] {
        var suites: [String: JUnitXML.Suite] = [:]
        var order: [String] = []
        for entry in summary.entries {
            if suites[entry.decoder] == nil {
                suites[entry.decoder] = JUnitXML.Suite(name: "\(capture): \(entry.decoder)")
                order.append(entry.decoder)
            }
            var testCase = JUnitXML.Case(name: entry.rule.description, classname: entry.decoder)
            if entry.violations > 0 {
                let examples = violations.filter { $0.decoder == entry.decoder && $0.rule == entry.rule.name }
                    .filter { $0.field == entry.rule.field }.prefix(20).map(\.description)
                testCase.failure = ("\(entry.violations) of \(entry.checked) readings break it", examples.joined(separator: "\n"))
            }
            suites[entry.decoder]!.cases.append(testCase)
        }
        if summary.decodeErrors > 0 {
            var testCase = JUnitXML.Case(name: "decode", classname: capture)
            testCase.failure = ("\(summary.decodeErrors) payloads did not decode",
                violations.filter { $0.rule == "decode" }.prefix(20).map(\.description).joined(separator: "\n"))
            suites[capture, default: JUnitXML.Suite(name: capture)].cases.append(testCase)
            if !order.contains(capture) { order.append(capture) }
        }
        return order.compactMap { suites[$0] }
    }
}

/// Writes a small file whole; false when it cannot.
func writeWholeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let written = fwrite(bytes, 1, bytes.count, file)
    return fclose(file) == 0 && written == bytes.count
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
