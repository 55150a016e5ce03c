import JSON

/// Renders a `DiffReport` for a person: a summary line, a table per decoder, then each reading
/// that differs once, with runs of unchanged readings collapsed to a count.
public struct TextReport: Sendable {
    public var style: TextStyle
    /// How many differing readings to list before stopping with a count; nil lists all.
    public var limit: Int?

    public init(colour: Bool = false, limit: Int? = nil) {
        style = TextStyle(enabled: colour)
        self.limit = limit
    }

    /// The whole report of `bluetape diff`.
    public func render(_ report: DiffReport, expected: String, actual: String) -> String {
        var lines = [summary(report)]
        lines.append("expected: \(expected) (\(readings(report.expectedCount)))")
        lines.append("actual:   \(actual) (\(readings(report.actualCount)))")
        if !report.decoders.isEmpty {
            lines.append("")
            lines += decoderTable(report).map { "  " + $0 }
        }
        if report.hasDifferences {
            lines.append("")
            lines += entries(report)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1000 readings compared: 996 unchanged (3 within tolerance), 2 changed, 1 added, 1 missing`.
    public func summary(_ report: DiffReport) -> String {
        let counts = report.counts
        var parts = [
            "\(counts.unchanged) unchanged"
                + (counts.withinTolerance > 0 ? " (\(counts.withinTolerance) within tolerance)" : "")
        ]
        if counts.changed > 0 { parts.append("\(counts.changed) changed") }
        if counts.added > 0 { parts.append("\(counts.added) added") }
        if counts.missing > 0 { parts.append("\(counts.missing) missing") }
        if counts.duplicateKeys > 0 { parts.append(plural(counts.duplicateKeys, "duplicate key", "duplicate keys")) }
        if !report.problems.isEmpty {
            parts.append(plural(report.problems.count, "line not a reading", "lines not readings"))
        }
        return style.bold("\(readings(counts.total)) compared: " + parts.joined(separator: ", "))
    }

    /// Counts per decoder, one row each, numbers right-aligned under their heading.
    public func decoderTable(_ report: DiffReport) -> [String] {
        var columns: [(String, (DiffCounts) -> Int)] = [
            ("unchanged", { $0.unchanged }), ("changed", { $0.changed }), ("added", { $0.added }),
            ("missing", { $0.missing }),
        ]
        if report.counts.duplicateKeys > 0 { columns.append(("duplicate keys", { $0.duplicateKeys })) }
        let nameWidth = max(report.decoders.map(\.name.count).max() ?? 0, "decoder".count)
        let rows = report.decoders.map { decoder in
            (ReadingKey.printable(decoder.name), columns.map { String($0.1(decoder.counts)) })
        }
        let widths = columns.indices.map { column in
            max(columns[column].0.count, rows.map { $0.1[column].count }.max() ?? 0)
        }
        func row(_ name: String, _ cells: [String]) -> String {
            var line = name.padding(to: nameWidth)
            for (cell, width) in zip(cells, widths) { line += "  " + cell.padding(toRight: width) }
            return line
        }
        var lines = [row("decoder", columns.map(\.0))]
        for (name, cells) in rows { lines.append(row(name, cells)) }
        return lines
    }

    /// The differing readings in order, with the counts of unchanged ones between them.
    public func entries(_ report: DiffReport) -> [String] { entries(report, report.entries) }

    /// Only the differing readings of one decoder (nil: those with `"decoder": null`), without the
    /// counts of unchanged ones between them (those runs mix decoders).
    public func entries(_ report: DiffReport, of decoder: String?) -> [String] {
        entries(report, report.entries.filter { $0.key.map { $0.decoder == decoder } ?? false })
    }

    private func entries(_ report: DiffReport, _ selected: [DiffEntry]) -> [String] {
        let differences = selected.count { if case .unchanged = $0 { false } else { true } }
        var lines: [String] = []
        var shown = 0
        for entry in selected {
            if case .unchanged = entry {
            } else {
                if let limit, shown == limit {
                    lines.append(style.dim("… \(differences - shown) more differing readings not shown"))
                    break
                }
                shown += 1
            }
            lines += render(entry, alignment: report.alignment)
        }
        return lines
    }

    /// `expected.jsonl:3: not a reading: …`, one line per broken line.
    public func problems(_ report: DiffReport, expected: String, actual: String) -> [String] {
        report.problems.map { "\($0.side == .expected ? expected : actual):\($0.line): \($0.message)" }
    }

    // MARK: One entry

    func render(_ entry: DiffEntry, alignment: Alignment) -> [String] {
        switch entry {
        case .unchanged(let count):
            return [style.dim("… \(count) unchanged")]
        case .changed(let change):
            let frames = alignment == .sequence ? framesNote(change.expected.frame, change.actual.frame) : ""
            var lines = [style.yellow("~") + " \(change.key)" + frames]
            let width = change.changes.map(\.field.count).max() ?? 0
            for field in change.changes {
                var line = "    \(field.field.padding(to: width))  "
                line += style.red(field.expected?.jsonText ?? "(absent)")
                line += " → " + style.green(field.actual?.jsonText ?? "(absent)")
                if let tolerance = field.tolerance { line += style.dim("  (tolerance \(Self.number(tolerance)))") }
                lines.append(line)
            }
            return lines
        case .added(let reading):
            return [style.green("+") + " \(reading.key)" + note(reading, alignment)] + values(reading.reading)
        case .missing(let reading):
            return [style.red("-") + " \(reading.key)" + note(reading, alignment)] + values(reading.reading)
        case .duplicateKey(let duplicate):
            return [style.magenta("!") + " \(duplicate.key)  \(duplicate.explanation)"]
        }
    }

    private func note(_ reading: OneSidedReading, _ alignment: Alignment) -> String {
        alignment == .sequence ? framesNote(reading.location.frame, nil) : ""
    }

    private func framesNote(_ expected: Int64?, _ actual: Int64?) -> String {
        switch (expected, actual) {
        case (let e?, let a?) where e != a: " (frame \(e) → \(a))"
        case (let e?, _): " (frame \(e))"
        case (nil, let a?): " (frame \(a))"
        default: ""
        }
    }

    /// What a reading found on one side only holds: its fields, or its error.
    private func values(_ reading: JSONObject) -> [String] {
        for key in ["fields", "error"] {
            if let value = reading[key] { return ["    \(key)  \(value.jsonText)"] }
        }
        return ["    \(JSONValue.object(reading).jsonText)"]
    }

    static func number(_ value: Double) -> String {
        var writer = JSONWriter(capacity: 24)
        writer.double(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

func readings(_ count: Int) -> String { plural(count, "reading", "readings") }

func plural(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func padding(toRight width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// ANSI colours, for terminals only.
public struct TextStyle: Sendable {
    public var enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    public func bold(_ text: String) -> String { wrap("1", text) }
    public func dim(_ text: String) -> String { wrap("2", text) }
    public func red(_ text: String) -> String { wrap("31", text) }
    public func green(_ text: String) -> String { wrap("32", text) }
    public func yellow(_ text: String) -> String { wrap("33", text) }
    public func magenta(_ text: String) -> String { wrap("35", text) }
}
