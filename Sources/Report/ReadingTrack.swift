import BluetoothPackets
import Layouts
import PayloadDecoders
import Readings
import Statistics

/// Something marked on a curve: a broken layout rule or a difference from the golden readings.
public struct Marker: Sendable {
    public enum Kind: Int, Sendable, CaseIterable {
        case violation, goldenChanged, goldenAdded, goldenMissing
    }

    public var kind: Kind
    public var time: Int64
    public var value: Double
    public var frame: Int
    public var text: String
}

/// A reading that differs from its golden, as `bluetape diff` finds it, located for the plots.
public struct GoldenDifference: Sendable {
    public enum Kind: Sendable {
        /// In both, with different values.
        case changed
        /// In the capture, not in the golden.
        case added
        /// In the golden, not in the capture.
        case missing
    }

    public struct Field: Sendable {
        public var name: String
        /// The values as numbers, where they are numbers.
        public var expected: Double?
        public var actual: Double?
        /// "22.5 → 22.58".
        public var text: String

        public init(name: String, expected: Double?, actual: Double?, text: String) {
            self.name = name
            self.expected = expected
            self.actual = actual
            self.text = text
        }
    }

    public var kind: Kind
    public var frame: Int
    public var decoder: String
    /// The address as readings write it.
    public var address: String?
    public var index: Int?
    public var fields: [Field]
    /// For missing readings: the golden's timestamp (µs).
    public var timestamp: Int64?

    public init(
        kind: Kind, frame: Int, decoder: String, address: String?, index: Int?, fields: [Field], timestamp: Int64? = nil
    ) {
        self.kind = kind
        self.frame = frame
        self.decoder = decoder
        self.address = address
        self.index = index
        self.fields = fields
        self.timestamp = timestamp
    }
}

/// The first marker of a cell, and how many fell in it.
public struct MarkerCell: GridCell {
    public var first: Marker
    public var count: Int

    public static let empty = MarkerCell(Marker(kind: .violation, time: 0, value: 0, frame: 0, text: ""), count: 0)
    public var isEmpty: Bool { count == 0 }
    public init(_ item: Marker) { self.init(item, count: 1) }
    init(_ item: Marker, count: Int) {
        first = item
        self.count = count
    }
    public mutating func add(_ item: Marker) {
        if count == 0 { first = item }
        count += 1
    }
    public mutating func merge(_ later: MarkerCell) {
        if count == 0 { first = later.first }
        count += later.count
    }
}

/// What the report draws from the readings of one capture: one plot per (device, numeric field),
/// one series per decoder in it, with the rule violations and golden differences on the curve.
public struct ReadingTrack: Sendable {
    /// Series drawn; readings of further ones are counted in `seriesNotDrawn`.
    public static let maximumSeries = 768
    /// Violations and golden differences listed in the report's tables.
    public static let maximumListed = 500

    public struct Series: Sendable {
        public let decoder: String
        public fileprivate(set) var values = ColumnGrid<MinMaxCell>(capacity: 1024)
        public fileprivate(set) var count = 0
        public fileprivate(set) var minimum = Double.infinity
        public fileprivate(set) var maximum = -Double.infinity
        /// Time between consecutive values: where the line should break for a gap.
        public fileprivate(set) var spacing = LogHistogram()
        public fileprivate(set) var markers = [ColumnGrid<MarkerCell>](repeating: ColumnGrid(capacity: 256), count: Marker.Kind.allCases.count)
        public fileprivate(set) var markerCounts = [Int](repeating: 0, count: Marker.Kind.allCases.count)
        fileprivate var lastTime: Int64?
    }

    public struct Plot: Sendable {
        public let device: BluetoothAddress?
        public let field: String
        public let unit: String?
        public fileprivate(set) var series: [Series] = []
    }

    public private(set) var plots: [Plot] = []
    public private(set) var seriesNotDrawn = 0
    public private(set) var violations: [RuleViolation] = []
    public private(set) var violationCount = 0
    public private(set) var differences: [GoldenDifference] = []
    public private(set) var differenceCount = 0
    public private(set) var readings = 0

    private let unit: @Sendable (_ decoder: String, _ field: String) -> String?
    private var golden: [Int: [GoldenDifference]] = [:]
    private var missing: [GoldenDifference] = []

    private struct GroupKey: Hashable {
        var address: BluetoothAddress?
        var decoder: String
    }

    /// The plots of one device's readings from one decoder, by field position.
    private struct Group {
        var fields: [(name: String, plot: Int, series: Int)?] = []
    }

    private var groups: [GroupKey: Int] = [:]
    private var groupFields: [Group] = []
    private var plotIndex: [PlotKey: Int] = [:]
    private var seriesCount = 0

    private struct PlotKey: Hashable {
        var address: BluetoothAddress?
        var field: String
    }

    /// - Parameters:
    ///   - units: the unit a decoder gives a field, when it describes it.
    ///   - golden: the readings that differ from their golden (`--golden`).
    public init(
        units: @escaping @Sendable (_ decoder: String, _ field: String) -> String? = { _, _ in nil },
        golden: [GoldenDifference] = []
    ) {
        unit = units
        differenceCount = golden.count
        differences = Array(golden.prefix(Self.maximumListed))
        for difference in golden {
            if difference.kind == .missing { missing.append(difference) } else { self.golden[difference.frame, default: []].append(difference) }
        }
    }

    public mutating func add(_ reading: Reading, violations: [RuleViolation] = []) {
        readings += 1
        guard let decoder = reading.decoder, case .fields(let fields) = reading.outcome else {
            if !violations.isEmpty { note(violations) }
            return
        }
        let key = GroupKey(address: reading.address, decoder: decoder)
        let group: Int
        if let known = groups[key] {
            group = known
        } else {
            group = groupFields.count
            groups[key] = group
            groupFields.append(Group())
        }
        var touched: [(plot: Int, series: Int, value: Double, field: String)] = []
        for (position, field) in fields.entries.enumerated() {
            let number: Double
            switch field.value {
            case .int(let n): number = Double(n)
            case .double(let d) where d.isFinite: number = d
            default: continue
            }
            guard let (plot, series) = slot(group, position, field.name, reading.address, decoder) else { continue }
            add(number, reading, plot, series)
            touched.append((plot, series, number, field.name))
        }
        if !violations.isEmpty {
            note(violations)
            for violation in violations {
                for t in touched where violation.field == nil || violation.field == t.field {
                    mark(t.plot, t.series, Marker(kind: .violation, time: reading.timestamp, value: t.value, frame: reading.frame, text: violation.message))
                }
            }
        }
        if let differences = golden[reading.frame] {
            let address = reading.address?.description
            for difference in differences where difference.decoder == decoder && difference.address == address && difference.index == reading.index {
                for t in touched {
                    switch difference.kind {
                    case .changed:
                        guard let change = difference.fields.first(where: { $0.name == t.field }) else { continue }
                        mark(t.plot, t.series, Marker(kind: .goldenChanged, time: reading.timestamp, value: t.value, frame: reading.frame, text: "golden: \(change.text)"))
                    case .added:
                        mark(t.plot, t.series, Marker(kind: .goldenAdded, time: reading.timestamp, value: t.value, frame: reading.frame, text: "not in the golden"))
                    case .missing:
                        break
                    }
                }
            }
        }
    }

    /// Marks the golden's readings that the capture lacks, on the plots of their device and field.
    public mutating func finish() {
        for difference in missing {
            guard let time = difference.timestamp else { continue }
            let address = difference.address.flatMap { BluetoothAddress($0) }
            for field in difference.fields {
                guard let value = field.expected, let plot = plotIndex[PlotKey(address: address, field: field.name)],
                    let series = plots[plot].series.firstIndex(where: { $0.decoder == difference.decoder }) ?? (plots[plot].series.isEmpty ? nil : 0)
                else { continue }
                mark(plot, series, Marker(kind: .goldenMissing, time: time, value: value, frame: difference.frame, text: "in the golden, not in the capture: \(field.text)"))
            }
        }
        missing = []
        golden = [:]
    }

    private mutating func note(_ found: [RuleViolation]) {
        violationCount += found.count
        for violation in found where violations.count < Self.maximumListed { violations.append(violation) }
    }

    private mutating func add(_ value: Double, _ reading: Reading, _ plot: Int, _ series: Int) {
        let time = reading.timestamp
        plots[plot].series[series].values.add(time, TimedValue(time: time, value: value, frame: reading.frame))
        plots[plot].series[series].count += 1
        if value < plots[plot].series[series].minimum { plots[plot].series[series].minimum = value }
        if value > plots[plot].series[series].maximum { plots[plot].series[series].maximum = value }
        if let last = plots[plot].series[series].lastTime, time >= last {
            plots[plot].series[series].spacing.add(micros: time - last)
        }
        plots[plot].series[series].lastTime = time
    }

    private mutating func mark(_ plot: Int, _ series: Int, _ marker: Marker) {
        plots[plot].series[series].markers[marker.kind.rawValue].add(marker.time, marker)
        plots[plot].series[series].markerCounts[marker.kind.rawValue] += 1
    }

    /// The plot and series of a field, made on first sight; nil past `maximumSeries`.
    private mutating func slot(
        _ group: Int, _ position: Int, _ name: String, _ address: BluetoothAddress?, _ decoder: String
    ) -> (Int, Int)? {
        if position < groupFields[group].fields.count, let known = groupFields[group].fields[position], known.name == name {
            return (known.plot, known.series)
        }
        if let known = groupFields[group].fields.first(where: { $0?.name == name }), let known {
            return (known.plot, known.series)
        }
        guard seriesCount < Self.maximumSeries else {
            seriesNotDrawn += 1
            return nil
        }
        let key = PlotKey(address: address, field: name)
        let plot: Int
        if let existing = plotIndex[key] {
            plot = existing
        } else {
            plot = plots.count
            plotIndex[key] = plot
            plots.append(Plot(device: address, field: name, unit: unit(decoder, name) ?? Units.fromName(name)))
        }
        plots[plot].series.append(Series(decoder: decoder))
        seriesCount += 1
        let entry = (name: name, plot: plot, series: plots[plot].series.count - 1)
        while groupFields[group].fields.count <= position { groupFields[group].fields.append(nil) }
        if groupFields[group].fields[position] == nil {
            groupFields[group].fields[position] = entry
        } else {
            groupFields[group].fields.append(entry)
        }
        return (entry.plot, entry.series)
    }
}
