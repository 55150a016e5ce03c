import CaptureModel

/// Reads a whole capture into events: records through the tracker, with the reader's damage reports
/// turned into `diagnostic` events where they happened.
public enum EventStream {
    /// Calls `body` with every event in order; returns the tracker's statistics.
    /// `stop` is asked before each record (a consumer that has gone away ends the read early).
    @discardableResult
    public static func read(
        _ reader: some RecordSource, options: Tracker.Options = Tracker.Options(), stop: () -> Bool = { false },
        _ body: (Event) -> Void
    ) -> Tracker.Statistics {
        let tracker = Tracker(options: options)
        var reported = 0
        var lastTimestamp: Int64 = 0
        while !stop(), let record = reader.next() {
            if reader.problems.count > reported {
                reported = reportProblems(reader, from: reported, timestamp: record.timestamp, tracker, body)
            }
            lastTimestamp = record.timestamp
            tracker.consume(record, body)
        }
        tracker.finish(body)
        reportProblems(reader, from: reported, timestamp: lastTimestamp, tracker, body)
        return tracker.statistics
    }

    /// The reader's new damage reports, through the tracker: behind any event it still holds.
    @discardableResult
    private static func reportProblems(
        _ reader: some RecordSource, from start: Int, timestamp: Int64, _ tracker: Tracker, _ body: (Event) -> Void
    ) -> Int {
        let log = reader.problems
        for problem in log.items.dropFirst(start) {
            tracker.report(
                Diagnostic(
                    layer: "capture", id: problem.kind == .truncatedTail ? "capture.truncated" : "capture.damaged",
                    reason: problem.description, offset: Int(problem.offset)),
                frame: problem.frame, timestamp: timestamp, body)
        }
        return log.items.count
    }
}
