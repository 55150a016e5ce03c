import BluetoothPackets
import ByteReading
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
    /// Series drawn; values of further ones are counted in `valuesNotDrawn`.
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

        fileprivate mutating func add(_ time: Int64, _ value: Double, _ frame: Int) {
            values.add(time, TimedValue(time: time, value: value, frame: frame))
            count += 1
            if value < minimum { minimum = value }
            if value > maximum { maximum = value }
            if let last = lastTime, time >= last { spacing.add(micros: time - last) }
            lastTime = time
        }
    }

    public struct Plot: Sendable {
        public let device: BluetoothAddress?
        public let field: String
        public let unit: String?
        /// Its series, as indices into `ReadingTrack.series`.
        public fileprivate(set) var seriesIndices: [Int] = []
    }

    public private(set) var plots: [Plot] = []
    /// Every plot's series, in one array (so that adding a value is one access, not two).
    public private(set) var series: [Series] = []
    public private(set) var valuesNotDrawn = 0
    public private(set) var violations: [RuleViolation] = []
    public private(set) var violationCount = 0
    public private(set) var differences: [GoldenDifference] = []
    public private(set) var differenceCount = 0
    public private(set) var readings = 0

    private let unit: @Sendable (_ decoder: String, _ field: String) -> String?
    private var golden: [Int: [GoldenDifference]] = [:]
    private var missing: [GoldenDifference] = []

    /// The plots of one device's readings from one decoder, by field position.
    private struct Group {
        var fields: [(name: String, series: Int)?] = []
    }

    /// Per device, its groups by decoder id.
    private var deviceGroups = AddressIndex()
    private var groupsOfDevice: [[(decoder: String, group: Int)]] = []
    private var groupFields: [Group] = []
    private var plotIndex: [PlotKey: Int] = [:]

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
        guard let (decoder, group, differences) = start(reading, violations), case .fields(let fields) = reading.outcome
        else { return }
        var touched: [Touched]? = violations.isEmpty && differences == nil ? nil : []
        // Read in place: a copy of each field retained its name and value and released them.
        fields.entries.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                guard let number = Self.number(entries[position].value) else { continue }
                plot(number, entries[position].name, position, group, reading, decoder, &touched)
            }
        }
        if let touched { mark(touched, of: reading, decoder, violations, differences) }
    }

    /// `add` for a reading of a pipeline that packs fields (`ReadingsPipeline(packingInto:)`):
    /// its fields read where `span` says they lie in `packer` (the reading's own when the span
    /// is `.none`), with no `Fields` made for them.
    public mutating func add(
        _ reading: Reading, packedIn packer: FieldPacker, span: FieldPacker.Span, violations: [RuleViolation] = []
    ) {
        guard !span.isNone else { return add(reading, violations: violations) }
        guard let (decoder, group, differences) = start(reading, violations), case .fields = reading.outcome
        else { return }
        var touched: [Touched]? = violations.isEmpty && differences == nil ? nil : []
        packer.forEachField(in: span) { position, name, number in
            guard let number, number.isFinite else { return }
            plot(number, name, position, group, reading, decoder, &touched)
        }
        if let touched { mark(touched, of: reading, decoder, violations, differences) }
    }

    /// Adds a field's value to its series (made on first sight), and notes it in `touched` when
    /// the reading is to be marked.
    @inline(__always)
    private mutating func plot(
        _ number: Double, _ name: borrowing String, _ position: Int, _ group: Int, _ reading: Reading,
        _ decoder: String, _ touched: inout [Touched]?
    ) {
        let index = knownSeries(StringBits(name), position, group) ?? slot(group, position, copy name, reading.address, decoder)
        guard let index else { return }
        series[index].add(reading.timestamp, number, reading.frame)
        touched?.append(Touched(series: index, value: number, field: copy name))
    }

    /// A plotted field of one reading, for its markers.
    private struct Touched {
        var series: Int
        var value: Double
        var field: String
    }

    /// Counts a reading and gives its decoder, its group and the golden's differences at its
    /// frame; nil (its violations noted) for a reading without decoder or fields.
    private mutating func start(_ reading: Reading, _ violations: [RuleViolation]) -> (String, Int, [GoldenDifference]?)? {
        readings += 1
        guard let decoder = reading.decoder, case .fields = reading.outcome else {
            if !violations.isEmpty { note(violations) }
            return nil
        }
        return (decoder, group(reading.address, decoder), golden.isEmpty ? nil : golden[reading.frame])
    }

    /// The series of the field at `position` when it is the one kept there, by its string's
    /// representation: decoders give their fields in the same order every time, most often the
    /// same string each time (the name kept keeps it alive, so no other string can have it).
    /// Mutating though it changes nothing: called in a closure that holds `self` inout, a
    /// non-mutating method was given a copy of all of `self`.
    @inline(__always)
    private mutating func knownSeries(_ name: StringBits, _ position: Int, _ group: Int) -> Int? {
        guard position < groupFields[group].fields.count, let known = groupFields[group].fields[position],
            StringBits(known.name) == name
        else { return nil }
        return known.series
    }

    /// Rare: marks a reading's plotted fields with the rules it broke and its differences from
    /// the golden.
    private mutating func mark(
        _ touched: [Touched], of reading: Reading, _ decoder: String, _ violations: [RuleViolation],
        _ differences: [GoldenDifference]?
    ) {
        if !violations.isEmpty {
            note(violations)
            for violation in violations {
                for t in touched where violation.field == nil || violation.field == t.field {
                    mark(t.series, Marker(kind: .violation, time: reading.timestamp, value: t.value, frame: reading.frame, text: violation.message))
                }
            }
        }
        guard let differences else { return }
        let address = reading.address?.description
        for difference in differences where difference.decoder == decoder && difference.address == address && difference.index == reading.index {
            for t in touched {
                switch difference.kind {
                case .changed:
                    guard let change = difference.fields.first(where: { $0.name == t.field }) else { continue }
                    mark(t.series, Marker(kind: .goldenChanged, time: reading.timestamp, value: t.value, frame: reading.frame, text: "golden: \(change.text)"))
                case .added:
                    mark(t.series, Marker(kind: .goldenAdded, time: reading.timestamp, value: t.value, frame: reading.frame, text: "not in the golden"))
                case .missing:
                    break
                }
            }
        }
    }

    /// A field's value when it is a number that can be drawn.
    static func number(_ value: FieldValue) -> Double? {
        switch value {
        case .int(let n): Double(n)
        case .double(let d) where d.isFinite: d
        default: nil
        }
    }

    /// The group of a device's readings from one decoder, made on first sight.
    private mutating func group(_ address: BluetoothAddress?, _ decoder: String) -> Int {
        if let device = deviceGroups[address] {
            for (id, group) in groupsOfDevice[device] where id == decoder { return group }
            groupsOfDevice[device].append((decoder, groupFields.count))
        } else {
            deviceGroups[address] = groupsOfDevice.count
            groupsOfDevice.append([(decoder, groupFields.count)])
        }
        groupFields.append(Group())
        return groupFields.count - 1
    }

    /// Marks the golden's readings that the capture lacks, on the plots of their device and field.
    public mutating func finish() {
        for difference in missing {
            guard let time = difference.timestamp else { continue }
            let address = difference.address.flatMap { BluetoothAddress($0) }
            for field in difference.fields {
                guard let value = field.expected, let plot = plotIndex[PlotKey(address: address, field: field.name)],
                    let index = plots[plot].seriesIndices.first(where: { series[$0].decoder == difference.decoder })
                        ?? plots[plot].seriesIndices.first
                else { continue }
                mark(index, Marker(kind: .goldenMissing, time: time, value: value, frame: difference.frame, text: "in the golden, not in the capture: \(field.text)"))
            }
        }
        missing = []
        golden = [:]
    }

    private mutating func note(_ found: [RuleViolation]) {
        violationCount += found.count
        for violation in found where violations.count < Self.maximumListed { violations.append(violation) }
    }

    private mutating func mark(_ index: Int, _ marker: Marker) {
        series[index].markers[marker.kind.rawValue].add(marker.time, marker)
        series[index].markerCounts[marker.kind.rawValue] += 1
    }

    /// The series of a field (an index into `series`), made with its plot on first sight; nil
    /// past `maximumSeries`.
    private mutating func slot(
        _ group: Int, _ position: Int, _ name: String, _ address: BluetoothAddress?, _ decoder: String
    ) -> Int? {
        if position < groupFields[group].fields.count, let known = groupFields[group].fields[position], known.name == name {
            return known.series
        }
        if let known = groupFields[group].fields.first(where: { $0?.name == name }), let known { return known.series }
        guard series.count < Self.maximumSeries else {
            valuesNotDrawn += 1
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
        plots[plot].seriesIndices.append(series.count)
        series.append(Series(decoder: decoder))
        let entry = (name: name, series: series.count - 1)
        while groupFields[group].fields.count <= position { groupFields[group].fields.append(nil) }
        if groupFields[group].fields[position] == nil {
            groupFields[group].fields[position] = entry
        } else {
            groupFields[group].fields.append(entry)
        }
        return entry.series
    }
}
