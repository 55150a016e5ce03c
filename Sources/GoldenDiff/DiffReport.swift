import JSON

/// The outcome of comparing two sets of readings: counts first, then what differs, in order.
public struct DiffReport: Sendable, Equatable {
    public var alignment: Alignment
    /// Readings on each side (non-blank lines).
    public var expectedCount: Int
    public var actualCount: Int
    public var counts: DiffCounts
    /// Counts per decoder, sorted by decoder name.
    public var decoders: [DecoderCounts]
    /// Changed, added, missing and duplicated readings in reading order, with runs of unchanged
    /// readings between them counted.
    public var entries: [DiffEntry]
    /// Lines that are not readings; they are left out and the rest is compared.
    public var problems: [LineProblem]

    public var hasDifferences: Bool { counts.differences > 0 }
}

/// How many readings came out which way.
public struct DiffCounts: Sendable, Equatable {
    public var unchanged = 0
    /// Of `unchanged`: readings whose numbers differ, but only within tolerance.
    public var withinTolerance = 0
    public var changed = 0
    public var added = 0
    public var missing = 0
    /// Keys held by more than one reading on a side; their readings are not compared.
    public var duplicateKeys = 0

    public init() {}

    public var total: Int { unchanged + changed + added + missing + duplicateKeys }
    public var differences: Int { changed + added + missing + duplicateKeys }

    static func += (a: inout DiffCounts, b: DiffCounts) {
        a.unchanged += b.unchanged
        a.withinTolerance += b.withinTolerance
        a.changed += b.changed
        a.added += b.added
        a.missing += b.missing
        a.duplicateKeys += b.duplicateKeys
    }
}

public struct DecoderCounts: Sendable, Equatable {
    /// nil for readings with `"decoder": null`.
    public var decoder: String?
    public var counts: DiffCounts

    /// The decoder as a report shows it.
    public var name: String { decoder ?? ReadingKey.noDecoder }
}

/// What pairs a reading with its counterpart, as shown to a person.
public struct ReadingKey: Sendable, Hashable, CustomStringConvertible {
    /// nil for a reading with `"decoder": null` (what no decoder took, `bluetape decode --all`).
    public var decoder: String?
    public var address: String?
    /// The frame (with sequence alignment: the expected side's frame, or the actual's when absent there).
    public var frame: Int64?
    public var index: Int64?
    /// 1-based position among the readings of this address and decoder (sequence alignment only).
    public var sequence: Int?

    /// `frame 12 acme.pump C2:6B:30:F9:0E:C7 index 1`, or `acme.pump C2:6B:30:F9:0E:C7 #3` by sequence.
    public var description: String {
        var parts: [String] = []
        if sequence == nil, let frame { parts.append("frame \(frame)") }
        parts.append(decoder.map(Self.printable) ?? Self.noDecoder)
        if let address { parts.append(Self.printable(address)) }
        if let sequence { parts.append("#\(sequence)") }
        if let index { parts.append("index \(index)") }
        return parts.joined(separator: " ")
    }

    /// How a reading with `"decoder": null` is named in reports.
    public static let noDecoder = "(no decoder)"

    /// Text from a line as a terminal can show it: control characters written as escapes.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// Where a reading is: its line in its file and its frame.
public struct ReadingLocation: Sendable, Equatable {
    public var line: Int
    public var frame: Int64?
}

public enum DiffEntry: Sendable, Equatable {
    case unchanged(count: Int)
    case changed(ChangedReading)
    case added(OneSidedReading)
    case missing(OneSidedReading)
    case duplicateKey(DuplicateKey)
}

public struct ChangedReading: Sendable, Equatable {
    public var key: ReadingKey
    public var expected: ReadingLocation
    public var actual: ReadingLocation
    public var changes: [FieldChange]
}

/// A reading found on one side only.
public struct OneSidedReading: Sendable, Equatable {
    public var key: ReadingKey
    public var location: ReadingLocation
    /// The line of the expected reading before it (for added readings) or its own line (for
    /// missing ones): where an annotation on the expected file belongs. 0 when there is none.
    public var expectedLine: Int
    public var reading: JSONObject
}

/// Readings that share a key on one side or both, listed rather than paired by guess.
public struct DuplicateKey: Sendable, Equatable {
    public var key: ReadingKey
    public var expectedLines: [Int]
    public var actualLines: [Int]
}

extension DuplicateKey {
    /// `key not unique: expected line 4, actual lines 4, 5 (not compared)`.
    public var explanation: String {
        func list(_ side: String, _ lines: [Int]) -> String? {
            lines.isEmpty
                ? nil
                : "\(side) \(lines.count == 1 ? "line" : "lines") " + lines.map(String.init).joined(separator: ", ")
        }
        let sides = [list("expected", expectedLines), list("actual", actualLines)].compactMap { $0 }
        return "key not unique: \(sides.joined(separator: ", ")) (not compared)"
    }
}

public enum Side: String, Sendable {
    case expected, actual
}

/// A line that is not a reading (broken JSON, no frame or decoder).
public struct LineProblem: Sendable, Equatable {
    public var side: Side
    public var line: Int
    public var message: String
}

extension DiffEntry {
    /// The key of the reading the entry is about (nil for unchanged runs).
    public var key: ReadingKey? {
        switch self {
        case .unchanged: nil
        case .changed(let change): change.key
        case .added(let reading), .missing(let reading): reading.key
        case .duplicateKey(let duplicate): duplicate.key
        }
    }
}
