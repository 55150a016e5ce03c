import CaptureFiles
import CaptureModel
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A seed derived from a name, so each file or case gets its own stream and keeps it.
func seed(for name: String) -> UInt64 {
    name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0100_0000_01B3 }
}

/// What reading a capture gave: every record (owned) and the damage reported.
struct ReadOutcome {
    var records: [StoredRecord]
    /// File offset of each record.
    var offsets: [Int64]
    var problems: [CaptureProblem]
    var problemCount: Int
}

/// Reads a capture held in memory to its end; nil when it is refused as a whole (no header, not a capture).
func readCapture(_ bytes: [UInt8]) -> ReadOutcome? {
    guard let reader = try? CaptureReader(bytes: bytes, formats: testFormats) else { return nil }
    var records: [StoredRecord] = []
    var offsets: [Int64] = []
    while let record = reader.next() {
        records.append(record.stored())
        offsets.append(record.fileOffset)
    }
    return ReadOutcome(
        records: records, offsets: offsets, problems: reader.problems.items, problemCount: reader.problems.count)
}

/// Microseconds of CPU time this process has used (for generous time bounds that a loaded CI
/// machine does not trip as easily as wall time).
func processMicroseconds() -> Int64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int64(usage.ru_utime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_sec)
        * 1_000_000 + Int64(usage.ru_stime.tv_usec)
}

/// Wall-clock microseconds, monotonic.
func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}

/// Peak resident memory of this process, in KiB (Linux `ru_maxrss`).
func peakResidentKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// Builds Apple PacketLogger files byte by byte (little-endian, as PacketLogger.app writes).
enum PacketLoggerFile {
    /// One record: length (of everything after it), seconds, microseconds, type, packet.
    static func record(type: UInt8, _ packet: [UInt8], seconds: UInt32 = 1_700_000_000, micros: UInt32 = 0) -> [UInt8] {
        le32(UInt32(9 + packet.count)) + le32(seconds) + le32(micros) + [type] + packet
    }

    /// A small well-formed file: `count` HCI records of alternating kinds, a millisecond apart.
    static func sample(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for i in 0..<count {
            let micros = UInt32(i * 1000)
            switch i % 3 {
            // HCI LE Set Scan Enable (Core v5.4, Vol 4, Part E, §7.8.11).
            case 0: bytes += record(type: 0x00, [0x0C, 0x20, 0x02, 0x01, 0x00], micros: micros)
            // Command Complete for it.
            case 1: bytes += record(type: 0x01, [0x0E, 0x04, 0x01, 0x0C, 0x20, UInt8(i & 0xFF)], micros: micros)
            // ACL: ATT Handle Value Notification of handle 0x000E.
            default:
                bytes += record(
                    type: 0x03,
                    [0x40, 0x20, 0x09, 0x00, 0x05, 0x00, 0x04, 0x00, 0x1B, 0x0E, 0x00, 0x06, UInt8(i & 0xFF)],
                    micros: micros)
            }
        }
        return bytes
    }
}

/// Builds pcapng files byte by byte (little-endian sections, microsecond timestamps).
enum PcapNGFile {
    /// Section Header Block: byte-order magic, version 1.0, section length unknown.
    static let sectionHeader: [UInt8] =
        le32(0x0A0D_0D0A) + le32(28) + le32(0x1A2B_3C4D) + [1, 0, 0, 0] + [
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ]
        + le32(28)

    /// Interface Description Block for `linkType`, snap length 262144, no options.
    static func interface(linkType: UInt16) -> [UInt8] {
        le32(1) + le32(20) + [UInt8(linkType & 0xFF), UInt8(linkType >> 8), 0, 0] + le32(262_144) + le32(20)
    }

    /// Enhanced Packet Block on interface 0 with a 64-bit timestamp.
    static func packet(_ data: [UInt8], timestamp: UInt64) -> [UInt8] {
        let padded = data + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
        let length = UInt32(32 + padded.count)
        return le32(6) + le32(length) + le32(0) + le32(UInt32(timestamp >> 32)) + le32(UInt32(timestamp & 0xFFFF_FFFF))
            + le32(UInt32(data.count)) + le32(UInt32(data.count)) + padded + le32(length)
    }
}

func le32(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
}

func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }

/// Crash inputs kept from fuzzing: `Tests/Fixtures/regressions/<target>/*`.
enum Regressions {
    static let directory = TestPaths.fixtures + "/regressions"

    static func files(_ target: String) -> [String] {
        TestPaths.list(directory + "/" + target).filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.map {
            directory + "/" + target + "/" + $0
        }
    }
}
