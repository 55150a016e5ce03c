import CaptureFiles
import GoldenDiff
import Layouts
import PayloadDecoders
import Readings

/// Every reading of a capture checked against its layout's rules (`bluetape check`): only the
/// layouts' readings, repeats included.
public struct RuleCheckRun {
    public private(set) var summary: RuleChecker.Summary
    /// The violations, in capture order (the first 100,000).
    public private(set) var violations: [RuleViolation] = []
    /// Layouts that matched no packet: a check that checked nothing of them.
    public private(set) var unmatchedLayouts: [Layout] = []

    /// Checks `capture` with the layouts of `decoding`; `found` sees each violation as it is found.
    public init(
        _ capture: Capture, _ decoding: DecoderConfiguration, found: (RuleViolation) -> Void = { _ in }
    ) throws(CaptureError) {
        var decoding = decoding
        decoding.restrict(to: Set(decoding.layouts.map(\.id)))
        decoding.pipeline.allRepeats = true
        var checker = RuleChecker(layouts: decoding.layouts)
        var violations: [RuleViolation] = []
        var matched: Set<String> = []
        try capture.forEachReading(decoding) { reading in
            guard let decoder = reading.decoder else { return true }
            matched.insert(decoder)
            let outcome: DecodeOutcome
            switch reading.outcome {
            case .fields(let fields): outcome = .fields(fields)
            case .error(let error): outcome = .error(error)
            case .undecoded: return true
            }
            let new = checker.check(
                device: reading.address?.description ?? "-", frame: reading.frame, timestamp: reading.timestamp,
                decoder: decoder, outcome: outcome)
            for violation in new { found(violation) }
            if violations.count < 100_000 { violations += new }
            return true
        }
        summary = checker.summary
        self.violations = violations
        unmatchedLayouts = decoding.layouts.filter { !matched.contains($0.id) }
    }

    /// JUnit suites: one per layout, a test case per rule, failures with up to 20 examples.
    public func junitSuites(capture: String) -> [JUnitXML.Suite] {
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
