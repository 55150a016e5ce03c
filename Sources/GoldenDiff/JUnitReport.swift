/// Renders a `GoldenCheck` as JUnit XML: one test suite per capture, one test case per decoder in
/// it (`testsuites > testsuite > testcase > failure`), the shape CI test reporters read.
///
/// A capture that cannot be read (or has a wrong setting) is an `error`; a capture without golden,
/// a golden without capture, or an empty golden golden.json does not allow, is a `failure` under
/// strict checking and `skipped` otherwise.
public enum JUnitReport {
    public static func render(_ check: GoldenCheck) -> String {
        var suites: [JUnitXML.Suite] = []
        let text = TextReport()
        for result in check.results {
            var suite = JUnitXML.Suite(name: result.capture)
            switch result.outcome {
            case .compared where result.isUnexpectedlyEmpty:
                var testCase = JUnitXML.Case(name: "readings", classname: result.capture)
                let message = "empty golden: " + CheckReport.emptyHint(result)
                if check.strict { testCase.failure = (message, "") } else { testCase.skipped = message }
                suite.cases.append(testCase)
            case .compared(let report):
                for decoder in report.decoders {
                    let counts = decoder.counts
                    var testCase = JUnitXML.Case(name: decoder.name, classname: result.capture)
                    if counts.differences > 0 {
                        testCase.failure = (
                            message: differenceSummary(counts),
                            body: text.entries(report, of: decoder.decoder).joined(separator: "\n")
                        )
                    }
                    suite.cases.append(testCase)
                }
                if !report.problems.isEmpty {
                    var testCase = JUnitXML.Case(name: "golden file", classname: result.capture)
                    testCase.error = (
                        message: plural(report.problems.count, "line is not a reading", "lines are not readings"),
                        body: text.problems(report, expected: result.golden, actual: result.capture + " (decoded)")
                            .joined(separator: "\n")
                    )
                    suite.cases.append(testCase)
                }
                if suite.cases.isEmpty { suite.cases.append(JUnitXML.Case(name: "readings", classname: result.capture)) }
            case .noGolden:
                var testCase = JUnitXML.Case(name: "golden file", classname: result.capture)
                let message = "no golden file \(result.golden)"
                if check.strict { testCase.failure = (message, "") } else { testCase.skipped = message }
                suite.cases.append(testCase)
            case .unreadable(let message), .badSetting(let message):
                var testCase = JUnitXML.Case(name: "decode", classname: result.capture)
                testCase.error = (CheckReport.naming(result.capture, message), "")
                suite.cases.append(testCase)
            }
            suites.append(suite)
        }
        for golden in check.obsoleteGoldens {
            var testCase = JUnitXML.Case(name: "capture", classname: golden)
            let message = "obsolete golden: its capture is gone"
            if check.strict { testCase.failure = (message, "") } else { testCase.skipped = message }
            suites.append(JUnitXML.Suite(name: golden, cases: [testCase]))
        }
        return JUnitXML.document(suites, name: "bluetape golden check")
    }

    private static func differenceSummary(_ counts: DiffCounts) -> String {
        var parts: [String] = []
        if counts.changed > 0 { parts.append("\(counts.changed) changed") }
        if counts.added > 0 { parts.append("\(counts.added) added") }
        if counts.missing > 0 { parts.append("\(counts.missing) missing") }
        if counts.duplicateKeys > 0 { parts.append(plural(counts.duplicateKeys, "duplicate key", "duplicate keys")) }
        return parts.joined(separator: ", ")
    }
}
