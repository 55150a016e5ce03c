/// Turns capture timestamps into offsets from the start of a replay.
///
/// A gap is measured from the latest timestamp seen so far, so an element that arrives out of order
/// (a de-duplicated reading released after later events) is due at once instead of turning time back.
/// Gaps are cut to `maxGap` in capture time, then divided by `speed`. Offsets are computed from the
/// running total, so rounding never accumulates over a long capture.
package struct ReplaySchedule: Sendable {
    private let speed: Double
    /// Microseconds of capture time.
    private let maxGap: Int64?
    private var latest: Int64?
    /// Capture time played so far, after cutting, in microseconds.
    private var elapsed: Int64 = 0

    package init(speed: Double, maxGap: Duration?) {
        self.speed = speed
        self.maxGap = maxGap.map { Self.microseconds($0) }
    }

    /// The offset at which the element with this timestamp is due.
    package mutating func offset(for timestamp: Int64) -> Duration {
        if let latest, timestamp > latest {
            var gap = timestamp - latest
            if let maxGap, gap > maxGap { gap = maxGap }
            elapsed += gap
        }
        latest = max(latest ?? timestamp, timestamp)
        guard speed.isFinite else { return .zero }
        return .nanoseconds(Int64((Double(elapsed) * 1000 / speed).rounded()))
    }

    /// The next pass starts right after the last element of the one before: no gap between them.
    package mutating func startPass() {
        latest = nil
    }

    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
