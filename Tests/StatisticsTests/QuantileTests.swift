#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Statistics
import Testing
import TestSupport

/// The q-quantile of sorted values, interpolated between the nearest ranks: numpy's default
/// ("linear"), written out here independently of the code under test.
func exactQuantile(_ sorted: [Double], _ q: Double) -> Double {
    let rank = q * Double(sorted.count - 1)
    let low = Int(rank)
    let high = min(low + 1, sorted.count - 1)
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
}

struct QuantileTests {
    static let quantiles = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1]

    @Test func `below its exact capacity the sketch gives exact quantiles`() {
        var random = TestRandom(seed: 7)
        let values = (0..<1000).map { _ in Double.random(in: -50...150, using: &random) }
        var sketch = QuantileSketch()
        for v in values { sketch.add(v) }
        #expect(sketch.isExact)
        let sorted = values.sorted()
        for q in Self.quantiles { #expect(sketch.quantile(q) == exactQuantile(sorted, q), "q \(q)") }
        #expect(sketch.minimum == sorted.first)
        #expect(sketch.maximum == sorted.last)
        #expect(sketch.count == 1000)
    }

    @Test(arguments: [
        ("log-normal intervals", 11 as UInt64), ("readings around zero", 12), ("a narrow band", 13),
    ])
    func `past its exact capacity every quantile is within the relative accuracy`(kind: String, seed: UInt64) {
        var random = TestRandom(seed: seed)
        let values: [Double] = (0..<200_000).map { _ in
            switch kind {
            case "log-normal intervals":
                // Advertising intervals from 2 ms to 20 s, spread over four decades.
                return 2000 * pow(10, Double.random(in: 0...4, using: &random))
            case "readings around zero":
                return Double.random(in: -40...60, using: &random)
            default:
                return 1013 + Double.random(in: -0.5...0.5, using: &random)
            }
        }
        var sketch = QuantileSketch()
        for v in values { sketch.add(v) }
        #expect(!sketch.isExact)
        let sorted = values.sorted()
        for q in Self.quantiles {
            let exact = exactQuantile(sorted, q)
            let estimate = sketch.quantile(q)!
            // Relative to the value, plus what interpolating across zero can add.
            let allowed = QuantileSketch.relativeAccuracy * max(abs(exact), abs(sorted[Int(q * Double(sorted.count - 1))])) + 1e-9
            #expect(abs(estimate - exact) <= allowed, "\(kind) q \(q): \(estimate) vs \(exact)")
        }
        #expect(sketch.minimum == sorted.first)
        #expect(sketch.maximum == sorted.last)
    }

    @Test func `the sketch's memory stays bounded over a huge range of values`() {
        var sketch = QuantileSketch(exactCapacity: 16)
        var random = TestRandom(seed: 3)
        for _ in 0..<100_000 { sketch.add(pow(10, Double.random(in: -30...30, using: &random))) }
        // Sixty decades are more than 4096 buckets of 1/128 of a power of two: the smallest ones
        // merge, and the upper quantiles keep their accuracy.
        let values = sketch.quantile(0.99)!
        #expect(values > 1e28 && values < 1e30)
        #expect(sketch.count == 100_000)
    }

    @Test func `integer counts give exact quantiles`() {
        var random = TestRandom(seed: 5)
        let values = (0..<5001).map { _ in Int.random(in: -100 ... -30, using: &random) }
        var counts = IntegerCounts()
        for v in values { counts.add(v) }
        let sorted = values.map(Double.init).sorted()
        for q in Self.quantiles { #expect(counts.quantile(q) == exactQuantile(sorted, q), "q \(q)") }
        #expect(counts.minimum == values.min())
        #expect(counts.maximum == values.max())
    }

    @Test func `log histogram bins hold their values and the counts add up`() {
        var histogram = LogHistogram()
        var random = TestRandom(seed: 9)
        var values: [Int64] = []
        for _ in 0..<10_000 {
            let v = Int64.random(in: 0...5_000_000, using: &random)
            values.append(v)
            histogram.add(micros: v)
        }
        #expect(histogram.count == values.count)
        let bins = histogram.bins
        #expect(bins.reduce(0) { $0 + $1.count } + histogram.zeros == values.count)
        for (low, high, _) in bins {
            // Each bin at most a sixteenth of a power of two wide.
            #expect(high > low && high / low <= 1.0625 + 1e-12)
        }
        // Every value falls in a bin whose edges hold it.
        for v in values.prefix(200) where v > 0 {
            let x = Double(v)
            #expect(bins.contains { $0.low <= x && x < $0.high && $0.count > 0 })
        }
        var merged = LogHistogram()
        merged.merge(histogram)
        merged.merge(histogram)
        #expect(merged.count == 2 * histogram.count)
    }
}

