import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// Android's btsnooz: the bug report's BTSNOOP_LOG_SUMMARY section (versions 1 and 2), and the
/// btsnoop header followed by version-2 records (`../shared/specs/android-logs.md`, sections 2–4).
struct SnoozTests {
    // A command, its Command Complete, ACL out cut to 8 bytes (of 27), ACL in whole (L2CAP signalling).
    static let commandBytes: [UInt8] = [0x03, 0x0C, 0x00]  // HCI Reset (Core v5.4, Vol 4, Part E, §7.3.2)
    static let completeBytes: [UInt8] = [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
    static let aclOut: [UInt8] = [0x40, 0x00, 0x17, 0x00, 0x13, 0x00, 0x04, 0x00] + [UInt8](repeating: 0xAA, count: 19)
    static let signalling: [UInt8] = [0x40, 0x20, 0x0A, 0x00, 0x06, 0x00, 0x05, 0x00, 0x12, 0x01, 0x02, 0x00, 0x06, 0x00]

    static func sampleRecords() -> [SnoozBuilder.Record] {
        [
            SnoozBuilder.Record(type: 0x20, commandBytes, delta: 1_000),
            SnoozBuilder.Record(type: 0x10, completeBytes, delta: 250),
            SnoozBuilder.Record(type: 0x21, Array(aclOut.prefix(8)), original: aclOut.count, delta: 5_000),
            SnoozBuilder.Record(type: 0x11, signalling, delta: 1_750),
        ]
    }

    /// 2023-08-23 10:02:35.682300 UTC, the shared bug report's last record.
    static let last: UInt64 = 1_692_784_955_682_300

    func read(_ bytes: [UInt8]) throws -> (CaptureReader, [StoredRecord]) {
        let reader = try CaptureReader(bytes: bytes)
        return (reader, reader.readAll())
    }

    @Test(arguments: [1, 2])
    func `a summary section's records come out as H4 kinds and directions, timed back from the last one`(version: Int)
        throws
    {
        let ring = SnoozBuilder.ring(
            version: UInt8(version), lastTimestamp: Self.last, records: SnoozBuilder.records(Self.sampleRecords(), version: version))
        let text = SnoozBuilder.text(ring: ring, declared: 42, before: "== dumpstate\nlots of text\n", after: "more\n")
        let (reader, records) = try read(text)
        #expect(reader.format == .btsnooz)
        #expect(records.map(\.kind) == [.command, .event, .acl, .acl])
        #expect(records.map(\.direction) == [.sent, .received, .sent, .received])
        #expect(records.map(\.sourceType) == [0x01, 0x04, 0x02, 0x02])
        #expect(records.map(\.payload) == [Self.commandBytes, Self.completeBytes, Array(Self.aclOut.prefix(8)), Self.signalling])
        // The last record is at the preamble's time; each before it one delta earlier.
        let last = Int64(Self.last)
        #expect(records.map(\.timestamp) == [last - 7_000, last - 6_750, last - 1_750, last])
        #expect(records.map(\.frame) == [1, 2, 3, 4])
        // The cut ACL is truncated, not damaged: version 2 says its original length, and version 1's
        // ACL header does (0x17 = 23 bytes of data after the 4-byte header).
        #expect(records[2].originalLength == 27)
        #expect(records.map { $0.originalLength > $0.payload.count } == [false, false, true, false])
        #expect(reader.problems.count == 0)
        #expect(reader.contents.notes.isEmpty)
        let summary = CaptureSummary(reading: try CaptureReader(bytes: text))
        #expect(summary.snapped == 1)
        #expect(summary.damaged == 0)
    }

    @Test func `a dumpsys output with a bytes-out header is read the same`() throws {
        let ring = SnoozBuilder.ring(version: 2, lastTimestamp: Self.last, records: SnoozBuilder.records(Self.sampleRecords(), version: 2))
        let dumpsys = SnoozBuilder.text(ring: ring, declared: 42, word: "out", before: "Bluetooth Status\n  enabled: true\n")
        let (_, records) = try read(dumpsys)
        #expect(records.count == 4)
        #expect(records.last?.timestamp == Int64(Self.last))
    }

    @Test func `a preamble that only makes sense big-endian is read so, with a warning`() throws {
        let ring = SnoozBuilder.ring(
            version: 2, lastTimestamp: Self.last, records: SnoozBuilder.records(Self.sampleRecords(), version: 2), bigEndian: true)
        let (reader, records) = try read(SnoozBuilder.text(ring: ring, declared: 42))
        #expect(records.last?.timestamp == Int64(Self.last))
        #expect(reader.contents.notes.count == 1)
        #expect(reader.contents.notes.first?.contains("big-endian") == true)
    }

    @Test func `a preamble that is no date in either byte order is kept as stored, with a warning`() throws {
        let ring = SnoozBuilder.ring(version: 2, lastTimestamp: 5_000_000, records: SnoozBuilder.records(Self.sampleRecords(), version: 2))
        let (reader, records) = try read(SnoozBuilder.text(ring: ring, declared: 42))
        #expect(records.last?.timestamp == 5_000_000)
        #expect(reader.contents.notes.first?.contains("no plausible date in either byte order") == true)
    }

    @Test func `a damaged section is refused with where it is`() throws {
        let ring = SnoozBuilder.ring(version: 2, lastTimestamp: Self.last, records: SnoozBuilder.records(Self.sampleRecords(), version: 2))
        var text = SnoozBuilder.text(ring: ring, declared: 42, before: "head\n")
        // A byte that is not base64 inside the data.
        let dataStart = text.firstIndex(of: UInt8(ascii: "\n"), after: 6)
        text[dataStart + 10] = UInt8(ascii: "*")
        let error = #expect(throws: CaptureError.self) { try CaptureReader(bytes: text) }
        #expect(error?.description.contains("BTSNOOP_LOG_SUMMARY section at text offset 5") == true)
        #expect(error?.description.contains("not base64") == true)
        // Version 3 is not read.
        var future = ring
        future[0] = 3
        let versionError = #expect(throws: CaptureError.self) { try CaptureReader(bytes: SnoozBuilder.text(ring: future, declared: 1)) }
        #expect(versionError?.description.contains("btsnooz version 3") == true)
        // A text cut inside the section.
        let whole = SnoozBuilder.text(ring: ring, declared: 42)
        #expect(throws: CaptureError.self) { try CaptureReader(bytes: Array(whole.prefix(70))) }
    }

    @Test func `text without a section is not a capture; a bug report without one says it has no Bluetooth log`() throws {
        let plain = #expect(throws: CaptureError.self) { try CaptureReader(bytes: Array("just some notes\n".utf8)) }
        #expect(plain?.description.contains("not a capture file") == true)
        let report = Array("========================================================\n== dumpstate: 2023-08-23\n".utf8)
        let error = #expect(throws: CaptureError.self) { try CaptureReader(bytes: report) }
        #expect(error?.description.contains("holds no Bluetooth log: no BTSNOOP_LOG_SUMMARY section") == true)
    }

    // MARK: btsnoop header + btsnooz version-2 records

    static let btsnoopHeader: [UInt8] = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]

    @Test(arguments: [0, 1])
    func `a btsnoop header followed by btsnooz records is read to its last record, times from zero`(lengthBias: Int) throws {
        let file = Self.btsnoopHeader + SnoozBuilder.records(Self.sampleRecords(), version: 2, lengthBias: lengthBias)
        let (reader, records) = try read(file)
        #expect(reader.format == .btsnoopSnooz)
        #expect(reader.contents.relativeTimes)
        #expect(records.map(\.timestamp) == [0, 250, 5_250, 7_000])
        #expect(records.map(\.kind) == [.command, .event, .acl, .acl])
        // Whichever convention the writer used for packet_length, only the cut ACL is truncated.
        #expect(records.map { $0.originalLength > $0.payload.count } == [false, false, true, false])
        #expect(records[2].originalLength == 27)
        #expect(reader.problems.count == 0)
    }

    @Test func `a btsnoop reader never takes btsnooz records for its own`() throws {
        // As a btsnoop record, the first header would claim 0x04000400 bytes: damage, and nothing after it
        // may be invented from btsnooz bytes. With the first record's type damaged the file is no longer
        // recognised as btsnooz, so the btsnoop reader gets it.
        var records = SnoozBuilder.records(Self.sampleRecords() + Self.sampleRecords(), version: 2)
        records[8] = 0x99
        let (reader, read) = try read(Self.btsnoopHeader + records)
        #expect(reader.format == .btsnoop)
        #expect(read.isEmpty)
        #expect(reader.problems.count == 1)
        #expect(reader.problems.items.first?.skippedBytes == nil)
    }

    // MARK: The shared bug report

    /// The shared bug report's section, read with the record layout AOSP's btsnooz.py reads (MANIFEST.md,
    /// "Round 2 additions": 387 records, 192 commands, 195 events, 0 ACL). Its first record, HCI Reset
    /// at 1692777332.195812, is the preamble's 1692784955.682300 less the sum of the 387 deltas
    /// (7,623,486,488 µs), as that script computes it.
    @Test(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
    func `the shared bug report's summary section reads as AOSP's decoder reads it`() throws {
        let path = TestPaths.sharedCaptures! + "/TMC_Partner__App__bugreport.zip"
        let reader = try CaptureReader(path: path)
        let records = reader.readAll()
        #expect(records.count == 387)
        #expect(records.count(where: { $0.kind == .command }) == 192)
        #expect(records.count(where: { $0.kind == .event }) == 195)
        #expect(records.first?.timestamp == 1_692_777_332_195_812)
        #expect(records.last?.timestamp == 1_692_784_955_682_300)
        #expect(records.first?.payload == [0x03, 0x0C, 0x00])
        #expect(records.dropFirst().first?.payload == [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        #expect(reader.contents.containers == ["zip"])
        #expect(reader.contents.read == ["bugreport-T2s_LITE-PKQ1.190414.001-2023-08-23-10-02-10.txt"])
        #expect(reader.contents.found.last?.kind == "btsnooz v2")
        #expect(reader.contents.found.last?.size == 11_586)

        // Its records after a btsnoop header, as some phones write btsnooz_hci.log: the same packets,
        // times counted from the first record.
        var previous: Int64?
        let snooz = records.map { record -> SnoozBuilder.Record in
            defer { previous = record.timestamp }
            let type: UInt8 = record.kind == .command ? 0x20 : 0x10
            return SnoozBuilder.Record(type: type, record.payload, delta: UInt32(record.timestamp - (previous ?? record.timestamp)))
        }
        let file = try CaptureReader(bytes: Self.btsnoopHeader + SnoozBuilder.records(snooz, version: 2))
        let again = file.readAll()
        #expect(file.format == .btsnoopSnooz)
        #expect(again.map(\.payload) == records.map(\.payload))
        #expect(again.map(\.timestamp) == records.map { $0.timestamp - records[0].timestamp })
    }
}

extension Array where Element == UInt8 {
    func firstIndex(of byte: UInt8, after start: Int) -> Int {
        (start..<count).first { self[$0] == byte } ?? start
    }
}
