/// Quantiles of a stream of numbers in bounded memory.
///
/// The first `exactCapacity` values (1024 unless told) are kept as they are, and quantiles of them are exact. Past
/// that the values go into logarithmic buckets: 128 per power of two (the float's exponent and the
/// top seven bits of its mantissa, so no logarithm is computed), each at most 1/128 wide relative
/// to its lower edge, and a quantile comes back as the middle of the bucket holding the value of
/// the right rank: within a relative error α = 1/256 of it. At most `maximumBuckets` buckets per
/// sign are kept (32 powers of two); when
/// values span more than that, the buckets nearest zero are merged, and only quantiles that
/// fall among those smallest magnitudes lose the guarantee. Minimum, maximum, count and sum are
/// always exact.
public struct QuantileSketch: Sendable {
    /// Values kept exactly by default.
    public static let defaultExactCapacity = 1024
    /// α: the relative error of a quantile once the sketch has left its exact mode.
    public static let relativeAccuracy = 1.0 / 256
    public static let maximumBuckets = 4096
    /// Buckets per power of two, as bits of the mantissa.
    static let mantissaBits: UInt64 = 7

    public private(set) var count = 0
    public private(set) var minimum = Double.infinity
    public private(set) var maximum = -Double.infinity
    public private(set) var sum = 0.0

    private var exact: [Double] = []
    private var positive = LogBuckets()
    private var negative = LogBuckets()
    private var zeros = 0
    private var bucketed = false

    /// How many values are kept as they are before the buckets take over.
    public let exactCapacity: Int

    public init(exactCapacity: Int = defaultExactCapacity) { self.exactCapacity = max(0, exactCapacity) }

    /// Whether every quantile is still exact.
    public var isExact: Bool { !bucketed }

    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// Adds a value; NaN is ignored, and infinities count in the minimum and maximum only.
    public mutating func add(_ value: Double) {
        guard !value.isNaN else { return }
        count += 1
        if value < minimum { minimum = value }
        if value > maximum { maximum = value }
        guard value.isFinite else {
            // No bucket holds an infinity: it stays in the count, min and max, at the end of the ranks.
            if !bucketed, exact.count < exactCapacity {
                exact.append(value)
            } else {
                spill()
                if value > 0 { positive.add(index: LogBuckets.top) } else { negative.add(index: LogBuckets.top) }
            }
            return
        }
        sum += value
        if !bucketed {
            if exact.count < exactCapacity {
                exact.append(value)
                return
            }
            spill()
        }
        bucket(value)
    }

    /// Leaves exact mode: every kept value goes into its bucket.
    private mutating func spill() {
        guard !bucketed else { return }
        bucketed = true
        for value in exact {
            if value.isFinite {
                bucket(value)
            } else if value > 0 {
                positive.add(index: LogBuckets.top)
            } else {
                negative.add(index: LogBuckets.top)
            }
        }
        exact = []
    }

    private mutating func bucket(_ value: Double) {
        let magnitude = value.magnitude
        // Values below the smallest normal double share the zero bucket.
        guard magnitude >= Double.leastNormalMagnitude else {
            zeros += 1
            return
        }
        let index = Self.index(magnitude)
        if value > 0 { positive.add(index: index) } else { negative.add(index: index) }
    }

    /// The q-quantile (0 ≤ q ≤ 1), interpolated between the two nearest ranks as most statistics
    /// tools do by default (numpy's "linear", R's type 7); nil when empty.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let q = min(max(q, 0), 1)
        if !bucketed {
            var sorted = exact
            sorted.sort()
            return Self.interpolated(sorted, q)
        }
        let rank = q * Double(count - 1)
        let low = Int(rank.rounded(.down))
        let fraction = rank - Double(low)
        let a = value(atRank: low)
        guard fraction > 0, low + 1 < count else { return a }
        let b = value(atRank: low + 1)
        return a + (b - a) * fraction
    }

    public var median: Double? { quantile(0.5) }

    /// The value of rank `rank` (0-based) in bucketed mode: its bucket's representative, clamped
    /// to the exact minimum and maximum.
    private func value(atRank rank: Int) -> Double {
        if rank == 0 { return minimum }
        if rank == count - 1 { return maximum }
        var seen = 0
        // Negative values, largest magnitude first.
        for (index, n) in negative.descending() {
            seen += n
            if rank < seen { return clamp(-Self.representative(index)) }
        }
        seen += zeros
        if rank < seen { return clamp(0) }
        for (index, n) in positive.ascending() {
            seen += n
            if rank < seen { return clamp(Self.representative(index)) }
        }
        return maximum
    }

    private func clamp(_ value: Double) -> Double { min(max(value, minimum), maximum) }

    /// The bucket of a positive normal magnitude: its exponent and the top bits of its mantissa.
    @inline(__always)
    static func index(_ magnitude: Double) -> Int {
        Int(truncatingIfNeeded: magnitude.bitPattern >> (52 - mantissaBits))
    }

    /// The middle of bucket `index`.
    static func representative(_ index: Int) -> Double {
        if index == LogBuckets.top { return .infinity }
        let exponent = UInt(index >> Int(mantissaBits))
        let step = Int(1 << mantissaBits)
        let lower = Double(sign: .plus, exponentBitPattern: exponent, significandBitPattern: 0)
        return lower * (1 + (Double(index & (step - 1)) + 0.5) / Double(step))
    }

    /// Quantile of sorted values, interpolating between the nearest ranks.
    public static func interpolated(_ sorted: [Double], _ q: Double) -> Double? {
        guard let first = sorted.first else { return nil }
        guard sorted.count > 1 else { return first }
        let rank = min(max(q, 0), 1) * Double(sorted.count - 1)
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        let fraction = rank - Double(low)
        if fraction == 0 || sorted[low] == sorted[high] { return sorted[low] }
        return sorted[low] + (sorted[high] - sorted[low]) * fraction
    }
}

/// Counts per bucket index, stored densely from the lowest index kept to the highest.
struct LogBuckets: Sendable {
    /// The index infinities are counted under, above every finite bucket.
    static let top = Int.max

    private var counts: [Int32] = []
    private var offset = 0
    private var infinities = 0

    mutating func add(index: Int) {
        if index == Self.top {
            infinities += 1
            return
        }
        if counts.isEmpty {
            counts = [1]
            offset = index
            return
        }
        if index < offset {
            // A new smallest magnitude: grow downwards, unless that takes too many buckets, in
            // which case it joins the lowest bucket kept.
            let grow = offset - index
            if counts.count + grow > QuantileSketch.maximumBuckets {
                counts[0] += 1
                return
            }
            counts.insert(contentsOf: repeatElement(0, count: grow), at: 0)
            offset = index
        } else if index >= offset + counts.count {
            if index + 1 - offset > QuantileSketch.maximumBuckets {
                // Make room by merging the lowest buckets into the lowest one kept.
                let newOffset = index + 1 - QuantileSketch.maximumBuckets
                let cut = min(newOffset - offset, counts.count)
                let merged = counts[0..<cut].reduce(Int32(0), +)
                counts.removeFirst(cut)
                if counts.isEmpty { counts = [merged] } else { counts[0] += merged }
                offset = newOffset
            }
            counts.append(contentsOf: repeatElement(0, count: index - (offset + counts.count) + 1))
        }
        counts[index - offset] += 1
    }

    func ascending() -> [(Int, Int)] {
        var result = counts.enumerated().compactMap { $0.element > 0 ? (offset + $0.offset, Int($0.element)) : nil }
        if infinities > 0 { result.append((Self.top, infinities)) }
        return result
    }

    func descending() -> [(Int, Int)] { ascending().reversed() }
}
