import JSON

/// Compares expected readings with actual ones, reading by reading and field by field.
///
/// Lines are compared as bytes first: identical texts, and identical lines within a frame, are
/// unchanged without being parsed. Only lines that differ are parsed and compared field by field.
public enum ReadingsDiff {
    /// `canonical`: both sides are known to be the tool's own readings as it writes them (a check
    /// whose readings came out byte for byte as its golden), so identical lines need no checking,
    /// only their decoder found for the counts.
    public static func compare(
        expected: ReadingLines, actual: ReadingLines, settings: DiffSettings = DiffSettings(), canonical: Bool = false
    ) -> DiffReport {
        var run = DiffRun(expected: expected, actual: actual, settings: settings)
        run.canonical = canonical
        run.compareAll()
        return run.builder.report(
            alignment: settings.alignment, expectedCount: expected.count, actualCount: actual.count,
            names: run.decoders.names)
    }
}

/// What `ReadingsDiff.compare` reports for a text compared with itself as canonical output,
/// made a run of whole lines at a time as the text is read (`golden check` of a golden its
/// capture still decodes to, byte for byte): the text is never held whole.
struct IdenticalTally {
    let settings: DiffSettings
    private var decoders = DecoderNames()
    private var builder = ReportBuilder()
    private var count = 0

    init(settings: DiffSettings) { self.settings = settings }

    /// The next lines of the text (numbered on from the last).
    mutating func add(_ lines: ReadingLines) {
        var run = DiffRun(expected: lines, actual: lines, settings: settings)
        run.canonical = true
        swap(&run.decoders, &decoders)
        swap(&run.builder, &builder)
        run.allIdentical()
        swap(&run.decoders, &decoders)
        swap(&run.builder, &builder)
        count += lines.count
    }

    mutating func report() -> DiffReport {
        builder.report(
            alignment: settings.alignment, expectedCount: count, actualCount: count, names: decoders.names)
    }
}

/// One comparison in progress.
struct DiffRun {
    let expected: ReadingLines
    let actual: ReadingLines
    let settings: DiffSettings
    let fields: FieldComparison
    var decoders = DecoderNames()
    var addresses = AddressNumbers()
    var builder = ReportBuilder()
    /// Both sides are the tool's canonical output (see `ReadingsDiff.compare`).
    var canonical = false

    init(expected: ReadingLines, actual: ReadingLines, settings: DiffSettings) {
        self.expected = expected
        self.actual = actual
        self.settings = settings
        fields = FieldComparison(settings)
    }

    mutating func compareAll() {
        if expected.isIdentical(to: actual) {
            allIdentical()
        } else if settings.alignment == .frame, let frames = frameOrder() {
            mergeFrames(frames.expected, frames.actual)
        } else {
            // Sequence alignment, or readings not in frame order: pair through keys of every line.
            join(Array(0..<expected.count), Array(0..<actual.count))
        }
    }

    /// Every reading the same on both sides, line for line.
    mutating func allIdentical() {
        for line in 0..<expected.count { identical(line, line) }
    }

    // MARK: Frame alignment

    /// Every line's frame, when both sides list readings in frame order (as decoders write them).
    private func frameOrder() -> (expected: [Int64?], actual: [Int64?])? {
        func frames(_ lines: ReadingLines) -> [Int64?]? {
            var result = [Int64?]()
            result.reserveCapacity(lines.count)
            var last = Int64.min
            for line in 0..<lines.count {
                let frame = ReadingPrefix.frame(lines, line)
                if let frame {
                    guard frame >= last else { return nil }
                    last = frame
                }
                result.append(frame)
            }
            return result
        }
        guard let left = frames(expected), let right = frames(actual) else { return nil }
        return (left, right)
    }

    /// Walks both sides one frame at a time; a frame whose lines are identical on both sides is
    /// unchanged, any other is paired by key within the frame (where duplicate keys must lie).
    private mutating func mergeFrames(_ left: [Int64?], _ right: [Int64?]) {
        var i = 0
        var j = 0
        var group: (expected: [Int], actual: [Int]) = ([], [])
        while true {
            while i < left.count, left[i] == nil {
                problem(.expected, i)
                i += 1
            }
            while j < right.count, right[j] == nil {
                problem(.actual, j)
                j += 1
            }
            guard i < left.count || j < right.count else { return }
            let frame = min(i < left.count ? left[i]! : .max, j < right.count ? right[j]! : .max)
            group.expected.removeAll(keepingCapacity: true)
            group.actual.removeAll(keepingCapacity: true)
            while i < left.count, left[i] == frame || left[i] == nil {
                if left[i] == nil { problem(.expected, i) } else { group.expected.append(i) }
                i += 1
            }
            while j < right.count, right[j] == frame || right[j] == nil {
                if right[j] == nil { problem(.actual, j) } else { group.actual.append(j) }
                j += 1
            }
            if group.expected.count == group.actual.count,
                zip(group.expected, group.actual).allSatisfy({ expected.isIdentical($0, to: actual, $1) })
            {
                for (e, a) in zip(group.expected, group.actual) { identical(e, a) }
            } else {
                join(group.expected, group.actual)
            }
        }
    }

    // MARK: Pairing by key

    private struct Item {
        var line: Int
        var key: AlignKey
        var decoder: Int
        var frame: Int64?
        /// The address, for showing it.
        var address: Address?
        var index: Int64?
        var sequence: Int?
    }

    /// An address where the scan found it in the line, or as the full check read it.
    private enum Address {
        case range(Range<Int>, escaped: Bool)
        case text(String)
    }

    /// What pairs two readings: frame or position in sequence, decoder, address, index. All numbers,
    /// so a million keys hash quickly.
    private struct AlignKey: Hashable {
        var position: Int64
        var decoder: Int
        var address: Int
        var index: Int64
    }

    private struct SequenceGroup: Hashable {
        var decoder: Int
        var address: Int
    }

    private mutating func join(_ left: [Int], _ right: [Int]) {
        let expectedItems = items(.expected, left)
        let actualItems = items(.actual, right)
        let outcomes = KeyJoin.join(expected: expectedItems.map(\.key), actual: actualItems.map(\.key))
        for outcome in outcomes {
            switch outcome {
            case .pair(let e, let a): pair(expectedItems[e], actualItems[a])
            case .added(let a): oneSided(.actual, actualItems[a])
            case .missing(let e): oneSided(.expected, expectedItems[e])
            case .duplicate(let e, let a):
                let (first, side) = e.first.map { (expectedItems[$0], Side.expected) } ?? (actualItems[a[0]], .actual)
                let duplicate = DuplicateKey(
                    key: key(first, side), expectedLines: e.map { expected.lineNumber(expectedItems[$0].line) },
                    actualLines: a.map { actual.lineNumber(actualItems[$0].line) })
                builder.duplicate(duplicate, decoder: first.decoder)
            }
        }
    }

    private var requiresFrame: Bool { settings.alignment == .frame }

    private mutating func items(_ side: Side, _ numbers: [Int]) -> [Item] {
        let lines = side == .expected ? expected : actual
        var items: [Item] = []
        items.reserveCapacity(numbers.count)
        var sequences: [SequenceGroup: Int] = [:]
        for number in numbers {
            var item: Item
            if let prefix = ReadingPrefix.scan(lines, number, .key(requireFrame: requiresFrame)) {
                let decoder = decoders.number(lines, prefix.decoder, escaped: prefix.escaped)
                var address = -1
                if settings.alignsByAddress, let range = prefix.address {
                    address = addresses.number(lines, range, escaped: prefix.escaped)
                }
                item = Item(
                    line: number, key: AlignKey(position: 0, decoder: decoder, address: address, index: .min),
                    decoder: decoder, frame: prefix.frame,
                    address: prefix.address.map { .range($0, escaped: prefix.escaped) }, index: prefix.index)
            } else {
                // Not a line the scan can read for certain: the full check reads it, or says why it is no reading.
                switch ReadingCheck.check(lines.line(number), requireFrame: requiresFrame) {
                case .failure(let problem):
                    report(side, number, problem)
                    continue
                case .success(let reading):
                    let head = reading.head
                    let decoder = decoders.number(head.decoder)
                    var address = -1
                    if settings.alignsByAddress, let text = head.address { address = addresses.number(text) }
                    item = Item(
                        line: number, key: AlignKey(position: 0, decoder: decoder, address: address, index: .min),
                        decoder: decoder, frame: head.frame, address: head.address.map { .text($0) },
                        index: head.index)
                }
            }
            switch settings.alignment {
            case .frame:
                item.key.position = item.frame!
                item.key.index = item.index ?? .min
            case .sequence:
                let group = SequenceGroup(decoder: item.decoder, address: item.key.address)
                let count = sequences[group, default: 0] + 1
                sequences[group] = count
                item.key.position = Int64(count)
                item.sequence = count
            }
            items.append(item)
        }
        return items
    }

    private func key(_ item: Item, _ side: Side) -> ReadingKey {
        let lines = side == .expected ? expected : actual
        let address: String? =
            switch item.address {
            case .range(let range, let escaped)?: lines.string(range, escaped: escaped)
            case .text(let text)?: text
            case nil: nil
            }
        return ReadingKey(
            decoder: decoders.names[item.decoder], address: address, frame: item.frame,
            index: settings.alignment == .frame ? item.index : nil, sequence: item.sequence)
    }

    private mutating func pair(_ left: Item, _ right: Item) {
        if expected.isIdentical(left.line, to: actual, right.line) {
            builder.unchanged(decoder: left.decoder, expectedLine: expected.lineNumber(left.line))
            return
        }
        let old = parse(.expected, left.line)
        let new = parse(.actual, right.line)
        guard let old, let new else {
            // A broken line is reported as a problem; its partner stands alone.
            if let old { oneSided(.expected, left, old) }
            if let new { oneSided(.actual, right, new) }
            return
        }
        let (changes, withinTolerance) = fields.compare(old, new)
        if changes.isEmpty {
            builder.unchanged(
                decoder: left.decoder, expectedLine: expected.lineNumber(left.line), withinTolerance: withinTolerance)
            return
        }
        let change = ChangedReading(
            key: key(left, .expected),
            expected: ReadingLocation(line: expected.lineNumber(left.line), frame: left.frame),
            actual: ReadingLocation(line: actual.lineNumber(right.line), frame: right.frame), changes: changes)
        builder.changed(change, decoder: left.decoder)
    }

    private mutating func oneSided(_ side: Side, _ item: Item, _ parsed: JSONObject? = nil) {
        guard let reading = parsed ?? parse(side, item.line) else { return }
        let lines = side == .expected ? expected : actual
        let line = lines.lineNumber(item.line)
        let entry = OneSidedReading(
            key: key(item, side), location: ReadingLocation(line: line, frame: item.frame),
            expectedLine: side == .expected ? line : builder.lastExpectedLine, reading: reading)
        if side == .expected {
            builder.missing(entry, decoder: item.decoder)
        } else {
            builder.added(entry, decoder: item.decoder)
        }
    }

    // MARK: Lines

    /// Identical lines on both sides: unchanged, counted under the decoder the line names.
    private mutating func identical(_ left: Int, _ right: Int) {
        if canonical, let decoder = ReadingPrefix.writtenDecoder(expected, left) {
            builder.unchanged(
                decoder: decoders.number(expected, decoder, escaped: false), expectedLine: expected.lineNumber(left))
            return
        }
        if let prefix = ReadingPrefix.scan(expected, left, .decoder(requireFrame: requiresFrame)) {
            let decoder = decoders.number(expected, prefix.decoder, escaped: prefix.escaped)
            builder.unchanged(decoder: decoder, expectedLine: expected.lineNumber(left))
            return
        }
        switch ReadingCheck.check(expected.line(left), requireFrame: requiresFrame) {
        case .success(let reading):
            builder.unchanged(decoder: decoders.number(reading.head.decoder), expectedLine: expected.lineNumber(left))
        case .failure(let problem):
            report(.expected, left, problem)
            report(.actual, right, problem)
        }
    }

    /// The reading on `line`, whole; nil (and the line reported) when it is not one.
    private mutating func parse(_ side: Side, _ line: Int) -> JSONObject? {
        let lines = side == .expected ? expected : actual
        switch ReadingCheck.check(lines.line(line), requireFrame: requiresFrame) {
        case .success(let reading): return reading.object
        case .failure(let problem):
            report(side, line, problem)
            return nil
        }
    }

    /// Records why `line` is not a reading, in the words of the check that found it.
    private mutating func problem(_ side: Side, _ line: Int) {
        let lines = side == .expected ? expected : actual
        if case .failure(let problem) = ReadingCheck.check(lines.line(line), requireFrame: requiresFrame) {
            report(side, line, problem)
        }
    }

    private mutating func report(_ side: Side, _ line: Int, _ problem: NotAReading) {
        let lines = side == .expected ? expected : actual
        builder.problem(LineProblem(side: side, line: lines.lineNumber(line), message: problem.message))
    }
}

extension ReadingLines {
    /// The contents of a JSON string found by the prefix scan, unescaped when it needs to be.
    func string(_ range: Range<Int>, escaped: Bool) -> String {
        if escaped, let value = try? JSONValue.parse(bytes[(range.lowerBound - 1)..<(range.upperBound + 1)]).string {
            return value
        }
        return String(decoding: bytes[range], as: UTF8.self)
    }
}
