/// Collects entries and counts while a comparison runs. Decoders are known by number while
/// counting, so a million unchanged readings cost no string hashing.
struct ReportBuilder {
    private(set) var entries: [DiffEntry] = []
    private var pendingUnchanged = 0
    private var counts: [DiffCounts] = []
    private(set) var problems: [LineProblem] = []
    /// The expected line most recently accounted for, where an added reading is placed.
    private(set) var lastExpectedLine = 0

    mutating func unchanged(decoder: Int, expectedLine: Int, withinTolerance: Bool = false) {
        pendingUnchanged += 1
        lastExpectedLine = expectedLine
        update(decoder) {
            $0.unchanged += 1
            if withinTolerance { $0.withinTolerance += 1 }
        }
    }

    mutating func changed(_ change: ChangedReading, decoder: Int) {
        append(.changed(change))
        lastExpectedLine = change.expected.line
        update(decoder) { $0.changed += 1 }
    }

    mutating func added(_ reading: OneSidedReading, decoder: Int) {
        append(.added(reading))
        update(decoder) { $0.added += 1 }
    }

    mutating func missing(_ reading: OneSidedReading, decoder: Int) {
        append(.missing(reading))
        lastExpectedLine = reading.location.line
        update(decoder) { $0.missing += 1 }
    }

    mutating func duplicate(_ duplicate: DuplicateKey, decoder: Int) {
        append(.duplicateKey(duplicate))
        if let last = duplicate.expectedLines.last { lastExpectedLine = last }
        update(decoder) { $0.duplicateKeys += 1 }
    }

    mutating func problem(_ problem: LineProblem) {
        problems.append(problem)
    }

    private mutating func append(_ entry: DiffEntry) {
        flushUnchanged()
        entries.append(entry)
    }

    private mutating func flushUnchanged() {
        if pendingUnchanged > 0 { entries.append(.unchanged(count: pendingUnchanged)) }
        pendingUnchanged = 0
    }

    private mutating func update(_ decoder: Int, _ change: (inout DiffCounts) -> Void) {
        while counts.count <= decoder { counts.append(DiffCounts()) }
        change(&counts[decoder])
    }

    /// The finished report; `names` gives each decoder number its name.
    mutating func report(
        alignment: Alignment, expectedCount: Int, actualCount: Int, names: [String?]
    ) -> DiffReport {
        flushUnchanged()
        var byName: [String?: DiffCounts] = [:]
        var total = DiffCounts()
        for (number, counts) in counts.enumerated() {
            byName[names[number], default: DiffCounts()] += counts
            total += counts
        }
        // By name, and readings no decoder took last.
        let decoders = byName.sorted { ($0.key == nil ? 1 : 0, $0.key ?? "") < ($1.key == nil ? 1 : 0, $1.key ?? "") }
            .map { DecoderCounts(decoder: $0.key, counts: $0.value) }
        return DiffReport(
            alignment: alignment, expectedCount: expectedCount, actualCount: actualCount, counts: total,
            decoders: decoders, entries: entries,
            problems: problems.sorted {
                ($0.side == .expected ? 0 : 1, $0.line) < ($1.side == .expected ? 0 : 1, $1.line)
            })
    }
}
