import CaptureModel

/// What `bluetape info` reports about a capture: counts, time span and damage.
public struct CaptureSummary: Sendable {
    public var path: String
    public var format: CaptureFormat
    public var linkType: LinkType
    public var records = 0
    /// The earliest and latest timestamps (capinfos' "first" and "last" packet time): records are
    /// not always in time order.
    public var firstTimestamp: Int64?
    public var lastTimestamp: Int64?
    /// Records whose timestamp is earlier than the record before them.
    public var outOfOrder = 0
    public var kinds: [RecordKind: Int] = [:]
    public var adapters: [UInt16: Int] = [:]
    /// Records kept shorter than they were (snapped by the capturing tool, cut by Android's snooz ring).
    public var snapped = 0
    public var problems = ProblemLog()
    /// Where the records came from: archive layers, logs found and read, joined parts, notes.
    public var contents = CaptureContents()

    /// Damaged records plus a cut tail: everything the reader could not read as a whole record.
    public var damaged: Int { problems.count }

    public var durationMicros: Int64? {
        guard let first = firstTimestamp, let last = lastTimestamp else { return nil }
        // A damaged capture's timestamps can span more than Int64 holds: the duration saturates.
        let (duration, overflow) = last.subtractingReportingOverflow(first)
        return overflow ? .max : duration
    }

    /// Reads the whole capture once. Memory stays flat: nothing is kept per record.
    public init(reading reader: CaptureReader) {
        path = reader.path
        format = reader.format
        linkType = reader.linkType
        var kindCounts = [Int](repeating: 0, count: RecordKind.allCases.count)
        var adapterCounts: [UInt16: Int] = [:]
        var lastAdapter: UInt16 = 0
        var lastAdapterCount = 0
        var previous: Int64?
        var earliest = Int64.max
        var latest = Int64.min
        reader.forEach { record in
            records += 1
            let ts = record.timestamp
            if let previous, ts < previous { outOfOrder += 1 }
            previous = ts
            if ts < earliest { earliest = ts }
            if ts > latest { latest = ts }
            kindCounts[Int(record.kind.rawValue)] += 1
            if record.isSnapped { snapped += 1 }
            // Almost every record is on the same adapter as the one before: count runs, not records.
            if record.adapter == lastAdapter {
                lastAdapterCount += 1
            } else {
                adapterCounts[lastAdapter, default: 0] += lastAdapterCount
                lastAdapter = record.adapter
                lastAdapterCount = 1
            }
            return true
        }
        if records > 0 {
            firstTimestamp = earliest
            lastTimestamp = latest
        }
        if lastAdapterCount > 0 { adapterCounts[lastAdapter, default: 0] += lastAdapterCount }
        for kind in RecordKind.allCases where kindCounts[Int(kind.rawValue)] > 0 {
            kinds[kind] = kindCounts[Int(kind.rawValue)]
        }
        adapters = adapterCounts
        problems = reader.problems
        contents = reader.contents
    }
}
