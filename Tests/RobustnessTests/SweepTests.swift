import BluetoothTracking
import CaptureFiles
import CaptureModel
import TestSupport
import Testing

/// A capture read whole, with where each record ends: what a damaged copy is compared with.
struct Original: Sendable, CustomTestStringConvertible {
    enum Framing: Sendable { case btsnoop, packetLogger, pcap }

    var name: String
    var bytes: [UInt8]
    var framing: Framing
    var records: [StoredRecord]
    var offsets: [Int64]
    /// Where each record ends: the next one's offset, the file's end for the last.
    var ends: [Int64]
    /// Bytes before the first record that every prefix needs (the btsnoop file header).
    var headerSize: Int

    var testDescription: String { name }

    init?(name: String, bytes: [UInt8]) {
        guard let outcome = readCapture(bytes), outcome.problems.isEmpty, !outcome.records.isEmpty,
            let reader = try? CaptureReader(bytes: bytes, formats: testFormats)
        else { return nil }
        self.name = name
        self.bytes = bytes
        switch reader.format {
        case .btsnoop: framing = .btsnoop
        case .packetLogger: framing = .packetLogger
        default: framing = .pcap
        }
        records = outcome.records
        offsets = outcome.offsets
        ends = Array(outcome.offsets.dropFirst()) + [Int64(bytes.count)]
        headerSize = framing == .btsnoop ? 16 : 0
    }

    /// A capture of `count` consecutive records from `first` on: a small real file to damage.
    func slice(from first: Int, count: Int) -> Original? {
        guard framing != .pcap, first < records.count else { return nil }
        let last = min(first + count, records.count) - 1
        let body = Array(bytes[Int(offsets[first])..<Int(ends[last])])
        return Original(name: "\(name)[\(first)…\(last)]", bytes: Array(bytes.prefix(headerSize)) + body)
    }

    /// Records that end at or before `offset`: damage at `offset` cannot touch them.
    func recordsBefore(_ offset: Int) -> Int {
        // Binary search: `ends` grows.
        var low = 0
        var high = ends.count
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= Int64(offset) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Index of the record that holds byte `offset`, or nil when it is in the file header.
    func record(holding offset: Int) -> Int? {
        let index = recordsBefore(offset)
        return offset < headerSize || index == ends.count ? nil : index
    }
}

/// The captures swept: every shipped capture, and the small and medium real captures of
/// ../shared/captures when that folder is present.
enum SweptCaptures {
    static let shipped: [Original] = TestPaths.list(TestPaths.captures).filter { $0.hasSuffix(".btsnoop") }.compactMap {
        name in TestPaths.readFile(TestPaths.captures + "/" + name).flatMap { Original(name: name, bytes: $0) }
    }

    /// Shared captures up to 120 KB (larger ones add time, not kinds of records).
    static let shared: [Original] = TestPaths.sharedCaptureFiles.compactMap { path in
        guard let bytes = TestPaths.readFile(path), bytes.count <= 120_000 else { return nil }
        return Original(name: String(path.split(separator: "/").last!), bytes: bytes)
    }

    static var all: [Original] { shipped + shared }

    /// Every prefix of the shipped captures and of the shared btsnoop and PacketLogger captures up
    /// to 35 KB; larger ones are cut at a stride only.
    static var everyPrefix: [Original] {
        shipped + shared.filter { $0.framing != .pcap && $0.bytes.count <= 35_000 }
    }
}

/// The generous sanity bounds every read in a sweep must keep.
enum Bounds {
    static let secondsPerFile = 5.0
    static let residentKiB = 2 << 20  // 2 GiB

    static func check(_ start: Int64, _ what: String) {
        let seconds = Double(monotonicMicroseconds() - start) / 1e6
        #expect(seconds < secondsPerFile, "\(what) took \(seconds) s")
        let peak = peakResidentKiB()
        #expect(peak < residentKiB, "\(what): peak memory \(peak) KiB")
    }
}

func same(_ a: StoredRecord, _ b: StoredRecord, frameShift: Int = 0) -> Bool {
    a.frame == b.frame + frameShift && a.timestamp == b.timestamp && a.kind == b.kind && a.direction == b.direction
        && a.adapter == b.adapter && a.payload == b.payload && a.originalLength == b.originalLength
}

/// Cut captures: every prefix yields exactly the whole records in it, and one warning when it ends
/// inside a record.
struct PrefixSweepTests {
    @Test func `the shipped captures are all swept`() {
        #expect(
            SweptCaptures.shipped.count == TestPaths.list(TestPaths.captures).filter { $0.hasSuffix(".btsnoop") }.count)
        #expect(SweptCaptures.shipped.count >= 5)
    }

    /// Every prefix of a btsnoop or PacketLogger capture. A streaming reader's state at the cut
    /// depends only on the record before it, so each prefix is read as the file header, the last
    /// two whole records before the cut and the cut bytes: what the reader sees last, without
    /// re-reading everything before (which would make the sweep quadratic). The real prefixes at
    /// a stride, below, check that equivalence.
    @Test(arguments: SweptCaptures.everyPrefix)
    func `every prefix yields its whole records and one warning for a cut record`(original: Original) throws {
        let start = monotonicMicroseconds()
        let header = Array(original.bytes.prefix(original.headerSize))
        for length in original.headerSize...original.bytes.count {
            // The first record that does not fit in the prefix, and two whole ones before it as context.
            let cut = original.recordsBefore(length)
            let context = max(0, cut - 2)
            let windowStart = context < original.records.count ? Int(original.offsets[context]) : length
            let window = header + original.bytes[windowStart..<length]
            let shift = Int64(windowStart - original.headerSize)
            let atBoundary = cut == 0 ? length == original.headerSize : original.ends[cut - 1] == Int64(length)
            guard let outcome = readCapture(window) else {
                // Only a prefix too short to recognise (a PacketLogger header is 12 bytes, and a
                // file header alone is refused as empty of records) may be refused.
                #expect(window.count - header.count < 13, "\(original.name), prefix \(length): refused")
                continue
            }
            let expected = Array(original.records[context..<cut])
            #expect(outcome.records.count == expected.count, "\(original.name), prefix \(length)")
            for (read, wanted) in zip(outcome.records, expected) where !same(read, wanted, frameShift: -context) {
                Issue.record("\(original.name), prefix \(length): frame \(wanted.frame) differs")
            }
            #expect(zip(outcome.offsets, original.offsets[context..<cut]).allSatisfy { $0 + shift == $1 })
            if atBoundary {
                #expect(outcome.problems.isEmpty, "\(original.name), prefix \(length): \(outcome.problems)")
            } else {
                #expect(outcome.problems.count == 1, "\(original.name), prefix \(length): \(outcome.problems)")
                #expect(outcome.problems.first?.kind == .truncatedTail)
                #expect(outcome.problems.first?.frame == cut - context + 1)
                #expect(outcome.problems.first.map { $0.offset + shift } == Int64(original.offsets[cut]))
            }
        }
        Bounds.check(start, original.name)
    }

    /// Real prefixes of every capture, every byte of the first 64 and then at a stride: whole
    /// records are kept exactly, and the cut is reported at most once.
    @Test(arguments: SweptCaptures.all)
    func `real prefixes at a stride keep every whole record`(original: Original) {
        let start = monotonicMicroseconds()
        let stride = max(1, original.bytes.count / 200)
        let lengths =
            Array(0..<min(64, original.bytes.count))
            + Array(Swift.stride(from: 64, through: original.bytes.count, by: stride))
        for length in lengths {
            let expected = original.recordsBefore(length)
            guard let outcome = readCapture(Array(original.bytes.prefix(length))) else {
                #expect(
                    expected == 0 || original.framing == .pcap && length <= Int(original.offsets[0]),
                    "\(original.name), prefix \(length)")
                continue
            }
            #expect(outcome.records.count == expected, "\(original.name), prefix \(length)")
            for (read, wanted) in zip(outcome.records, original.records) where !same(read, wanted) {
                Issue.record("\(original.name), prefix \(length): frame \(wanted.frame) differs")
            }
            #expect(outcome.problemCount <= 1, "\(original.name), prefix \(length): \(outcome.problems)")
            if length == original.bytes.count { #expect(outcome.problemCount == 0) }
        }
        Bounds.check(start, original.name)
    }
}

/// Damaged captures: seeded bit flips, inserted and deleted bytes. Whatever the damage, reading ends,
/// every record that ends before the damage is read as it was, and no problem is reported before
/// the record that holds the damage.
struct MutationSweepTests {
    enum Mutation: CustomStringConvertible {
        case flip(Int, bit: Int)
        case insert(Int, UInt8)
        case delete(Int)

        var offset: Int {
            switch self {
            case .flip(let at, _), .insert(let at, _), .delete(let at): at
            }
        }

        func apply(_ bytes: [UInt8]) -> [UInt8] {
            var copy = bytes
            switch self {
            case .flip(let at, let bit): copy[at] ^= 1 << UInt8(bit)
            case .insert(let at, let byte): copy.insert(byte, at: at)
            case .delete(let at): copy.remove(at: at)
            }
            return copy
        }

        var description: String {
            switch self {
            case .flip(let at, let bit): "bit \(bit) of byte \(at) flipped"
            case .insert(let at, let byte): "byte 0x\(String(byte, radix: 16)) inserted at \(at)"
            case .delete(let at): "byte \(at) deleted"
            }
        }
    }

    /// The files mutated: btsnoop and PacketLogger captures as three slices of 60 records (the
    /// start, the middle and the end of the file: a mutant is quick to read, and the damage lands
    /// in every kind of record), pcap and pcapng files up to 60 KB whole.
    static let targets: [Original] = SweptCaptures.all.flatMap { original -> [Original] in
        guard original.framing != .pcap else { return original.bytes.count <= 60_000 ? [original] : [] }
        let count = original.records.count
        let starts = Set([0, max(0, count / 2 - 30), max(0, count - 60)]).sorted()
        return starts.compactMap { original.slice(from: $0, count: 60) }
    }

    @Test func `there are captures of every format to damage`() {
        #expect(Self.targets.contains { $0.framing == .btsnoop })
        if TestPaths.sharedCaptures != nil {
            #expect(Self.targets.contains { $0.framing == .packetLogger })
            #expect(Self.targets.contains { $0.framing == .pcap })
        }
    }

    @Test(arguments: targets)
    func `damaged captures keep every record before the damage`(original: Original) {
        let fileSeed = seed(for: original.name)
        var random = TestRandom(seed: fileSeed)
        let start = monotonicMicroseconds()
        // 2,400 mutants per btsnoop or PacketLogger file (800 in each of its slices), 400 per pcap.
        let mutants = original.framing == .pcap ? 400 : 800
        for index in 0..<mutants {
            let at = Int.random(in: 0..<original.bytes.count, using: &random)
            let mutation: Mutation =
                switch index % 4 {
                case 0, 1: .flip(at, bit: Int.random(in: 0..<8, using: &random))
                case 2: .insert(at, UInt8.random(in: 0...255, using: &random))
                default: .delete(at)
                }
            let damaged = mutation.apply(original.bytes)
            let context = "\(original.name), seed \(fileSeed), mutant \(index): \(mutation)"
            let kept = original.recordsBefore(mutation.offset)
            guard let outcome = readCapture(damaged) else {
                // Refused as a whole: only when the damage is in what identifies the file (its
                // header, or for PacketLogger, which has no header, its first record).
                let identifying = original.framing == .packetLogger ? Int(original.ends[0]) : Int(original.offsets[0])
                #expect(mutation.offset < identifying, "\(context): refused")
                continue
            }
            #expect(
                outcome.records.count >= kept, "\(context): \(outcome.records.count) records, \(kept) before the damage"
            )
            for (read, wanted) in zip(outcome.records.prefix(kept), original.records) where !same(read, wanted) {
                Issue.record("\(context): frame \(wanted.frame) differs")
            }
            if let damagedRecord = original.record(holding: mutation.offset) {
                let first = original.offsets[damagedRecord]
                #expect(outcome.problems.allSatisfy { $0.offset >= first }, "\(context): \(outcome.problems)")
            }
            #expect(outcome.problems.allSatisfy { $0.offset >= 0 && $0.offset <= Int64(damaged.count) }, "\(context)")
            // Every tenth mutant also goes through the tracker: damage becomes diagnostics, not a
            // stop, and the events stay in capture order.
            if index % 10 == 0, let reader = try? CaptureReader(bytes: damaged, formats: testFormats) {
                var frames: [Int] = []
                let statistics = EventStream.read(reader) { frames.append($0.frame) }
                #expect(statistics.records >= kept, "\(context)")
                #expect(frames == frames.sorted(), "\(context): events out of frame order")
            }
        }
        Bounds.check(start, original.name)
    }
}
