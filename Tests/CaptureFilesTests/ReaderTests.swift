import CaptureFiles
import CaptureModel
import Testing
import TestSupport

struct ReaderTests {
    @Test(arguments: [
        CaptureWriter.Format.btsnoop(.btsnoopUART), .btsnoop(.btsnoopHCI), .btsnoop(.btsnoopMonitor),
        .pcap(.h4WithPHDR), .pcap(.h4), .pcap(.linuxMonitor),
    ])
    func `records survive a write and a read`(format: CaptureWriter.Format) throws {
        var records = CaptureFactory.sampleRecords()
        if case .pcap(.h4) = format {
            // Plain H4 has no direction field: ACL direction is unknown after a round trip.
            for i in records.indices where records[i].kind == .acl { records[i].direction = .unknown }
        }
        let read = try CaptureReader(bytes: CaptureFactory.capture(format, records), formats: testFormats).readAll()
        #expect(read.count == records.count)
        for (written, back) in zip(records, read) {
            #expect(back.timestamp == written.timestamp)
            #expect(back.kind == written.kind)
            #expect(back.direction == written.direction)
            #expect(back.payload == written.payload)
        }
        #expect(read.map(\.frame) == Array(1...records.count))
    }

    @Test func `btsnoop timestamps count from year 0`() throws {
        // 0x00E2F9AB5E5B3C33 is the first record of a real btmon file; Wireshark shows 1719603154.369587.
        var bytes = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x07, 0xD1]
        bytes += [0, 0, 0, 2, 0, 0, 0, 2, 0xFF, 0xFF, 0, 12, 0, 0, 0, 0]
        bytes += [0x00, 0xE2, 0xF9, 0xAB, 0x5E, 0x5B, 0x3C, 0x33, 0x41, 0x00]
        let reader = try CaptureReader(bytes: bytes, formats: testFormats)
        let record = try #require(reader.next())
        #expect(record.timestamp == 1_719_603_154_369_587)
        #expect(record.kind == .note)
        #expect(record.adapter == 0xFFFF)
    }

    @Test func `monitor records keep their adapter index`() throws {
        var records = CaptureFactory.sampleRecords(count: 4)
        records[1].adapter = 1
        records[3].adapter = 2
        let read = try CaptureReader(bytes: CaptureFactory.capture(.btsnoop(.btsnoopMonitor), records), formats: testFormats).readAll()
        #expect(read.map(\.adapter) == [0, 1, 0, 2])
        #expect(read.map(\.sourceType) == [2, 3, 5, 4])
    }

    @Test func `a snapped record keeps its original length`() throws {
        let record = StoredRecord(
            timestamp: 1, direction: .received, kind: .acl, payload: [0x40, 0x20, 0x10, 0x00, 1, 2], originalLength: 20)
        for format in [CaptureWriter.Format.btsnoop(.btsnoopUART), .pcap(.h4WithPHDR)] {
            let reader = try CaptureReader(bytes: CaptureFactory.capture(format, [record]), formats: testFormats)
            let back = try #require(reader.next())
            #expect(back.isSnapped)
            #expect(back.originalLength == 20)
            let summary = CaptureSummary(reading: try CaptureReader(bytes: CaptureFactory.capture(format, [record]), formats: testFormats))
            #expect(summary.snapped == 1)
        }
    }

    @Test func `the format comes from the magic bytes, not the name`() throws {
        let bytes = try CaptureFactory.capture(.pcap(.h4WithPHDR), CaptureFactory.sampleRecords(count: 2))
        let dir = TestPaths.temporaryDirectory()
        TestPaths.writeFile(dir + "/looks-like.btsnoop", bytes)
        let reader = try CaptureReader(path: dir + "/looks-like.btsnoop", formats: testFormats)
        #expect(reader.format == .pcap)
        #expect(reader.readAll().count == 2)
    }

    @Test func `PacketLogger files are read in either byte order`() throws {
        func pklg(bigEndian: Bool) -> [UInt8] {
            var bytes: [UInt8] = []
            func u32(_ v: UInt32) {
                let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
                bytes += bigEndian ? b : b.reversed()
            }
            let packets: [(UInt8, [UInt8])] = [
                (0xFC, Array("note".utf8)), (0x00, [0x03, 0x0C, 0x00]), (0x01, [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
                (0x03, [0x40, 0x20, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0A]),
            ]
            for (i, (type, payload)) in packets.enumerated() {
                u32(UInt32(9 + payload.count))
                u32(1_397_218_361)
                u32(721_923 + UInt32(i))
                bytes.append(type)
                bytes += payload
            }
            return bytes
        }
        for bigEndian in [true, false] {
            let reader = try CaptureReader(bytes: pklg(bigEndian: bigEndian), formats: testFormats)
            #expect(reader.format == .packetLogger)
            let records = reader.readAll()
            #expect(records.map(\.kind) == [.note, .command, .event, .acl])
            #expect(records.map(\.direction) == [.unknown, .sent, .received, .received])
            #expect(records[1].payload == [0x03, 0x0C, 0x00])
            #expect(records[3].timestamp == 1_397_218_361_721_926)
        }
    }
}
