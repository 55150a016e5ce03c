/// A stream of timed values kept in at most `capacity` cells of equal width, in bounded memory
/// however long the capture: when the values span more cells than that, neighbouring cells are
/// merged in pairs and the width doubles.
///
/// Cells are aligned on the Unix epoch and their widths are powers of two microseconds, so the
/// cells of every grid nest in those of any coarser one: the page draws pixel columns that are
/// unions of cells, and what each column keeps (the minimum and maximum, say) is exact for it.
public struct ColumnGrid<Cell: GridCell>: Sendable {
    public let capacity: Int
    /// Cells are 2^shift microseconds wide.
    public private(set) var shift = 0
    /// The cells something fell in, in time order, each with its index (its cell starts at
    /// `index << shift` µs); the first and the last are at most `capacity` cells apart. Only
    /// these are kept: a series' values are often much sparser than the cells between them, and
    /// appending and merging cells nothing fell in cost three times what the values did.
    private var indices: [Int64] = []
    private var cells: [Cell] = []

    public init(capacity: Int = 1024) { self.capacity = max(2, capacity) }

    public var isEmpty: Bool { cells.isEmpty }

    /// Cells kept (something fell in each).
    var cellCount: Int { cells.count }

    public mutating func add(_ time: Int64, _ item: Cell.Item) {
        var index = time >> Int64(shift)
        guard let last = indices.last else {
            // Room for all it may hold at once: growing by doubling copied each series' cells.
            indices.reserveCapacity(capacity)
            cells.reserveCapacity(capacity)
            indices.append(index)
            cells.append(Cell(item))
            return
        }
        // The common case: the last cell, as time goes on.
        if index == last {
            cells[cells.count - 1].add(item)
            return
        }
        while max(index, indices[indices.count - 1]) - min(index, indices[0]) + 1 > Int64(capacity) {
            coarsen()
            index = time >> Int64(shift)
        }
        if index > indices[indices.count - 1] {
            indices.append(index)
            cells.append(Cell(item))
            return
        }
        // Earlier than the last cell: a capture's clock stepped back.
        let position = insertionPoint(of: index)
        if indices[position] == index {
            cells[position].add(item)
        } else {
            indices.insert(index, at: position)
            cells.insert(Cell(item), at: position)
        }
    }

    /// Where `index` is, or goes, among the cells (none of them later than the last).
    private func insertionPoint(of index: Int64) -> Int {
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Doubles the cell width, merging the cells that come to share an index, in place.
    private mutating func coarsen() {
        var kept = 0
        for position in indices.indices {
            let index = indices[position] >> 1
            if kept > 0, indices[kept - 1] == index {
                let later = cells[position]
                cells[kept - 1].merge(later)
            } else {
                indices[kept] = index
                cells[kept] = cells[position]
                kept += 1
            }
        }
        indices.removeLast(indices.count - kept)
        cells.removeLast(cells.count - kept)
        shift += 1
    }

    /// The cells merged into columns 2^columnShift µs wide (at least as wide as the cells), as
    /// (column index, cell) in time order; empty columns are left out. Column `i` covers
    /// `i << columnShift ..< (i + 1) << columnShift` µs.
    public func columns(shift columnShift: Int) -> [(index: Int64, cell: Cell)] {
        let extra = Int64(max(0, columnShift - shift))
        var result: [(index: Int64, cell: Cell)] = []
        for (position, cell) in cells.enumerated() where !cell.isEmpty {
            let column = indices[position] >> extra
            if let last = result.last, last.index == column {
                result[result.count - 1].cell.merge(cell)
            } else {
                result.append((column, cell))
            }
        }
        return result
    }

    /// The range of cell indices at `columnShift`, or nil when empty.
    public func columnRange(shift columnShift: Int) -> ClosedRange<Int64>? {
        guard let first = indices.first, let last = indices.last else { return nil }
        let extra = Int64(max(0, columnShift - shift))
        return (first >> extra)...(last >> extra)
    }
}

/// What a grid keeps per cell.
public protocol GridCell: Sendable {
    associatedtype Item: Sendable
    /// A cell nothing fell in.
    static var empty: Self { get }
    var isEmpty: Bool { get }
    init(_ item: Item)
    mutating func add(_ item: Item)
    /// Takes in a cell that comes later in time (either may be empty).
    mutating func merge(_ later: Self)
}

/// One drawn value: when, what, and from which frame of the capture.
public struct TimedValue: Sendable, Hashable {
    public var time: Int64
    public var value: Double
    /// Kept in 32 bits: a grid holds a thousand cells of two values for every plotted series.
    private var storedFrame: Int32

    public var frame: Int { Int(storedFrame) }

    public init(time: Int64, value: Double, frame: Int) {
        self.time = time
        self.value = value
        storedFrame = Int32(clamping: frame)
    }
}

/// The lowest and the highest value of a cell (the earlier one on ties), and how many there were.
public struct MinMaxCell: GridCell {
    public var low: TimedValue
    public var high: TimedValue
    private var storedCount: Int32

    public var count: Int { Int(storedCount) }

    public static let empty = MinMaxCell(TimedValue(time: 0, value: 0, frame: 0), count: 0)
    public var isEmpty: Bool { count == 0 }

    public init(_ item: TimedValue) { self.init(item, count: 1) }

    init(_ item: TimedValue, count: Int) {
        low = item
        high = item
        storedCount = Int32(clamping: count)
    }

    public mutating func add(_ item: TimedValue) {
        guard storedCount > 0 else {
            self = MinMaxCell(item)
            return
        }
        if storedCount < .max { storedCount += 1 }
        if item.value < low.value { low = item }
        if item.value > high.value { high = item }
    }

    public mutating func merge(_ later: MinMaxCell) {
        guard later.count > 0 else { return }
        guard storedCount > 0 else {
            self = later
            return
        }
        storedCount = Int32(clamping: Int(storedCount) + Int(later.storedCount))
        if later.low.value < low.value { low = later.low }
        if later.high.value > high.value { high = later.high }
    }

    /// The cell's one or two points in time order (one when the lowest and highest value are
    /// equal), given to `body` without making an array: a page has one cell per pixel column.
    public func forEachPoint(_ body: (TimedValue) -> Void) {
        if low == high || low.value == high.value {
            body(low.time <= high.time ? low : high)
        } else if low.time <= high.time {
            body(low)
            body(high)
        } else {
            body(high)
            body(low)
        }
    }
}

/// How many things happened in a cell.
public struct CountCell: GridCell {
    public var count: Int

    public static let empty = CountCell(0)
    public var isEmpty: Bool { count == 0 }
    public init(_ item: Int) { count = item }
    public mutating func add(_ item: Int) { count += item }
    public mutating func merge(_ later: CountCell) { count += later.count }
}
