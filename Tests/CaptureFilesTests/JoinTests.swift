import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// Rotated logs read as one session: `--join A.last A`, a directory or a zip holding the pair.
struct JoinTests {
    static let start: Int64 = 1_710_495_001_151_075

    static func file(_ records: [StoredRecord]) throws -> String {
        let path = TestPaths.temporaryDirectory() + "/capture.btsnoop"
        TestPaths.writeFile(path, try CaptureFactory.capture(.btsnoop(.btsnoopUART), records))
        return path
    }

    /// Command Complete for Read BD_ADDR (Core v5.4, Vol 4, Part E, §7.4.6), status 0, for `address`
    /// (written least significant byte first, as HCI does).
    static func readAddressComplete(_ address: [UInt8], at timestamp: Int64) -> StoredRecord {
        StoredRecord(
            timestamp: timestamp, direction: .received, kind: .event,
            payload: [0x0E, 0x0A, 0x01, 0x09, 0x10, 0x00] + address.reversed())
    }

    @Test func `two files are one session: frames numbered across them, the gap reported`() throws {
        let first = try Self.file(CaptureFactory.sampleRecords(count: 10, start: Self.start))
        let second = try Self.file(CaptureFactory.sampleRecords(count: 6, start: Self.start + 2_000_000))
        let reader = try CaptureReader(CaptureRequest(paths: [first, second], join: true))
        let records = reader.readAll()
        #expect(records.map(\.frame) == Array(1...16))
        #expect(reader.path == "\(first) + \(second)")
        #expect(reader.contents.parts.map(\.records) == [10, 6])
        #expect(reader.contents.parts.map(\.gapBefore) == [nil, 2_000_000 - 9 * 1250])
        // The same records as one file holding both.
        let both = try Self.file(
            CaptureFactory.sampleRecords(count: 10, start: Self.start)
                + CaptureFactory.sampleRecords(count: 6, start: Self.start + 2_000_000))
        #expect(zip(records, try CaptureReader(path: both).readAll()).allSatisfy { $0.sameContent(as: $1) && $0.frame == $1.frame })
    }

    @Test func `files out of time order or from different adapters are refused unless forced`() throws {
        let early = try Self.file(CaptureFactory.sampleRecords(count: 4, start: Self.start))
        let late = try Self.file(CaptureFactory.sampleRecords(count: 4, start: Self.start + 10_000_000))
        let backwards = #expect(throws: CaptureError.self) { try CaptureReader(CaptureRequest(paths: [late, early], join: true)) }
        #expect(backwards?.isUsageError == true)
        #expect(backwards?.description.contains("out of time order") == true)
        #expect(try CaptureReader(CaptureRequest(paths: [late, early], join: true, force: true)).readAll().count == 8)

        let a = try Self.file([Self.readAddressComplete([0x00, 0x1A, 0x7D, 0xDA, 0x71, 0x13], at: Self.start)])
        let b = try Self.file([Self.readAddressComplete([0x00, 0x1A, 0x7D, 0xDA, 0x71, 0x14], at: Self.start + 1000)])
        let adapters = #expect(throws: CaptureError.self) { try CaptureReader(CaptureRequest(paths: [a, b], join: true)) }
        #expect(adapters?.description.contains("different adapters (controller 00:1A:7D:DA:71:13, then 00:1A:7D:DA:71:14)") == true)
        #expect(try CaptureReader(CaptureRequest(paths: [a, b], join: true, force: true)).readAll().count == 2)

        let monitor = try CaptureFactory.capture(.btsnoop(.btsnoopMonitor), CaptureFactory.sampleRecords(count: 2, start: Self.start + 20_000_000))
        let monitorPath = TestPaths.temporaryDirectory() + "/monitor.btsnoop"
        TestPaths.writeFile(monitorPath, monitor)
        let kinds = #expect(throws: CaptureError.self) { try CaptureReader(CaptureRequest(paths: [early, monitorPath], join: true)) }
        #expect(kinds?.description.contains("so they are not one session") == true)
    }

    @Test func `a directory holding a rotated pair is read as one session, .last first`() throws {
        let directory = TestPaths.temporaryDirectory()
        TestPaths.writeFile(
            directory + "/btsnoop_hci.log.last",
            try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 7, start: Self.start)))
        TestPaths.writeFile(
            directory + "/btsnoop_hci.log",
            try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 5, start: Self.start + 60_000_000)))
        let reader = try CaptureReader(path: directory)
        #expect(reader.readAll().map(\.frame) == Array(1...12))
        #expect(reader.contents.containers == ["directory"])
        #expect(reader.contents.read == ["btsnoop_hci.log.last", "btsnoop_hci.log"])
        #expect(try CaptureReader(CaptureRequest(paths: [directory], member: "btsnoop_hci.log")).readAll().count == 5)
    }

    @Test(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
    func `the shared pongbot rotation joined is 9,759 records in one frame sequence`() throws {
        let dir = TestPaths.sharedCaptures!
        let reader = try CaptureReader(
            CaptureRequest(paths: [dir + "/pongbot-mcp__btsnoop_hci.log.last", dir + "/pongbot-mcp__btsnoop_hci.log"], join: true))
        let records = reader.readAll()
        // MANIFEST.md, "Round 2 additions": 8,018 frames, then 1,741 starting 1.2 s after the first ends.
        #expect(records.count == 9_759)
        #expect(records.map(\.frame) == Array(1...9_759))
        #expect(reader.contents.parts.map(\.records) == [8_018, 1_741])
        // .last ends 21:44:27.790569, the current file starts 21:44:28.995647.
        #expect(reader.contents.parts.last?.gapBefore == 1_205_078)
        #expect(reader.problems.count == 0)
    }
}
