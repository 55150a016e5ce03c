@testable import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// Every reader fed crafted short inputs: each prefix of a small file of its format is either
/// refused as a whole or read as a prefix of the file's records, with the cut reported. And the
/// window every reader reads its headers through refuses a read past what it holds, in release
/// builds too.
struct ShortInputTests {
    enum Sample: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case btsnoopHCI, btsnoopUART, btsnoopMonitor, packetLoggerLittle, packetLoggerBig, pcap
        case snoozSection, snoozV1Section, btsnoopSnooz, gzip, zip, tar

        var testDescription: String { rawValue }

        var bytes: [UInt8] {
            let records = CaptureFactory.sampleRecords(count: 6)
            let snooz = SnoozTests.sampleRecords()
            switch self {
            case .btsnoopHCI: return (try? CaptureFactory.capture(.btsnoop(.btsnoopHCI), records)) ?? []
            case .btsnoopUART: return (try? CaptureFactory.capture(.btsnoop(.btsnoopUART), records)) ?? []
            case .btsnoopMonitor: return (try? CaptureFactory.capture(.btsnoop(.btsnoopMonitor), records)) ?? []
            case .packetLoggerLittle: return PacketLoggerBytes.sample(count: 6)
            case .packetLoggerBig:
                // The same records with every u32 field big-endian.
                var bytes = PacketLoggerBytes.sample(count: 6)
                var offset = 0
                while offset + 13 <= bytes.count {
                    let length = Int(bytes[offset]) + 4
                    for field in 0..<3 { bytes[(offset + 4 * field)..<(offset + 4 * field + 4)].reverse() }
                    offset += length
                }
                return bytes
            case .pcap: return (try? CaptureFactory.capture(.pcap(.h4WithPHDR), records)) ?? []
            case .snoozSection:
                return SnoozBuilder.text(
                    ring: SnoozBuilder.ring(version: 2, lastTimestamp: SnoozTests.last, records: SnoozBuilder.records(snooz, version: 2)),
                    declared: 1)
            case .snoozV1Section:
                return SnoozBuilder.text(
                    ring: SnoozBuilder.ring(version: 1, lastTimestamp: SnoozTests.last, records: SnoozBuilder.records(snooz, version: 1)),
                    declared: 1)
            case .btsnoopSnooz: return SnoozTests.btsnoopHeader + SnoozBuilder.records(snooz + snooz, version: 2)
            case .gzip: return Deflate.gzip(Sample.btsnoopUART.bytes)
            case .zip: return ZipBuilder([.init("FS/data/misc/bluetooth/logs/btsnoop_hci.log", Sample.btsnoopUART.bytes)]).bytes
            case .tar:
                return TarBuilder.archive(
                    [("logs/Bluetooth/bluetoothd-hci-latest.pklg", Sample.packetLoggerBig.bytes)], naming: .ustar)
            }
        }
    }

    @Test(arguments: Sample.allCases)
    func `every prefix of a small file reads as a prefix of its records, or is refused`(sample: Sample) throws {
        let whole = sample.bytes
        let all = try CaptureReader(bytes: whole, formats: testFormats)
        let expected = all.readAll()
        #expect(expected.count >= 4, "\(sample)")
        #expect(all.problems.count == 0, "\(sample): \(all.problems.items)")
        for length in 0..<whole.count {
            guard let reader = try? CaptureReader(bytes: Array(whole.prefix(length)), formats: testFormats) else { continue }
            let records = reader.readAll()
            #expect(records.count <= expected.count, "\(sample), \(length) bytes")
            for (read, wanted) in zip(records, expected) where !read.sameContent(as: wanted) || read.frame != wanted.frame {
                Issue.record("\(sample), \(length) bytes: frame \(read.frame) differs")
                break
            }
            // Anything short of the whole file is either cut between records (nothing to say, when the
            // format has no end marker) or reported.
            if records.count < expected.count, reader.problems.count == 0 {
                let wholeRecords = records.count
                #expect(wholeRecords == 0 || [.btsnoopHCI, .btsnoopUART, .btsnoopMonitor, .packetLoggerLittle, .packetLoggerBig, .pcap, .btsnoopSnooz, .tar].contains(sample),
                    "\(sample), \(length) bytes: \(wholeRecords) records and no problem")
            }
        }
    }

    @Test func `the window's checked reads stay inside what was filled`() {
        let input = InputBuffer(bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(input.fill(9))
        #expect(!input.fill(10))
        #expect(input.u32be(at: 5) == 0x0607_0809)
        #expect(input.u64be(at: 1) == 0x0203_0405_0607_0809)
        #expect(input.u16le(at: 7) == 0x0908)
        #expect(input.byte(at: 8) == 9)
        input.consume(6)
        #expect(input.available == 3)
        #expect(Array(input.bytes(at: 0, count: 3)) == [7, 8, 9])
    }

    @Test func `a read past the window stops the program rather than reading memory beyond it`() async {
        await #expect(processExitsWith: .failure) {
            let input = InputBuffer(bytes: [1, 2, 3])
            _ = input.u32be(at: 0)
        }
        await #expect(processExitsWith: .failure) {
            let input = InputBuffer(bytes: [1, 2, 3, 4, 5, 6, 7, 8])
            input.consume(6)
            _ = input.byte(at: 2)
        }
        await #expect(processExitsWith: .failure) {
            let input = InputBuffer(bytes: [1, 2, 3, 4])
            _ = input.bytes(at: -1, count: 2)
        }
    }
}
