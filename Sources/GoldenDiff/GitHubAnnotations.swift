/// Renders a `GoldenCheck` as GitHub Actions workflow commands (`::error file=…,line=…::…`), so
/// each difference shows on the golden file's line in a pull request.
public struct GitHubAnnotations: Sendable {
    /// How many differing readings to annotate per capture; nil annotates all.
    public var limit: Int?

    public init(limit: Int? = nil) { self.limit = limit }

    public func render(_ check: GoldenCheck) -> String {
        var lines: [String] = []
        for result in check.results {
            switch result.outcome {
            case .compared where result.isUnexpectedlyEmpty:
                lines.append(
                    Self.command(
                        check.strict ? "error" : "warning", file: result.golden, line: nil,
                        "empty golden: \(CheckReport.emptyHint(result))"))
            case .compared(let report):
                lines += annotations(report, golden: result.golden, capture: result.capture)
            case .noGolden:
                lines.append(
                    Self.command(
                        check.strict ? "error" : "warning", file: result.capture, line: nil,
                        "no golden file: `bluetape golden update \(result.capture)` writes \(result.golden)"))
            case .unreadable(let message), .badSetting(let message):
                lines.append(
                    Self.command("error", file: result.capture, line: nil, CheckReport.naming(result.capture, message)))
            }
        }
        for golden in check.obsoleteGoldens {
            lines.append(
                Self.command(
                    check.strict ? "error" : "warning", file: golden, line: nil, "obsolete golden: its capture is gone")
            )
        }
        lines.append(CheckReport().summary(check))
        return lines.joined(separator: "\n") + "\n"
    }

    private func annotations(_ report: DiffReport, golden: String, capture: String) -> [String] {
        var lines: [String] = []
        for problem in report.problems {
            if problem.side == .expected {
                lines.append(Self.command("error", file: golden, line: problem.line, problem.message))
            } else {
                lines.append(
                    Self.command("error", file: capture, line: nil, "decoded line \(problem.line): \(problem.message)"))
            }
        }
        var shown = 0
        let differences = report.counts.differences
        for entry in report.entries {
            let annotation: (line: Int, message: String)
            switch entry {
            case .unchanged: continue
            case .changed(let change):
                let fields = change.changes.map {
                    "\($0.field) \($0.expected?.jsonText ?? "(absent)") → \($0.actual?.jsonText ?? "(absent)")"
                }
                annotation = (change.expected.line, "\(change.key) changed: " + fields.joined(separator: ", "))
            case .added(let reading):
                annotation = (
                    reading.expectedLine, "\(reading.key) added: the capture gives a reading the golden lacks"
                )
            case .missing(let reading):
                annotation = (reading.expectedLine, "\(reading.key) missing: the capture no longer gives this reading")
            case .duplicateKey(let duplicate):
                annotation = (duplicate.expectedLines.first ?? 0, "\(duplicate.key) \(duplicate.explanation)")
            }
            if let limit, shown == limit {
                lines.append(
                    Self.command(
                        "error", file: golden, line: nil, "\(differences - shown) more differing readings not annotated"
                    ))
                break
            }
            shown += 1
            lines.append(Self.command("error", file: golden, line: max(annotation.line, 1), annotation.message))
        }
        return lines
    }

    /// One workflow command, with its properties and message escaped as GitHub requires.
    static func command(_ kind: String, file: String, line: Int?, _ message: String) -> String {
        var properties = "file=" + escapeProperty(file)
        if let line { properties += ",line=\(line)" }
        return "::\(kind) \(properties)::\(escapeData(message))"
    }

    static func escapeData(_ text: String) -> String { escape(text, property: false) }

    static func escapeProperty(_ text: String) -> String { escape(text, property: true) }

    private static func escape(_ text: String, property: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case ":" where property: result += "%3A"
            case "," where property: result += "%2C"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
