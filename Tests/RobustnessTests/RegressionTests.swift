import CaptureFiles
import Testing
import TestSupport

/// Inputs that once crashed a reader, found by the fuzz targets in Fuzz/Targets. Each test builds
/// the smallest input that shows the bug; the crash files themselves are replayed below.
struct CaptureRegressionTests {
    /// Found by `scripts/fuzz pklg`: while resynchronizing after a damaged record, the reader took a
    /// good record followed by fewer than 12 bytes as confirmed, and read the next "header" past the
    /// end of the input.
    @Test func `a PacketLogger resynchronization near the end reads nothing past the file`() throws {
        // Five good records first: PacketLogger is recognised by its first five.
        let first = PacketLoggerFile.sample(count: 5)
        // A record length of 2 cannot hold the timestamp: damage.
        let damaged: [UInt8] = [0x02, 0x00, 0x00, 0x00]
        let second = PacketLoggerFile.record(type: 0x01, [0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00], micros: 6000)
        // Two bytes: too few for another record header.
        let bytes = first + damaged + second + [0x11, 0x22]
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 2, 3, 4, 5])
        let problem = try #require(outcome.problems.first)
        #expect(problem.kind == .badRecord)
        #expect(problem.frame == 6)
        #expect(problem.offset == Int64(first.count))
        #expect(problem.reason == "record length 2 is too small")
        // The second record is not confirmed by a header after it, so reading does not resume.
        #expect(problem.skippedBytes == nil)
    }

    @Test(arguments: Regressions.files("pklg") + Regressions.files("pcap") + Regressions.files("btsnoop"))
    func `every kept crash input reads to its end`(path: String) throws {
        let bytes = try #require(TestPaths.readFile(path))
        guard let outcome = readCapture(bytes) else { return }
        #expect(outcome.records.count + outcome.problemCount >= 1, "\(path)")
    }
}

struct PcapRegressionTests {
    /// Found by `scripts/fuzz pcap`: a pcapng timestamp of 2^64 - 1 µs gives libpcap a tv_sec that
    /// overflows when turned into microseconds.
    @Test func `a pcapng timestamp too large for microseconds does not stop reading`() throws {
        // H4 with pseudo-header: direction (received), then HCI Command Complete.
        let packet: [UInt8] = [0, 0, 0, 1, 0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
        let bytes =
            PcapNGFile.sectionHeader + PcapNGFile.interface(linkType: 201)
            + PcapNGFile.packet(packet, timestamp: .max) + PcapNGFile.packet(packet, timestamp: 1_700_000_000_000_000)
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 2])
        #expect(outcome.records.map(\.payload) == [Array(packet.dropFirst(5)), Array(packet.dropFirst(5))])
        // The 64-bit count wraps to its two's-complement value.
        #expect(outcome.records.map(\.timestamp) == [-1, 1_700_000_000_000_000])
        #expect(outcome.problems.isEmpty)
    }
}
