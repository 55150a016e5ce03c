/// Renders a `GoldenUpdate`: one line per golden saying what the update did to it.
public enum UpdateReport {
    public static func render(_ update: GoldenUpdate) -> String {
        // Failed for a bad setting counts as failed: nothing was written either way.
        var lines: [String] = []
        var tally: [String: Int] = [:]
        for result in update.results {
            let (label, detail): (String, String)
            switch result.outcome {
            case .created(let count):
                (label, detail) = ("created", "\(result.golden) (\(readings(count)))")
            case .updated(let counts, let brokenLines, _):
                var changes = "\(counts.changed) changed, \(counts.added) added, \(counts.missing) removed"
                if counts.differences == 0 { changes = "same readings, bytes rewritten" }
                if brokenLines > 0 {
                    changes += ", " + plural(brokenLines, "broken line replaced", "broken lines replaced")
                }
                (label, detail) = ("updated", "\(result.golden): \(changes)")
            case .unchanged(let count):
                (label, detail) = ("unchanged", "\(result.golden) (\(readings(count)))")
            case .failed(let message), .badSetting(let message):
                (label, detail) = ("failed", CheckReport.naming(result.capture, message))
            }
            tally[label, default: 0] += 1
            lines.append(label.padding(to: 11) + detail)
        }
        for golden in update.obsoleteGoldens {
            lines.append("obsolete".padding(to: 11) + "\(golden) (its capture is gone; not removed)")
        }
        let parts = ["created", "updated", "unchanged", "failed"].compactMap { label in
            tally[label].map { "\($0) \(label)" }
        }
        if !lines.isEmpty { lines.append("") }
        lines.append("golden update: " + (parts.isEmpty ? "no captures" : parts.joined(separator: ", ")))
        return lines.joined(separator: "\n") + "\n"
    }

    /// What goes to stderr as errors: captures that could not be decoded, or whose settings are wrong.
    public static func diagnostics(_ update: GoldenUpdate) -> [String] {
        update.results.compactMap { result in
            switch result.outcome {
            case .failed(let message), .badSetting(let message): CheckReport.naming(result.capture, message)
            default: nil
            }
        }
    }

    /// What goes to stderr as warnings: goldens written empty that golden.json does not allow.
    public static func warnings(_ update: GoldenUpdate) -> [String] {
        update.results.filter(\.isUnexpectedlyEmpty).map { result in
            "\(result.capture) gives no readings, so its golden is empty and `bluetape golden check --strict` "
                + "fails it; " + CheckReport.allowEmptyHint(result.capture)
        }
    }
}
