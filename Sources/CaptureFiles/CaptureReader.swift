import CPcap

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads any supported capture file record by record, with memory that stays flat.
///
/// The format is found from the file's first bytes, never from its name:
/// "btsnoop\0" → btsnoop; pcap magic (µs or ns, either byte order) or a pcapng section header →
/// libpcap; records that look like PacketLogger's → PacketLogger.
public final class CaptureReader {
    enum Source {
        case btsnoop(BTSnoopReader)
        case packetLogger(PacketLoggerReader)
        case pcap(PcapReader)
    }

    public let path: String
    public let format: CaptureFormat
    public let linkType: LinkType
    private let source: Source

    /// Opens the capture at `path`.
    public convenience init(path: String) throws(CaptureError) {
        let fd = try openCaptureFile(path)
        var magic = [UInt8](repeating: 0, count: 8)
        let got = pread(fd, &magic, 8, 0)
        let head = Array(magic.prefix(max(got, 0)))
        if let pcapFormat = Self.pcapFormat(head) {
            guard let file = fdopen(fd, "rb") else {
                close(fd)
                throw .notReadable(path: path, reason: String(cString: strerror(errno)))
            }
            try self.init(path: path, source: .pcap(try PcapReader(file: file, path: path)), format: pcapFormat)
        } else {
            try self.init(path: path, input: InputBuffer(fd: fd))
        }
    }

    /// Reads a capture held in memory (tests, fuzzing); `name` is used in messages.
    public convenience init(bytes: [UInt8], name: String = "<memory>") throws(CaptureError) {
        if bytes.isEmpty { throw .empty(path: name) }
        if let pcapFormat = Self.pcapFormat(Array(bytes.prefix(8))) {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            guard let file = fmemopen(memory, bytes.count, "rb") else {
                memory.deallocate()
                throw .notReadable(path: name, reason: "fmemopen failed")
            }
            let reader = try PcapReader(file: file, path: name, memory: memory)
            try self.init(path: name, source: .pcap(reader), format: pcapFormat)
        } else {
            try self.init(path: name, input: InputBuffer(bytes: bytes))
        }
    }

    private convenience init(path: String, input: InputBuffer) throws(CaptureError) {
        if input.fill(BTSnoopReader.magic.count),
            (0..<BTSnoopReader.magic.count).allSatisfy({ input.byte(at: $0) == BTSnoopReader.magic[$0] })
        {
            try self.init(path: path, source: .btsnoop(try BTSnoopReader(input: input, path: path)), format: .btsnoop)
        } else if let bigEndian = PacketLoggerReader.recognise(input) {
            try self.init(
                path: path, source: .packetLogger(PacketLoggerReader(input: input, bigEndian: bigEndian)),
                format: .packetLogger)
        } else {
            _ = input.fill(16)
            let shown = min(input.available, 16)
            throw .notACapture(path: path, firstBytes: [UInt8](input.bytes(at: 0, count: shown)))
        }
    }

    private init(path: String, source: Source, format: CaptureFormat) throws(CaptureError) {
        self.path = path
        self.source = source
        self.format = format
        switch source {
        case .btsnoop(let reader): linkType = reader.datalink
        case .packetLogger: linkType = .packetLogger
        case .pcap(let reader): linkType = reader.linkType
        }
    }

    private static func pcapFormat(_ head: [UInt8]) -> CaptureFormat? {
        guard head.count >= 4 else { return nil }
        let magic = UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
        switch magic {
        case 0xa1b2_c3d4, 0xd4c3_b2a1, 0xa1b2_3c4d, 0x4d3c_b2a1: return .pcap
        case 0x0a0d_0d0a: return .pcapng
        default: return nil
        }
    }

    /// The next record, or nil at the end of the file (or where damage stopped reading).
    /// The record's payload is valid until the next call.
    @inline(__always)
    public func next() -> CaptureRecord? {
        switch source {
        case .btsnoop(let reader): reader.next()
        case .packetLogger(let reader): reader.next()
        case .pcap(let reader): reader.next()
        }
    }

    /// Calls `body` with each remaining record, in order, until it returns false. The same records
    /// as `next()` in a loop, without going through this wrapper for each one.
    public func forEach(_ body: (CaptureRecord) -> Bool) {
        switch source {
        case .btsnoop(let reader): while let record = reader.next(), body(record) {}
        case .packetLogger(let reader): while let record = reader.next(), body(record) {}
        case .pcap(let reader): while let record = reader.next(), body(record) {}
        }
    }

    /// Damage found so far: damaged or cut records, with frame and byte offset.
    public var problems: ProblemLog {
        switch source {
        case .btsnoop(let reader): reader.problems
        case .packetLogger(let reader): reader.problems
        case .pcap(let reader): reader.problems
        }
    }

    /// Reads every remaining record into memory; for tests and small files.
    public func readAll() -> [StoredRecord] {
        var records: [StoredRecord] = []
        while let record = next() { records.append(record.stored()) }
        return records
    }
}
