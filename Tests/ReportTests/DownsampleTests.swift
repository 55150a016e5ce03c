import Testing

@testable import Report
import TestSupport

struct DownsampleTests {
    /// A noisy series with sharp spikes: what downsampling must not lose.
    static func series(count: Int, seed: UInt64, start: Int64 = 1_748_772_000_000_000) -> [TimedValue] {
        var random = TestRandom(seed: seed)
        var time = start
        return (0..<count).map { i in
            time += Int64.random(in: 1_000...200_000, using: &random)
            var value = Double.random(in: -1...1, using: &random) + Double(i % 1000) / 100
            if Int.random(in: 0..<5000, using: &random) == 0 { value += Double.random(in: -500...500, using: &random) }
            return TimedValue(time: time, value: value, frame: i + 1)
        }
    }

    @Test(arguments: [(200_000, 1 as UInt64), (3_000, 2), (50, 3)])
    func `every column keeps its exact minimum and maximum`(count: Int, seed: UInt64) throws {
        let values = Self.series(count: count, seed: seed)
        var grid = ColumnGrid<MinMaxCell>(capacity: 1024)
        for v in values { grid.add(v.time, v) }
        let times = values.first!.time...values.last!.time
        for columns in [512, 128, 32] {
            let shift = Downsample.columnShift(times, columns: columns)
            #expect((times.upperBound >> Int64(shift)) - (times.lowerBound >> Int64(shift)) < Int64(columns))
            #expect(shift >= grid.shift, "the grid is never coarser than the columns it is drawn in")
            // Brute force: each column's lowest and highest value.
            var low: [Int64: Double] = [:]
            var high: [Int64: Double] = [:]
            for v in values {
                let column = v.time >> Int64(shift)
                low[column] = min(low[column] ?? .infinity, v.value)
                high[column] = max(high[column] ?? -.infinity, v.value)
            }
            let drawn = Downsample.points(grid, shift: shift)
            var drawnLow: [Int64: Double] = [:]
            var drawnHigh: [Int64: Double] = [:]
            for p in drawn {
                let column = p.value.time >> Int64(shift)
                drawnLow[column] = min(drawnLow[column] ?? .infinity, p.value.value)
                drawnHigh[column] = max(drawnHigh[column] ?? -.infinity, p.value.value)
            }
            #expect(drawnLow == low, "columns \(columns)")
            #expect(drawnHigh == high, "columns \(columns)")
            #expect(drawn.count <= 2 * low.count)
            // Points are real values in time order, and the global peaks are among them.
            #expect(zip(drawn, drawn.dropFirst()).allSatisfy { $0.value.time <= $1.value.time })
            let byFrame = Dictionary(uniqueKeysWithValues: values.map { ($0.frame, $0) })
            #expect(drawn.allSatisfy { byFrame[$0.value.frame] == $0.value })
            #expect(drawn.contains { $0.value.value == values.map(\.value).max() })
            #expect(drawn.contains { $0.value.value == values.map(\.value).min() })
        }
    }

    @Test func `the grid stays within its capacity however long the series`() {
        var grid = ColumnGrid<MinMaxCell>(capacity: 64)
        var time: Int64 = 0
        for i in 0..<100_000 {
            time += 1_000_000
            grid.add(time, TimedValue(time: time, value: Double(i), frame: i))
        }
        let range = grid.columnRange(shift: grid.shift)!
        #expect(range.upperBound - range.lowerBound + 1 <= 64)
        #expect(grid.columns(shift: grid.shift).count <= 64)
    }

    @Test func `values far apart coarsen the grid to the narrowest width that holds them, cells exact`() {
        // Jumps of a microsecond to an hour, and back in time: each add may take many doublings.
        var random = TestRandom(seed: 7)
        var time: Int64 = 1_748_772_000_000_000
        var values: [TimedValue] = []
        for i in 0..<3_000 {
            let jump = [1, 1_000, 1_000_000, 60_000_000, 3_600_000_000, -5_000_000][Int.random(in: 0..<6, using: &random)]
            time += Int64(jump) * Int64.random(in: 1...3, using: &random)
            // Values all different, so that which of two equal ones a cell keeps does not matter.
            values.append(TimedValue(time: time, value: Double(i % 2 == 0 ? i : -i), frame: i + 1))
        }
        var grid = ColumnGrid<MinMaxCell>(capacity: 256)
        var seen: [TimedValue] = []
        for v in values {
            grid.add(v.time, v)
            seen.append(v)
            // The narrowest power-of-two width at which everything so far spans `capacity` cells.
            let low = seen.map(\.time).min()!
            let high = seen.map(\.time).max()!
            var narrowest = 0
            while (high >> Int64(narrowest)) - (low >> Int64(narrowest)) + 1 > 256 { narrowest += 1 }
            guard grid.shift == narrowest else {
                Issue.record("after frame \(v.frame): shift \(grid.shift), not \(narrowest)")
                return
            }
        }
        // Each cell: its count, lowest and highest value.
        var expected: [Int64: (low: TimedValue, high: TimedValue, count: Int)] = [:]
        for v in values {
            let cell = v.time >> Int64(grid.shift)
            if let e = expected[cell] {
                expected[cell] = (v.value < e.low.value ? v : e.low, v.value > e.high.value ? v : e.high, e.count + 1)
            } else {
                expected[cell] = (v, v, 1)
            }
        }
        let columns = grid.columns(shift: grid.shift)
        #expect(columns.count == expected.count)
        for (index, cell) in columns {
            let e = expected[index]
            #expect(e?.count == cell.count && e?.low == cell.low && e?.high == cell.high, "cell \(index)")
        }
    }

    /// A clock going back and forth lands in the cells already there: one cell per column
    /// something fell in, never more, however many values.
    @Test func `values back in time join their cell`() {
        var grid = ColumnGrid<MinMaxCell>(capacity: 16)
        for i in 0..<10_000 {
            let time = Int64([0, 40_000, 1_000, 39_000][i % 4])
            grid.add(time, TimedValue(time: time, value: Double(i), frame: i))
        }
        #expect(grid.shift == 12)
        #expect(grid.cellCount == 2)
        #expect(grid.columns(shift: grid.shift).map(\.cell.count) == [5_000, 5_000])
    }

    @Test func `values out of time order go to their own column`() {
        var grid = ColumnGrid<MinMaxCell>(capacity: 16)
        for (t, v) in [(2000, 1.0), (5000, 2.0), (200, -3.0), (9000, 4.0)] {
            grid.add(Int64(t), TimedValue(time: Int64(t), value: v, frame: t))
        }
        #expect(grid.shift == 10)
        let points = Downsample.points(grid, shift: 10)
        #expect(points.map(\.value.value) == [-3, 1, 2, 4])
    }

    @Test func `a flat run keeps its ends, and the line breaks at gaps`() {
        var grid = ColumnGrid<MinMaxCell>(capacity: 4096)
        var values: [TimedValue] = []
        for i in 0..<200 { values.append(TimedValue(time: Int64(i) * 1000, value: 5, frame: i)) }
        for i in 0..<100 { values.append(TimedValue(time: 10_000_000 + Int64(i) * 1000, value: Double(i % 7), frame: 1000 + i)) }
        for v in values { grid.add(v.time, v) }
        #expect(grid.shift == 12)
        let points = Downsample.points(grid, shift: 12, gap: 50_000)
        // The flat run at 5 is its first and last point; the gap breaks the line once more.
        #expect(points[0].value.frame == 0)
        #expect(points[1].value.value == 5 && points[1].value.time >= 196_000)
        #expect(points.filter(\.breakBefore).count == 2)
        #expect(points[2].breakBefore && points[2].value.frame == 1000)
        // After the gap: the lowest and highest of each 4 ms column.
        #expect(points.count == 2 + 50)
    }
}
