/// Damage found while reading records: reported, counted, and read past where the format allows.
public struct CaptureProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file ends inside a record; every whole record before it was read.
        case truncatedTail = "truncated_tail"
        /// A record header that cannot be right (length too large, impossible values).
        case badRecord = "bad_record"
        /// Reading could not go on past this point.
        case readError = "read_error"
    }

    public var kind: Kind
    /// The frame number the damaged record would have had.
    public var frame: Int
    /// Byte offset of the damaged record in the file.
    public var offset: Int64
    public var reason: String
    /// Bytes skipped to find the next good record, when reading resumed.
    public var skippedBytes: Int64?

    public init(kind: Kind, frame: Int, offset: Int64, reason: String, skippedBytes: Int64? = nil) {
        self.kind = kind
        self.frame = frame
        self.offset = offset
        self.reason = reason
        self.skippedBytes = skippedBytes
    }

    public var description: String {
        var text = "frame \(frame) at byte offset \(offset): \(reason)"
        if let skippedBytes {
            text += "; resumed after skipping \(skippedBytes) bytes"
        } else if kind == .badRecord {
            // Reading resumes only at records that pass every check: none did, and none is invented.
            text += "; no record after it passes the checks, so the rest is not read"
        }
        return text
    }
}
