import BluetoothPackets
import ByteReading
import Layouts
import PayloadDecoders
import Readings

/// Statistics of readings per decoder: how many, how many failed, and per numeric field the
/// minimum, median and maximum; with `--layout` rules, how many readings broke each rule.
public struct ReadingStatistics: Sendable {
    public static let maximumDecoders = 256
    /// Fields followed per decoder; a layout with more is cut there.
    public static let maximumFields = 64

    public struct FieldStatistics: Sendable {
        public let name: String
        /// Its integer and floating-point values.
        public fileprivate(set) var values = QuantileSketch()
        /// Values that were text, lists, booleans or null.
        public fileprivate(set) var other = 0
    }

    public struct DecoderStatistics: Sendable {
        public let id: String
        public fileprivate(set) var readings = 0
        /// Readings with a decode error instead of fields.
        public fileprivate(set) var errors = 0
        /// Payloads the readings stand for, repeats of a de-duplicated reading included.
        public fileprivate(set) var payloads = 0
        public fileprivate(set) var devices = 0
        public fileprivate(set) var fields: [FieldStatistics] = []
        /// Its layout's rules and how often they were broken (filled in by `finish(rules:)`).
        public fileprivate(set) var rules: [RuleChecker.Entry] = []
    }

    public private(set) var decoders: [DecoderStatistics] = []
    /// Payloads no decoder matched (only listed with `decode --all`).
    public private(set) var undecoded = 0
    /// Readings of decoders past `maximumDecoders`.
    public private(set) var otherReadings = 0
    public private(set) var ruleSummary: RuleChecker.Summary?

    private var decoderIndex: [String: Int] = [:]
    /// Per device: readings by decoder index.
    private var deviceIndex = AddressIndex()
    private var perDevice: [(address: BluetoothAddress, counts: [(decoder: Int, readings: Int)])] = []
    private var last: (id: String, index: Int)?

    public init() {}

    public init(_ readings: some Sequence<Reading>, rules: RuleChecker.Summary? = nil) {
        for reading in readings { add(reading) }
        finish(rules: rules)
    }

    public mutating func add(_ reading: Reading) {
        guard let index = count(reading), case .fields(let fields) = reading.outcome else { return }
        add(fields, to: index)
    }

    /// `add` for a reading of a pipeline that packs fields (`ReadingsPipeline(packingInto:)`):
    /// its fields read where `span` says they lie in `packer` (the reading's own when the span
    /// is `.none`), with no `Fields` made for them.
    public mutating func add(_ reading: Reading, packedIn packer: FieldPacker, span: FieldPacker.Span) {
        guard !span.isNone else { return add(reading) }
        guard let index = count(reading), case .fields = reading.outcome else { return }
        packer.forEachField(in: span) { position, name, number in
            if !recordKnown(number, StringBits(name), position, index) { record(number, copy name, position, index) }
        }
    }

    /// Counts a reading for its decoder and device, and gives its decoder's index; nil when it
    /// has no decoder or its decoder is past the limit.
    private mutating func count(_ reading: Reading) -> Int? {
        guard let id = reading.decoder else {
            undecoded += 1
            return nil
        }
        guard let index = slot(id) else {
            otherReadings += 1
            return nil
        }
        decoders[index].readings += 1
        decoders[index].payloads += max(1, reading.repeats ?? 1)
        if let address = reading.address { count(address, index) }
        if case .error = reading.outcome { decoders[index].errors += 1 }
        return index
    }

    /// Counts a reading of decoder `index` for its device.
    private mutating func count(_ address: BluetoothAddress, _ index: Int) {
        var device = deviceIndex[address]
        if device == nil {
            // Devices past the limit are not told apart (the device statistics stop there too).
            guard perDevice.count < EventStatistics.maximumDevices else { return }
            device = perDevice.count
            deviceIndex[address] = perDevice.count
            perDevice.append((address, []))
        }
        let d = device!
        if let i = perDevice[d].counts.firstIndex(where: { $0.decoder == index }) {
            perDevice[d].counts[i].readings += 1
        } else {
            perDevice[d].counts.append((index, 1))
            decoders[index].devices += 1
        }
    }

    private mutating func add(_ fields: Fields, to index: Int) {
        // Read in place: a copy of each field retained its name and value and released them.
        fields.entries.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                let number: Double?
                switch entries[position].value {
                case .int(let n): number = Double(n)
                case .double(let d): number = d
                default: number = nil
                }
                if !recordKnown(number, StringBits(entries[position].name), position, index) {
                    record(number, entries[position].name, position, index)
                }
            }
        }
    }

    /// Records a field's value (nil: not a number) for decoder `index` when the field at its
    /// position is the one kept there, by its string's representation: decoders give their
    /// fields in the same order every time, most often the same string each time (the name kept
    /// keeps it alive, so no other string can have it). False when it is not.
    @inline(__always)
    private mutating func recordKnown(_ number: Double?, _ name: StringBits, _ position: Int, _ index: Int) -> Bool {
        guard position < decoders[index].fields.count, StringBits(decoders[index].fields[position].name) == name
        else { return false }
        record(number, slot: position, index)
        return true
    }

    /// Records a field's value by its name: where it is kept, or a new place for it.
    private mutating func record(_ number: Double?, _ name: String, _ position: Int, _ index: Int) {
        guard let slot = fieldSlot(name, position, index) else { return }
        record(number, slot: slot, index)
    }

    @inline(__always)
    private mutating func record(_ number: Double?, slot: Int, _ index: Int) {
        if let number { decoders[index].fields[slot].values.add(number) } else { decoders[index].fields[slot].other += 1 }
    }

    /// Where a decoder's field is kept: its position in the reading tried first.
    private mutating func fieldSlot(_ name: String, _ position: Int, _ index: Int) -> Int? {
        if position < decoders[index].fields.count, decoders[index].fields[position].name == name { return position }
        if let found = decoders[index].fields.firstIndex(where: { $0.name == name }) { return found }
        guard decoders[index].fields.count < Self.maximumFields else { return nil }
        decoders[index].fields.append(FieldStatistics(name: name))
        return decoders[index].fields.count - 1
    }

    private mutating func slot(_ id: String) -> Int? {
        // A reading's id is most often the decoder's own string, the same each time: found by
        // its representation (the ids kept keep theirs alive) without hashing it.
        let bits = StringBits(id)
        if let last, StringBits(last.id) == bits { return last.index }
        // (A handful of decoders match in a capture; past them, by hashing.)
        for index in decoders.indices.prefix(32) where StringBits(decoders[index].id) == bits {
            last = (decoders[index].id, index)
            return index
        }
        if let last, last.id == id { return last.index }
        if let index = decoderIndex[id] {
            last = (id, index)
            return index
        }
        guard decoders.count < Self.maximumDecoders else { return nil }
        decoderIndex[id] = decoders.count
        decoders.append(DecoderStatistics(id: id))
        last = (id, decoders.count - 1)
        return decoders.count - 1
    }

    /// Attaches the rule checker's counts (when layouts with rules were given) to their decoders.
    public mutating func finish(rules: RuleChecker.Summary? = nil) {
        ruleSummary = rules
        guard let rules else { return }
        for entry in rules.entries {
            let index = slot(entry.decoder) ?? -1
            if index >= 0 { decoders[index].rules.append(entry) }
        }
    }

    /// The decoders that matched a device's payloads, with their reading counts, most first.
    public func decoders(of address: BluetoothAddress) -> [(id: String, readings: Int)] {
        guard let device = deviceIndex[address] else { return [] }
        return perDevice[device].counts.map { (decoders[$0.decoder].id, $0.readings) }
            .sorted { ($0.readings, $1.id) > ($1.readings, $0.id) }
    }
}
