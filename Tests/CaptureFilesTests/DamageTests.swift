import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// Cut and damaged files: everything readable is read, the damage is located.
struct DamageTests {
    static let formats: [CaptureWriter.Format] = [
        .btsnoop(.btsnoopUART), .btsnoop(.btsnoopMonitor), .pcap(.h4WithPHDR),
    ]

    /// End offset of every record of a well-formed capture.
    func recordEnds(_ bytes: [UInt8]) throws -> [Int64] {
        let reader = try CaptureReader(bytes: bytes, formats: testFormats)
        var starts: [Int64] = []
        while let record = reader.next() { starts.append(record.fileOffset) }
        return Array(starts.dropFirst()) + [Int64(bytes.count)]
    }

    @Test(arguments: formats)
    func `every prefix yields exactly its whole records`(format: CaptureWriter.Format) throws {
        let bytes = try CaptureFactory.capture(format, CaptureFactory.sampleRecords(count: 6))
        let ends = try recordEnds(bytes)
        for length in 0...bytes.count {
            let prefix = Array(bytes.prefix(length))
            let expected = ends.filter { $0 <= Int64(length) }.count
            guard let reader = try? CaptureReader(bytes: prefix, formats: testFormats) else {
                // Too short for the file header: no record can be in it.
                #expect(expected == 0)
                continue
            }
            let records = reader.readAll()
            #expect(records.count == expected, "prefix of \(length) bytes")
            let cutMidRecord = !ends.contains(Int64(length)) && length > (ends.first.map { _ in 0 } ?? 0)
            if cutMidRecord, records.count < ends.count, length > 24 {
                #expect(reader.problems.count == 1, "prefix of \(length) bytes: one warning")
            }
        }
    }

    /// Small captures in the formats that resynchronize differently: built here (so the sweep runs
    /// without ../shared), and the small real ones when ../shared/captures is present.
    static let smallCaptures: [String] =
        ["built: PacketLogger, big-endian", "built: PacketLogger, little-endian", "built: pcap"]
        + TestPaths.sharedCaptureFiles.filter { $0.hasSuffix(".pklg") || $0.hasSuffix("test1.pcapng") }

    static func bytes(of capture: String) throws -> [UInt8] {
        switch capture {
        case "built: PacketLogger, big-endian": PacketLoggerSample.bytes(CaptureFactory.sampleRecords(count: 40), bigEndian: true)
        case "built: PacketLogger, little-endian": PacketLoggerSample.bytes(CaptureFactory.sampleRecords(count: 40), bigEndian: false)
        case "built: pcap": try CaptureFactory.capture(.pcap(.h4WithPHDR), CaptureFactory.sampleRecords(count: 40))
        default: try #require(TestPaths.readFile(capture))
        }
    }

    @Test(arguments: smallCaptures)
    func `every prefix of a small capture reads without a crash`(path: String) throws {
        let bytes = try Self.bytes(of: path)
        let ends = try recordEnds(bytes)
        for length in stride(from: 0, through: bytes.count, by: 7) {
            let expected = ends.filter { $0 <= Int64(length) }.count
            let records = (try? CaptureReader(bytes: Array(bytes.prefix(length)), formats: testFormats))?.readAll() ?? []
            #expect(records.count == expected, "prefix of \(length) bytes")
        }
    }

    @Test func `a damaged btsnoop record is reported and reading resumes after it`() throws {
        var bytes = try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 10))
        let ends = try recordEnds(bytes)
        // Break the included length of the fifth record (it starts where the fourth ends).
        let fifth = Int(ends[3])
        bytes[fifth + 4] = 0x7F
        let reader = try CaptureReader(bytes: bytes, formats: testFormats)
        let records = reader.readAll()
        #expect(records.count == 9)
        #expect(records.prefix(4).map(\.frame) == [1, 2, 3, 4])
        #expect(records.dropFirst(4).map(\.frame) == [6, 7, 8, 9, 10])
        let problem = try #require(reader.problems.items.first)
        #expect(problem.kind == .badRecord)
        #expect(problem.frame == 5)
        #expect(problem.offset == Int64(fifth))
        #expect(problem.skippedBytes == ends[4] - ends[3])
    }

    @Test func `a record longer than 64 KiB is damage, not an allocation`() throws {
        var bytes = try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 3))
        // Claim 4 GiB for the second record.
        let second = 16 + 24 + 6
        for i in 0..<8 { bytes[second + i] = 0xFF }
        let reader = try CaptureReader(bytes: bytes, formats: testFormats)
        let records = reader.readAll()
        #expect(records.first?.frame == 1)
        #expect(reader.problems.items.first?.reason.contains("exceeds the 64 KiB maximum") == true)
        #expect(records.count == 2)
    }

    @Test func `a cut pcap keeps every whole record and warns once`() throws {
        let bytes = try CaptureFactory.capture(.pcap(.h4WithPHDR), CaptureFactory.sampleRecords(count: 5))
        let reader = try CaptureReader(bytes: Array(bytes.dropLast(3)), formats: testFormats)
        #expect(reader.readAll().count == 4)
        #expect(reader.problems.count == 1)
        #expect(reader.problems.items.first?.kind == .truncatedTail)
        #expect(reader.problems.items.first?.frame == 5)
    }
}

/// Files that are not captures at all.
struct BadFileTests {
    @Test func `a missing file, a directory, an empty file and a FIFO are refused with their reason`() throws {
        let dir = TestPaths.temporaryDirectory()
        #expect(throws: CaptureError.notFound(path: dir + "/missing")) { try CaptureReader(path: dir + "/missing", formats: testFormats) }
        #expect(throws: CaptureError.notARegularFile(path: dir, what: "a directory")) { try CaptureReader(path: dir, formats: testFormats) }
        TestPaths.writeFile(dir + "/empty", [])
        #expect(throws: CaptureError.empty(path: dir + "/empty")) { try CaptureReader(path: dir + "/empty", formats: testFormats) }
        #expect(throws: CaptureError.notARegularFile(path: "/dev/zero", what: "a character device")) {
            try CaptureReader(path: "/dev/zero", formats: testFormats)
        }
    }

    @Test func `a file that is not a capture shows its first bytes`() throws {
        let error = #expect(throws: CaptureError.self) { try CaptureReader(bytes: Array("hello, world! this is text".utf8), formats: testFormats) }
        #expect(error?.description.contains("68 65 6c 6c 6f 2c 20 77") == true)
    }

    @Test func `an unsupported datalink is named`() throws {
        var bytes = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x07, 0xD2]
        #expect(throws: CaptureError.unsupportedDatalink(path: "<memory>", datalink: .btsnoopSimulator)) {
            try CaptureReader(bytes: bytes, formats: testFormats)
        }
        // A pcap of Ethernet frames.
        bytes = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 1, 0, 0, 0]
        let error = #expect(throws: CaptureError.self) { try CaptureReader(bytes: bytes, formats: testFormats) }
        #expect(error?.description == "<memory>: unsupported datalink 1 (unknown datalink 1)")
    }
}

/// PacketLogger files built by hand (length, seconds, microseconds, type, packet), in either byte
/// order, as PacketLogger.app (little-endian) and BTstack (big-endian) write them.
enum PacketLoggerSample {
    static func bytes(_ records: [StoredRecord], bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ value: UInt32) {
            let v = bigEndian ? value.bigEndian : value.littleEndian
            withUnsafeBytes(of: v) { out.append(contentsOf: $0) }
        }
        for record in records {
            let type: UInt8
            switch (record.kind, record.direction) {
            case (.command, _): type = 0x00
            case (.event, _): type = 0x01
            case (.acl, .sent): type = 0x02
            default: type = 0x03
            }
            u32(UInt32(9 + record.payload.count))
            u32(UInt32(record.timestamp / 1_000_000))
            u32(UInt32(record.timestamp % 1_000_000))
            out.append(type)
            out += record.payload
        }
        return out
    }
}
