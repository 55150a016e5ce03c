/// Anything that hands over capture records in file order: a capture file's reader, several rotated
/// files joined into one, a live capture. The tracker reads from this, never from a file format.
public protocol RecordSource: AnyObject {
    /// The next record, or nil at the end (or where damage stopped reading). The record's payload
    /// is valid until the next call.
    func next() -> CaptureRecord?
    /// Damage found so far: damaged or cut records, with frame and byte offset.
    var problems: ProblemLog { get }
    /// `problems.count`, asked after every record: without copying the log.
    var problemCount: Int { get }
    /// Calls `body` with each remaining record and `problemCount` as it stands after reading it,
    /// until it returns false: `next()` in a loop, for a source that can do it without going through
    /// a wrapper (and its reference counting) for each record.
    func forEachRecord(_ body: (CaptureRecord, _ problemCount: Int) -> Bool)
}

extension RecordSource {
    public var problemCount: Int { problems.count }

    public func forEachRecord(_ body: (CaptureRecord, _ problemCount: Int) -> Bool) {
        while let record = next(), body(record, problemCount) {}
    }
}
