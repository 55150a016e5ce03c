/// What a plot draws of a series: per pixel column its lowest and highest value, in time order,
/// so that every peak and every dip is drawn however many values fall in one column.
public enum Downsample {
    /// The narrowest column width (2^shift µs) at which `times` spans at most `columns` columns.
    public static func columnShift(_ times: ClosedRange<Int64>, columns: Int) -> Int {
        var shift = 0
        while shift < 62, (times.upperBound >> Int64(shift)) - (times.lowerBound >> Int64(shift)) + 1 > Int64(max(1, columns)) {
            shift += 1
        }
        return shift
    }

    /// A point to draw, and whether the line breaks before it (a gap in the values).
    public struct Point: Sendable, Hashable {
        public var value: TimedValue
        public var breakBefore: Bool
    }

    /// Below this many points each is drawn as a dot too, so none is simplified away.
    public static let sparse = 60

    /// The points to draw: each column's minimum and maximum (one point when they are equal), in
    /// time order; the line breaks where consecutive values are more than `gap` µs apart; then,
    /// unless they are sparse, `simplified`.
    public static func points(_ grid: ColumnGrid<MinMaxCell>, shift: Int, gap: Int64 = .max) -> [Point] {
        var points: [Point] = []
        for (_, cell) in grid.columns(shift: shift) {
            cell.forEachPoint { value in
                let breakBefore = points.last.map { value.time - $0.value.time > gap } ?? true
                points.append(Point(value: value, breakBefore: breakBefore))
            }
        }
        return points.count <= sparse ? points : simplified(points)
    }

    /// Leaves out the points inside a run of equal values: the line through them is the same
    /// horizontal segment without them. Nothing else is dropped, so every extreme stays; nor is a
    /// point next to a break in the line.
    public static func simplified(_ points: [Point]) -> [Point] {
        guard points.count > 2 else { return points }
        var result: [Point] = [points[0]]
        result.reserveCapacity(points.count)
        for i in 1..<(points.count - 1) {
            let value = points[i].value.value
            if value == points[i - 1].value.value, value == points[i + 1].value.value, !points[i].breakBefore,
                !points[i + 1].breakBefore
            {
                continue
            }
            result.append(points[i])
        }
        result.append(points[points.count - 1])
        return result
    }
}
