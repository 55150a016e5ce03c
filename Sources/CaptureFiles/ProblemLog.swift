import CaptureModel

extension ProblemLog {
    /// Records why input ended before a whole record: an I/O error, damaged compressed data, a
    /// limit passed, or a file cut mid-record.
    mutating func endOfInput(_ input: InputBuffer, frame: Int, recordOffset: Int64, needed: Int) {
        if let failure = input.failure {
            let kind: CaptureProblem.Kind = failure.kind == .truncated ? .truncatedTail : .readError
            add(CaptureProblem(kind: kind, frame: frame, offset: recordOffset, reason: failure.message))
        } else if input.available > 0 {
            add(
                CaptureProblem(
                    kind: .truncatedTail, frame: frame, offset: recordOffset,
                    reason: "file ends inside the record: \(input.available) of \(needed) bytes present"))
        }
        input.consume(input.available)
    }
}

/// A place where a record might start after damage: how long it is and when it says it was made.
struct ResumeCandidate {
    var size: Int
    var timestamp: Int64
}

extension InputBuffer {
    /// Skips ahead byte by byte until two plausible records follow each other (or one plausible
    /// record ends exactly at the end of the input), so that reading never resumes on bytes that
    /// only look like a record. `candidate(index, reference)` checks the record whose header starts
    /// at `index`: its lengths, flags and type, and its time against `reference` (the last good
    /// record's, or for the second of the pair the first's; nil when no good record came before).
    /// Returns the bytes skipped, or nil when no good record follows: the rest is then unread.
    func resynchronize(
        headerSize: Int, after reference: Int64?, candidate: (Int, Int64?) -> ResumeCandidate?
    ) -> Int64? {
        let damagedAt = offset
        consume(1)
        while fill(headerSize) {
            if let first = candidate(0, reference) {
                let confirmed =
                    fill(first.size + 1) ? candidate(first.size, first.timestamp) != nil : available == first.size
                if confirmed { return offset - damagedAt }
            }
            consume(1)
        }
        consume(available)
        return nil
    }
}

/// Checks made on a candidate record's time before reading resumes at it.
enum PlausibleTime {
    /// µs since the Unix epoch of 2100-01-01: no capture is dated later.
    static let latest: Int64 = 4_102_444_800_000_000

    /// Within an hour before and a day after `reference`; with no reference, between 1970 and
    /// 2100. A damaged timestamp can be anywhere in Int64, so the difference cannot overflow.
    static func accepts(_ timestamp: Int64, after reference: Int64?) -> Bool {
        guard let reference else { return timestamp >= 0 && timestamp < latest }
        let (delta, overflow) = timestamp.subtractingReportingOverflow(reference)
        return !overflow && delta >= -3_600_000_000 && delta <= 86_400_000_000
    }
}
