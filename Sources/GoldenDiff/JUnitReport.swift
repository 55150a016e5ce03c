/// Renders a `GoldenCheck` as JUnit XML: one test suite per capture, one test case per decoder in
/// it (`testsuites > testsuite > testcase > failure`), the shape CI test reporters read.
///
/// A capture that cannot be read is an `error`; a capture without golden, or a golden without
/// capture, is a `failure` under strict checking and `skipped` otherwise.
public enum JUnitReport {
    public static func render(_ check: GoldenCheck) -> String {
        var suites: [Suite] = []
        let text = TextReport()
        for result in check.results {
            var suite = Suite(name: result.capture)
            switch result.outcome {
            case .compared(let report):
                for decoder in report.decoders {
                    let counts = decoder.counts
                    var testCase = Case(name: decoder.decoder, classname: result.capture)
                    if counts.differences > 0 {
                        testCase.failure = (
                            message: differenceSummary(counts),
                            body: text.entries(report, decoder: decoder.decoder).joined(separator: "\n")
                        )
                    }
                    suite.cases.append(testCase)
                }
                if !report.problems.isEmpty {
                    var testCase = Case(name: "golden file", classname: result.capture)
                    testCase.error = (
                        message: plural(report.problems.count, "line is not a reading", "lines are not readings"),
                        body: text.problems(report, expected: result.golden, actual: result.capture + " (decoded)")
                            .joined(separator: "\n")
                    )
                    suite.cases.append(testCase)
                }
                if suite.cases.isEmpty { suite.cases.append(Case(name: "readings", classname: result.capture)) }
            case .noGolden:
                var testCase = Case(name: "golden file", classname: result.capture)
                let message = "no golden file \(result.golden)"
                if check.strict { testCase.failure = (message, "") } else { testCase.skipped = message }
                suite.cases.append(testCase)
            case .unreadable(let message):
                var testCase = Case(name: "decode", classname: result.capture)
                testCase.error = (CheckReport.naming(result.capture, message), "")
                suite.cases.append(testCase)
            }
            suites.append(suite)
        }
        for golden in check.obsoleteGoldens {
            var testCase = Case(name: "capture", classname: golden)
            let message = "obsolete golden: its capture is gone"
            if check.strict { testCase.failure = (message, "") } else { testCase.skipped = message }
            suites.append(Suite(name: golden, cases: [testCase]))
        }
        return document(suites)
    }

    private struct Case {
        var name: String
        var classname: String
        var failure: (message: String, body: String)?
        var error: (message: String, body: String)?
        var skipped: String?
    }

    private struct Suite {
        var name: String
        var cases: [Case] = []
        var failures: Int { cases.count { $0.failure != nil } }
        var errors: Int { cases.count { $0.error != nil } }
        var skipped: Int { cases.count { $0.skipped != nil } }
    }

    private static func document(_ suites: [Suite]) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"bluetape golden check\" tests=\"\(suites.map(\.cases.count).reduce(0, +))\""
        xml += " failures=\"\(suites.map(\.failures).reduce(0, +))\" errors=\"\(suites.map(\.errors).reduce(0, +))\">\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.cases.count)\""
            xml += " failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"\(suite.skipped)\">\n"
            for testCase in suite.cases {
                xml += "    <testcase name=\"\(escape(testCase.name))\" classname=\"\(escape(testCase.classname))\""
                if let failure = testCase.failure {
                    xml += ">\n      " + element("failure", failure.message, failure.body) + "\n    </testcase>\n"
                } else if let error = testCase.error {
                    xml += ">\n      " + element("error", error.message, error.body) + "\n    </testcase>\n"
                } else if let skipped = testCase.skipped {
                    xml += ">\n      <skipped message=\"\(escape(skipped))\"/>\n    </testcase>\n"
                } else {
                    xml += "/>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func element(_ name: String, _ message: String, _ body: String) -> String {
        let open = "<\(name) message=\"\(escape(message))\""
        return body.isEmpty ? open + "/>" : open + ">" + escape(body, attribute: false) + "</\(name)>"
    }

    private static func differenceSummary(_ counts: DiffCounts) -> String {
        var parts: [String] = []
        if counts.changed > 0 { parts.append("\(counts.changed) changed") }
        if counts.added > 0 { parts.append("\(counts.added) added") }
        if counts.missing > 0 { parts.append("\(counts.missing) missing") }
        if counts.duplicateKeys > 0 { parts.append(plural(counts.duplicateKeys, "duplicate key", "duplicate keys")) }
        return parts.joined(separator: ", ")
    }

    /// Text as an XML attribute value or as character data. Characters XML 1.0 cannot hold at
    /// all (most controls) become U+FFFD; line breaks in attributes are kept as references.
    static func escape(_ text: String, attribute: Bool = true) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n", "\t", "\r": result += attribute ? "&#\(scalar.value);" : String(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
