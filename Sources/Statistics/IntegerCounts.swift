/// Exact counts of small integers (RSSI in dBm, a byte's values): quantiles are exact, memory is
/// one counter per value between the smallest and the largest seen.
public struct IntegerCounts: Sendable {
    private var counts: [Int] = []
    private var offset = 0
    public private(set) var count = 0

    public init() {}

    public mutating func add(_ value: Int8) { add(Int(value)) }

    /// Adds a value in -32768…32767 (other values are ignored: this is for small domains).
    public mutating func add(_ value: Int) {
        guard value >= -32768, value <= 32767 else { return }
        count += 1
        if counts.isEmpty {
            counts = [1]
            offset = value
            return
        }
        if value < offset {
            counts.insert(contentsOf: repeatElement(0, count: offset - value), at: 0)
            offset = value
        } else if value >= offset + counts.count {
            counts.append(contentsOf: repeatElement(0, count: value - offset - counts.count + 1))
        }
        counts[value - offset] += 1
    }

    public var minimum: Int? { count > 0 ? offset + (counts.firstIndex { $0 > 0 } ?? 0) : nil }
    public var maximum: Int? { count > 0 ? offset + (counts.lastIndex { $0 > 0 } ?? 0) : nil }

    /// The value of 0-based rank `rank`.
    private func value(atRank rank: Int) -> Int {
        var seen = 0
        for (i, n) in counts.enumerated() {
            seen += n
            if rank < seen { return offset + i }
        }
        return offset + counts.count - 1
    }

    /// The q-quantile, interpolated between the nearest ranks like `QuantileSketch`.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = min(max(q, 0), 1) * Double(count - 1)
        let low = Int(rank.rounded(.down))
        let a = Double(value(atRank: low))
        let fraction = rank - Double(low)
        guard fraction > 0, low + 1 < count else { return a }
        return a + (Double(value(atRank: low + 1)) - a) * fraction
    }

    public var median: Double? { quantile(0.5) }

    /// (value, count) for every value seen, ascending.
    public var histogram: [(value: Int, count: Int)] {
        counts.enumerated().compactMap { $0.element > 0 ? (offset + $0.offset, $0.element) : nil }
    }
}
