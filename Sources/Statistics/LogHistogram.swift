/// A histogram of positive durations (microseconds) in bins that are nearly equal on a log
/// scale: 16 per power of two (the float's exponent and the top four bits of its mantissa, no
/// logarithm computed), 3–6% wide. Intervals from a millisecond to an hour fit in a few hundred
/// counters, and a 100 ms interval with 10 ms of jitter still spreads over several bins.
public struct LogHistogram: Sendable {
    static let mantissaBits: UInt64 = 4

    private var counts: [Int] = []
    private var offset = 0
    /// Durations of zero (two events with one timestamp).
    public private(set) var zeros = 0
    public private(set) var count = 0

    public init() {}

    public mutating func add(micros: Int64) {
        guard micros >= 0 else { return }
        count += 1
        guard micros > 0 else {
            zeros += 1
            return
        }
        let bin = Self.bin(micros)
        if counts.isEmpty {
            counts = [0]
            offset = bin
        } else if bin < offset {
            counts.insert(contentsOf: repeatElement(0, count: offset - bin), at: 0)
            offset = bin
        } else if bin >= offset + counts.count {
            counts.append(contentsOf: repeatElement(0, count: bin - offset - counts.count + 1))
        }
        counts[bin - offset] += 1
    }

    @inline(__always)
    static func bin(_ micros: Int64) -> Int {
        Int(truncatingIfNeeded: Double(micros).bitPattern >> (52 - mantissaBits))
    }

    /// The lower edge of bin `bin`, in microseconds.
    public static func lowerEdge(_ bin: Int) -> Double {
        let step = Int(1 << mantissaBits)
        let power = Double(sign: .plus, exponentBitPattern: UInt(bin >> Int(mantissaBits)), significandBitPattern: 0)
        return power * (1 + Double(bin & (step - 1)) / Double(step))
    }

    /// Adds another histogram's counts.
    public mutating func merge(_ other: LogHistogram) {
        zeros += other.zeros
        count += other.count
        for (i, n) in other.counts.enumerated() where n > 0 {
            let bin = other.offset + i
            if counts.isEmpty {
                counts = [0]
                offset = bin
            } else if bin < offset {
                counts.insert(contentsOf: repeatElement(0, count: offset - bin), at: 0)
                offset = bin
            } else if bin >= offset + counts.count {
                counts.append(contentsOf: repeatElement(0, count: bin - offset - counts.count + 1))
            }
            counts[bin - offset] += n
        }
    }

    /// The q-quantile to within a bin (its middle); zeros count as 0.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Int((min(max(q, 0), 1) * Double(count - 1)).rounded(.down))
        if rank < zeros { return 0 }
        var seen = zeros
        for (i, n) in counts.enumerated() {
            seen += n
            if rank < seen { return (Self.lowerEdge(offset + i) + Self.lowerEdge(offset + i + 1)) / 2 }
        }
        return nil
    }

    /// Every bin from the lowest to the highest used, empty ones included:
    /// (lower edge, upper edge, count), edges in microseconds.
    public var bins: [(low: Double, high: Double, count: Int)] {
        counts.enumerated().map { (Self.lowerEdge(offset + $0.offset), Self.lowerEdge(offset + $0.offset + 1), $0.element) }
    }
}
