#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A histogram of positive durations (microseconds) in bins of equal width on a log scale,
/// `binsPerDecade` to a factor of ten: intervals from a millisecond to an hour fit in a few hundred
/// counters, and a 100 ms interval with 10 ms of jitter still spreads over several bins.
public struct LogHistogram: Sendable {
    public static let binsPerDecade = 40

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

    static func bin(_ micros: Int64) -> Int {
        Int((log10(Double(micros)) * Double(binsPerDecade)).rounded(.down))
    }

    /// The lower edge of bin `bin`, in microseconds.
    public static func lowerEdge(_ bin: Int) -> Double { pow(10, Double(bin) / Double(binsPerDecade)) }

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

    /// The q-quantile to within a bin (its geometric middle); zeros count as 0.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Int((min(max(q, 0), 1) * Double(count - 1)).rounded(.down))
        if rank < zeros { return 0 }
        var seen = zeros
        for (i, n) in counts.enumerated() {
            seen += n
            if rank < seen { return Self.lowerEdge(offset + i) * pow(10, 0.5 / Double(Self.binsPerDecade)) }
        }
        return nil
    }

    /// Every bin from the lowest to the highest used, empty ones included:
    /// (lower edge, upper edge, count), edges in microseconds.
    public var bins: [(low: Double, high: Double, count: Int)] {
        counts.enumerated().map { (Self.lowerEdge(offset + $0.offset), Self.lowerEdge(offset + $0.offset + 1), $0.element) }
    }
}
