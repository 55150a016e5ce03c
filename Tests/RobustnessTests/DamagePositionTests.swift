import CaptureFiles
import CaptureModel
import TestSupport
import Testing

/// One damaged record in the middle of a capture, in every position: every record before it is
/// read, the damage is reported with its frame and byte offset, and where the format allows
/// (btsnoop, PacketLogger) reading resumes with every record after it; pcap, read through
/// libpcap, stops there.
struct DamagePositionTests {
    static let count = 24

    /// How a record header is damaged; each is something no real writer produces.
    enum Damage: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// Both length fields 0xFFFFFFFF.
        case hugeLength
        /// Flags a datalink cannot have (btsnoop), or a length too short to hold the timestamp
        /// (PacketLogger, which has no flags).
        case impossibleFlags
        /// The whole header overwritten with 0xFF.
        case garbageHeader

        var testDescription: String { rawValue }
    }

    enum Format: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case btsnoopUART, btsnoopHCI, btsnoopMonitor, packetLogger
        var testDescription: String { rawValue }

        /// A capture of `count` records, and the offset where each record starts.
        func capture(_ count: Int) throws -> (bytes: [UInt8], offsets: [Int]) {
            let bytes: [UInt8]
            switch self {
            case .btsnoopUART:
                bytes = try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: count))
            case .btsnoopHCI:
                bytes = try CaptureFactory.capture(.btsnoop(.btsnoopHCI), CaptureFactory.sampleRecords(count: count))
            case .btsnoopMonitor:
                bytes = try CaptureFactory.capture(
                    .btsnoop(.btsnoopMonitor), CaptureFactory.sampleRecords(count: count))
            case .packetLogger: bytes = PacketLoggerFile.sample(count: count)
            }
            let outcome = try #require(readCapture(bytes))
            try #require(outcome.records.count == count && outcome.problems.isEmpty)
            return (bytes, outcome.offsets.map { Int($0) })
        }

        func damage(_ bytes: inout [UInt8], at offset: Int, _ damage: Damage) {
            switch (damage, self) {
            case (.hugeLength, .packetLogger):
                bytes.replaceSubrange(offset..<offset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
            case (.hugeLength, _): bytes.replaceSubrange(offset..<offset + 8, with: [UInt8](repeating: 0xFF, count: 8))
            case (.impossibleFlags, .packetLogger): bytes.replaceSubrange(offset..<offset + 4, with: [0x03, 0, 0, 0])
            // Flags 0x00000100: no btsnoop HCI or UART record has bit 8 set.
            case (.impossibleFlags, .btsnoopUART), (.impossibleFlags, .btsnoopHCI):
                bytes.replaceSubrange(offset + 8..<offset + 12, with: [0, 0, 0x01, 0x00])
            // Monitor opcode 0xFFFF: above every opcode btmon defines.
            case (.impossibleFlags, .btsnoopMonitor):
                bytes.replaceSubrange(offset + 8..<offset + 12, with: [0, 0, 0xFF, 0xFF])
            case (.garbageHeader, .packetLogger):
                bytes.replaceSubrange(offset..<offset + 12, with: [UInt8](repeating: 0xFF, count: 12))
            case (.garbageHeader, _):
                bytes.replaceSubrange(offset..<offset + 24, with: [UInt8](repeating: 0xFF, count: 24))
            }
        }
    }

    static var cases: [(Format, Damage)] {
        Format.allCases.flatMap { format in Damage.allCases.map { (format, $0) } }
    }

    @Test(arguments: cases)
    func `a damaged record in any position is reported and reading resumes after it`(format: Format, damage: Damage)
        throws
    {
        let (clean, offsets) = try format.capture(Self.count)
        let original = try #require(readCapture(clean)).records
        for damaged in 0..<Self.count {
            var bytes = clean
            format.damage(&bytes, at: offsets[damaged], damage)
            let context = "\(format) \(damage), record \(damaged + 1)"
            if format == .packetLogger, damaged == 0 {
                // PacketLogger has no file header: a file is recognised by its first record, so
                // with that one damaged it is not taken for a capture at all.
                #expect(readCapture(bytes) == nil, "\(context)")
                continue
            }
            let outcome = try #require(readCapture(bytes), "\(context)")
            // Every record but the damaged one, with its own frame number.
            let expected = original.enumerated().filter { $0.offset != damaged }.map(\.element)
            #expect(outcome.records.count == expected.count, "\(context)")
            for (read, wanted) in zip(outcome.records, expected) where !same(read, wanted) {
                Issue.record("\(context): frame \(wanted.frame) differs")
            }
            #expect(outcome.problems.count == 1, "\(context): \(outcome.problems)")
            let problem = try #require(outcome.problems.first)
            #expect(problem.kind == .badRecord, "\(context)")
            #expect(problem.frame == damaged + 1, "\(context)")
            #expect(problem.offset == Int64(offsets[damaged]), "\(context)")
            // Reading resumes at the next record: the damaged one is skipped whole. The last
            // record has nothing after it to resume at.
            let next = damaged + 1 < Self.count ? offsets[damaged + 1] : nil
            #expect(problem.skippedBytes == next.map { Int64($0 - offsets[damaged]) }, "\(context)")
        }
    }

    /// Damage in two places: each is reported, and the records between them are read.
    @Test(arguments: Format.allCases)
    func `two damaged records are both reported and the records between them read`(format: Format) throws {
        let (clean, offsets) = try format.capture(Self.count)
        var bytes = clean
        format.damage(&bytes, at: offsets[5], .hugeLength)
        format.damage(&bytes, at: offsets[15], .garbageHeader)
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == Array(1...5) + Array(7...15) + Array(17...24))
        #expect(outcome.problems.map(\.frame) == [6, 16])
        #expect(outcome.problems.map(\.offset) == [Int64(offsets[5]), Int64(offsets[15])])
    }

    /// pcap through libpcap: the records before the damage, the damage located, nothing after.
    @Test(arguments: [CaptureWriter.Format.pcap(.h4WithPHDR), .pcap(.linuxMonitor)])
    func `a damaged pcap record in any position stops reading with every record before it`(
        format: CaptureWriter.Format
    ) throws {
        let clean = try CaptureFactory.capture(format, CaptureFactory.sampleRecords(count: Self.count))
        let read = try #require(readCapture(clean))
        for damaged in 1..<Self.count {
            var bytes = clean
            let offset = Int(read.offsets[damaged])
            // Captured and original length 0xFFFFFFFF.
            bytes.replaceSubrange(offset + 8..<offset + 16, with: [UInt8](repeating: 0xFF, count: 8))
            let outcome = try #require(readCapture(bytes))
            #expect(outcome.records.map(\.frame) == Array(1...damaged), "record \(damaged + 1)")
            for (a, b) in zip(outcome.records, read.records) where !same(a, b) {
                Issue.record("frame \(b.frame) differs")
            }
            #expect(outcome.problems.map(\.frame) == [damaged + 1])
            #expect(outcome.problems.map(\.offset) == [Int64(offset)])
        }
    }
}
