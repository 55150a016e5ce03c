import JSON

/// Renders a `GoldenCheck` for a person (one status line per capture, details under those that
/// differ, a summary line last) or as one JSON object.
public struct CheckReport: Sendable {
    public var text: TextReport

    public init(colour: Bool = false, limit: Int? = nil) {
        text = TextReport(colour: colour, limit: limit)
    }

    public func render(_ check: GoldenCheck) -> String {
        var lines: [String] = []
        let style = text.style
        for result in check.results {
            switch result.outcome {
            case .compared where result.isUnexpectedlyEmpty:
                let colour = check.strict ? style.red : style.yellow
                lines.append(label("empty", colour) + "\(result.capture) (\(Self.emptyHint(result)))")
            case .compared(let report) where !report.hasDifferences && report.problems.isEmpty:
                lines.append(label("ok", style.green) + "\(result.capture) (\(readings(report.expectedCount)))")
            case .compared(let report):
                lines.append(label("differs", style.red) + result.capture)
                var details = [text.summary(report)] + text.decoderTable(report)
                if report.hasDifferences { details += [""] + text.entries(report) }
                lines += details.map { $0.isEmpty ? "" : "    " + $0 }
            case .noGolden:
                lines.append(
                    label("no golden", check.strict ? style.red : style.yellow)
                        + "\(result.capture) (`bluetape golden update \(result.capture)` writes \(result.golden))")
            case .unreadable(let message):
                lines.append(label("unreadable", style.red) + Self.naming(result.capture, message))
            case .badSetting(let message):
                lines.append(label("bad setting", style.red) + Self.naming(result.capture, message))
            }
        }
        for golden in check.obsoleteGoldens {
            lines.append(label("obsolete", check.strict ? style.red : style.yellow) + "\(golden) (its capture is gone)")
        }
        if !lines.isEmpty { lines.append("") }
        lines.append(summary(check))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `checked 5 captures: 3 ok, 1 differs, 1 unreadable; 1 obsolete golden`.
    public func summary(_ check: GoldenCheck) -> String {
        let summary = check.summary
        var parts = ["\(summary.passed) ok"]
        if summary.differing > 0 { parts.append("\(summary.differing) differ" + (summary.differing == 1 ? "s" : "")) }
        if summary.unreadable > 0 { parts.append("\(summary.unreadable) unreadable") }
        if summary.brokenGoldens > 0 {
            parts.append(plural(summary.brokenGoldens, "golden with broken lines", "goldens with broken lines"))
        }
        if summary.badSettings > 0 { parts.append("\(summary.badSettings) with a bad setting") }
        if summary.withoutGolden > 0 { parts.append("\(summary.withoutGolden) without golden") }
        if summary.emptyGoldens > 0 { parts.append(plural(summary.emptyGoldens, "empty golden", "empty goldens")) }
        if summary.obsoleteGoldens > 0 {
            parts.append(plural(summary.obsoleteGoldens, "obsolete golden", "obsolete goldens"))
        }
        var line = "checked \(plural(summary.captures, "capture", "captures")): " + parts.joined(separator: ", ")
        if check.strict, summary.withoutGolden + summary.obsoleteGoldens + summary.emptyGoldens > 0 {
            line += " (strict: missing, obsolete and empty goldens fail the check)"
        } else if check.strict, summary.captures == 0 {
            line += " (strict: a check of nothing fails)"
        }
        return text.style.bold(line)
    }

    /// What goes to stderr: unreadable inputs, wrong settings and lines that are not readings, one per line.
    public func diagnostics(_ check: GoldenCheck) -> [String] {
        check.results.flatMap { result -> [String] in
            switch result.outcome {
            case .compared(let report):
                text.problems(report, expected: result.golden, actual: result.capture + " (decoded)")
            case .unreadable(let message), .badSetting(let message): [Self.naming(result.capture, message)]
            case .noGolden: []
            }
        }
    }

    /// Why an empty golden is reported, and the golden.json entry that accepts it.
    static func emptyHint(_ result: GoldenCheck.Result) -> String {
        "no readings, and its golden holds none, so nothing is checked; " + allowEmptyHint(result.capture)
    }

    /// `if that is meant, say so in captures/golden.json: "captures": {"idle.btsnoop": {"allow_empty": true}}`.
    static func allowEmptyHint(_ capture: String) -> String {
        let slash = capture.lastIndex(of: "/")
        let name = slash.map { String(capture[capture.index(after: $0)...]) } ?? capture
        let config = slash.map { String(capture[...$0]) + GoldenConfig.fileName } ?? GoldenConfig.fileName
        return "if that is meant, say so in \(config): " + #""captures": {""# + name + #"": {"allow_empty": true}}"#
    }

    private func label(_ name: String, _ colour: (String) -> String) -> String {
        colour(name) + String(repeating: " ", count: max(12 - name.count, 1))
    }

    /// A message that names the capture, without naming it twice.
    static func naming(_ capture: String, _ message: String) -> String {
        message.hasPrefix(capture) ? message : "\(capture): \(message)"
    }

    // MARK: JSON

    public static func json(_ check: GoldenCheck) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        let summary = check.summary
        w.beginObject()
        w.key("summary")
        w.beginObject()
        for (name, value) in [
            ("captures", summary.captures), ("ok", summary.passed), ("differing", summary.differing),
            ("unreadable", summary.unreadable), ("broken_goldens", summary.brokenGoldens),
            ("without_golden", summary.withoutGolden), ("obsolete_goldens", summary.obsoleteGoldens),
            ("empty_goldens", summary.emptyGoldens), ("bad_settings", summary.badSettings),
        ] {
            w.key(escaping: name)
            w.int(value)
        }
        w.key("strict")
        w.bool(check.strict)
        w.endObject()
        w.key("captures")
        w.beginArray()
        for result in check.results {
            w.beginObject()
            w.key("capture")
            w.string(result.capture)
            w.key("golden")
            w.string(result.golden)
            w.key("status")
            switch result.outcome {
            case .compared(let report):
                let status =
                    report.hasDifferences || !report.problems.isEmpty
                    ? "differs" : result.isUnexpectedlyEmpty ? "empty_golden" : "ok"
                w.string(status)
                w.key("report")
                JSONReport.write(report, expected: result.golden, actual: result.capture, to: &w)
            case .noGolden:
                w.string("no_golden")
            case .unreadable(let message):
                w.string("unreadable")
                w.key("error")
                w.string(message)
            case .badSetting(let message):
                w.string("bad_setting")
                w.key("error")
                w.string(message)
            }
            w.endObject()
        }
        w.endArray()
        w.key("obsolete_goldens")
        w.beginArray()
        for golden in check.obsoleteGoldens { w.string(golden) }
        w.endArray()
        w.endObject()
        w.newline()
        return w.bytes
    }
}
