import CaptureModel

extension ProblemLog {
    /// Records why input ended before a whole record: an I/O error or a file cut mid-record.
    mutating func endOfInput(_ input: InputBuffer, frame: Int, recordOffset: Int64, needed: Int) {
        if let error = input.readError {
            add(CaptureProblem(kind: .readError, frame: frame, offset: recordOffset, reason: error))
        } else if input.available > 0 {
            add(
                CaptureProblem(
                    kind: .truncatedTail, frame: frame, offset: recordOffset,
                    reason: "file ends inside the record: \(input.available) of \(needed) bytes present"))
        }
        input.consume(input.available)
    }
}

extension InputBuffer {
    /// Skips ahead byte by byte until two plausible records follow each other (or one plausible
    /// record ends exactly at the end of the file). `recordSize(index)` gives the size of the
    /// record whose header starts at `index`, or nil when that header is not plausible.
    /// Returns the bytes skipped, or nil when no good record follows.
    func resynchronize(headerSize: Int, recordSize: (Int) -> Int?) -> Int64? {
        let damagedAt = offset
        consume(1)
        while fill(headerSize) {
            if let size = recordSize(0) {
                let confirmed = fill(size + 1) ? recordSize(size) != nil : available == size
                if confirmed { return offset - damagedAt }
            }
            consume(1)
        }
        consume(available)
        return nil
    }
}
