import CPcap
import CaptureFiles
import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The packets of a pcap or pcapng file exactly as libpcap reads them: header and every byte,
/// pseudo-headers included. Read beside a `CaptureReader` of the same file, it gives what the
/// reader strips (a PPI header, the H4 direction word) and the timestamps to the nanosecond, so
/// that a capture can be written back as it was with only its packets' contents changed.
public final class PcapPackets {
    public struct Packet {
        /// 1-based, the same numbering as the reader's frames.
        public var frame: Int
        public var seconds: Int
        public var nanoseconds: Int
        public var originalLength: Int
        public var bytes: UnsafeRawBufferPointer
    }

    public let linkType: LinkType
    public let snapLength: Int
    /// The file is pcapng (written back as pcap).
    public let isNextGeneration: Bool
    /// The file is pcap with nanosecond timestamps.
    public let isNanosecond: Bool
    private let pcap: bluetape_pcap
    private let handle: OpaquePointer
    private var frame = 0

    public init(path: String) throws(CaptureError) {
        let pcap: bluetape_pcap
        do { pcap = try Libpcap.functions() } catch { throw .libpcap(path: path, message: error.message) }
        var errorBuffer = Libpcap.errorBuffer()
        guard let handle = pcap.open_offline(path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer) else {
            let message = Libpcap.text(errorBuffer)
            throw .libpcap(path: path, message: message.isEmpty ? "libpcap could not open the file" : message)
        }
        self.pcap = pcap
        self.handle = handle
        linkType = LinkType(rawValue: UInt32(pcap.datalink(handle)))
        let snapshot = Int(pcap.snapshot(handle))
        snapLength = snapshot > 0 ? snapshot : 262_144
        isNextGeneration = pcap.major_version(handle) != 2
        // libpcap converts timestamps to the precision asked for; the file's own is in its magic.
        var magic = [UInt8](repeating: 0, count: 4)
        let file = fopen(path, "rb")
        if let file {
            _ = fread(&magic, 1, 4, file)
            fclose(file)
        }
        isNanosecond = magic == [0xa1, 0xb2, 0x3c, 0x4d] || magic == [0x4d, 0x3c, 0xb2, 0xa1]
    }

    deinit { pcap.close(handle) }

    /// The next packet (its bytes valid until the next call), or nil at the end or at damage.
    public func next() -> Packet? {
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        guard pcap.next_ex(handle, &header, &data) == 1, let header, let data else { return nil }
        frame += 1
        return Packet(
            frame: frame, seconds: Int(header.pointee.ts.tv_sec), nanoseconds: Int(header.pointee.ts.tv_usec),
            originalLength: Int(header.pointee.len),
            bytes: UnsafeRawBufferPointer(start: data, count: Int(header.pointee.caplen)))
    }
}

/// Writes pcap through libpcap's dump API, with any link type: what `PcapPackets` read, written
/// back with new contents. To a file, or into memory (`bytes` after `finish`).
public final class PcapDumpWriter {
    private let pcap: bluetape_pcap
    private let dead: OpaquePointer
    private var dumper: OpaquePointer?
    private let path: String
    private let nanosecond: Bool
    private var memory: UnsafeMutablePointer<CChar>?
    private var memorySize = 0
    public private(set) var bytes: [UInt8] = []
    public private(set) var recordsWritten = 0

    /// Creates (or replaces) the file at `path`; nil `path` collects the capture in memory.
    public init(path: String?, linkType: LinkType, snapLength: Int, nanosecond: Bool) throws(CaptureWriteError) {
        self.path = path ?? "<memory>"
        self.nanosecond = nanosecond
        let pcap: bluetape_pcap
        do { pcap = try Libpcap.functions() } catch { throw CaptureWriteError(path: self.path, reason: error.message) }
        self.pcap = pcap
        let precision = UInt32(nanosecond ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO)
        guard let dead = pcap.open_dead(Int32(bitPattern: linkType.rawValue), Int32(snapLength), precision) else {
            throw CaptureWriteError(path: self.path, reason: "libpcap cannot write link type \(linkType.rawValue)")
        }
        self.dead = dead
        if let path {
            dumper = pcap.dump_open(dead, path)
        } else if let file = open_memstream(&memory, &memorySize) {
            dumper = pcap.dump_fopen(dead, file)
        }
        guard dumper != nil else {
            let reason = Libpcap.error(dead, pcap)
            pcap.close(dead)
            throw CaptureWriteError(path: self.path, reason: reason)
        }
    }

    deinit {
        if let dumper { pcap.dump_close(dumper) }
        pcap.close(dead)
        free(memory)
    }

    /// Appends one packet; `nanoseconds` is the fraction of the second (written as microseconds
    /// when the file is not nanosecond-precision).
    public func write(
        seconds: Int, nanoseconds: Int, originalLength: Int, _ bytes: some Collection<UInt8>
    ) throws(CaptureWriteError) {
        guard let dumper else { throw CaptureWriteError(path: path, reason: "already finished") }
        var header = pcap_pkthdr()
        header.ts.tv_sec = .init(seconds)
        header.ts.tv_usec = .init(nanosecond ? nanoseconds : nanoseconds / 1000)
        header.caplen = UInt32(bytes.count)
        header.len = UInt32(max(originalLength, bytes.count))
        let contiguous = Array(bytes)
        contiguous.withUnsafeBufferPointer { buffer in
            pcap.dump(UnsafeMutableRawPointer(dumper), &header, buffer.baseAddress)
        }
        recordsWritten += 1
    }

    /// Flushes and closes the file (or the memory stream, whose bytes are then in `bytes`).
    public func finish() throws(CaptureWriteError) {
        guard let dumper else { return }
        let flushed = pcap.dump_flush(dumper)
        pcap.dump_close(dumper)
        self.dumper = nil
        if let memory {
            bytes = memory.withMemoryRebound(to: UInt8.self, capacity: memorySize) {
                Array(UnsafeBufferPointer(start: $0, count: memorySize))
            }
        }
        if flushed != 0 { throw CaptureWriteError(path: path, reason: "cannot write") }
    }
}
