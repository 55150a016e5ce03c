import CaptureFiles
import CaptureModel
import JSON
import PcapFiles
import Scrub
import SystemIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A capture file scrubbed into the same format: read twice (the scrubber learns, then rewrites),
/// written record by record. pcap and pcapng are written through libpcap with each packet's
/// pseudo-header and timestamp as they were (pcapng as pcap with the same link type).
struct ScrubbedCapture {
    /// How the scrubbed capture is written.
    enum Framing {
        case capture(CaptureWriter.Format)
        case pcap(linkType: LinkType, snapLength: Int, nanosecond: Bool)
    }

    let path: String
    let framing: Framing
    /// Said on stderr when the format changes (pcapng written as pcap).
    let note: String?

    init(path: String) throws(InputError) {
        self.path = path
        let reader = try Self.reader(path)
        switch reader.format {
        case .btsnoop:
            framing = .capture(.btsnoop(reader.linkType))
            note = nil
        case .packetLogger:
            framing = .capture(.packetLogger(bigEndian: CaptureWriter.packetLoggerIsBigEndian(Self.head(of: path)) ?? false))
            note = nil
        case .btsnooz, .btsnoopSnooz:
            // Android's ring keeps no file of its own to write back: its records become btsnoop.
            framing = .capture(.btsnoop(reader.linkType))
            note = "\(path) is \(reader.format.rawValue): the scrubbed capture is btsnoop with the same records"
        case .pcap, .pcapng:
            let packets: PcapPackets
            do {
                packets = try PcapPackets(path: path)
            } catch {
                throw InputError(error.description)
            }
            framing = .pcap(linkType: packets.linkType, snapLength: packets.snapLength, nanosecond: packets.isNanosecond)
            note = packets.isNextGeneration
                ? "\(path) is pcapng: the scrubbed capture is pcap with the same link type (\(packets.linkType.rawValue))"
                : nil
        }
    }

    /// Scrubs into `destination` (a file), or into memory when nil; returns the bytes written to
    /// memory and the damage found in the input (everything readable is scrubbed and written).
    func write(to destination: String?, with scrubber: Scrubber, progress: Output? = nil) throws(InputError) -> (
        bytes: [UInt8], problems: ProblemLog, unwritable: Int
    ) {
        var shown = ScrubProgress(stderr: progress)
        scrubber.learn(try Self.reader(path)) { shown.step("reading") }
        let reader = try Self.reader(path)
        defer { shown.done() }
        var unwritable = 0
        do {
            switch framing {
            case .capture(let format):
                let writer = try destination.map { path throws(CaptureWriteError) in try CaptureWriter(path: path, format: format) }
                    ?? CaptureWriter(format: format)
                scrubber.rewrite(reader, stop: { shown.step("writing") }) { record in
                    do { try writer.write(record) } catch { unwritable += 1 }
                }
                try writer.finish()
                return (destination == nil ? writer.bytes : [], reader.problems, unwritable)
            case .pcap(let linkType, let snapLength, let nanosecond):
                // Read beside the reader, for the pseudo-headers it strips.
                let source = PairedPackets(reader: reader, packets: try Self.packets(path))
                let writer = try PcapDumpWriter(
                    path: destination, linkType: linkType, snapLength: snapLength, nanosecond: nanosecond)
                scrubber.rewrite(source, stop: { shown.step("writing") }) { record in
                    guard let packet = source.take(record.frame) else {
                        unwritable += 1
                        return
                    }
                    do {
                        try writer.write(
                            seconds: packet.seconds, nanoseconds: packet.nanoseconds,
                            originalLength: packet.originalLength, packet.prefix + record.payload)
                    } catch {
                        unwritable += 1
                    }
                }
                try writer.finish()
                return (writer.bytes, reader.problems, unwritable)
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("\(error)")
        }
    }

    /// The capture scrubbed into memory and opened again, with the first damage the original had.
    static func inMemory(path: String, options: ScrubOptions) throws(InputError) -> (bytes: [UInt8], damage: CaptureProblem?) {
        let capture = try ScrubbedCapture(path: path)
        let written = try capture.write(to: nil, with: Scrubber(options: options))
        return (written.bytes, written.problems.items.first)
    }

    /// The capture read record by record, for each of the two passes.
    private static func reader(_ path: String) throws(InputError) -> CaptureReader {
        do {
            return try CaptureReader(path: path, formats: captureFormats)
        } catch {
            throw InputError(error.description)
        }
    }

    private static func packets(_ path: String) throws(InputError) -> PcapPackets {
        do {
            return try PcapPackets(path: path)
        } catch {
            throw InputError(error.description)
        }
    }

    /// The first records of a file, for PacketLogger's byte order.
    private static func head(of path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = fread(&bytes, 1, bytes.count, file)
        return Array(bytes.prefix(max(count, 0)))
    }
}

/// A capture's records, each with what libpcap read for it: the pseudo-header the reader stripped
/// (the raw packet minus the record's payload) and the exact timestamp. Kept only until the record
/// is written, so memory stays bounded by the scrubber's queue.
final class PairedPackets: RecordSource {
    struct Packet {
        var prefix: [UInt8]
        var seconds: Int
        var nanoseconds: Int
        var originalLength: Int
    }

    private let reader: CaptureReader
    private let packets: PcapPackets
    private var waiting: [Int: Packet] = [:]

    init(reader: CaptureReader, packets: PcapPackets) {
        self.reader = reader
        self.packets = packets
    }

    func next() -> CaptureRecord? {
        guard let record = reader.next() else { return nil }
        // The reader may skip a packet it cannot take (one too long to be real): libpcap does not.
        while let packet = packets.next(), packet.frame <= record.frame {
            guard packet.frame == record.frame else { continue }
            let prefix = max(packet.bytes.count - record.payload.count, 0)
            waiting[record.frame] = Packet(
                prefix: Array(packet.bytes.prefix(prefix)), seconds: packet.seconds, nanoseconds: packet.nanoseconds,
                originalLength: packet.originalLength)
            break
        }
        return record
    }

    var problems: ProblemLog { reader.problems }

    func take(_ frame: Int) -> Packet? { waiting.removeValue(forKey: frame) }
}

/// The progress line of a long scrub: records read and written, on stderr when it is a terminal,
/// at most four times a second.
struct ScrubProgress {
    let stderr: Output?
    private var records = 0
    private var pass = ""
    private var last: Int64 = 0

    init(stderr: Output?) { self.stderr = stderr?.isTerminal == true ? stderr : nil }

    /// Counts one record; returns false (the scrubber's "stop?" question).
    mutating func step(_ pass: String) -> Bool {
        guard let stderr else { return false }
        if pass != self.pass {
            self.pass = pass
            records = 0
        }
        records += 1
        guard records & 0x3FF == 0 else { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let millis = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        guard millis - last >= 250 else { return false }
        last = millis
        stderr.write("\r\(pass) \(records) records…")
        stderr.flush()
        return false
    }

    func done() {
        guard let stderr else { return }
        stderr.write("\r\u{1B}[K")
        stderr.flush()
    }
}
