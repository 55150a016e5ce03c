/// JUnit XML, the shape CI test reporters read: `testsuites > testsuite > testcase > failure`.
public enum JUnitXML {
    public struct Case: Sendable {
        public var name: String
        public var classname: String
        public var failure: (message: String, body: String)?
        public var error: (message: String, body: String)?
        public var skipped: String?

        public init(name: String, classname: String) {
            self.name = name
            self.classname = classname
        }
    }

    public struct Suite: Sendable {
        public var name: String
        public var cases: [Case] = []
        var failures: Int { cases.count { $0.failure != nil } }
        var errors: Int { cases.count { $0.error != nil } }
        var skipped: Int { cases.count { $0.skipped != nil } }

        public init(name: String, cases: [Case] = []) {
            self.name = name
            self.cases = cases
        }
    }

    public static func document(_ suites: [Suite], name: String) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escape(name))\" tests=\"\(suites.map(\.cases.count).reduce(0, +))\""
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
