import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A capture format whose reader lives outside this module: pcap and pcapng through libpcap
/// (`PcapFiles.PcapFormat`), so that these readers build where libpcap does not exist (iOS).
public protocol ExternalCaptureFormat: Sendable {
    /// The format, when a capture starting with `head` (its first 8 bytes, fewer when it is shorter)
    /// is one this reads.
    func recognise(_ head: [UInt8]) -> CaptureFormat?
    /// Opens the regular file `fd`, positioned at its start; the reader owns and closes it.
    func open(fd: Int32, path: String) throws(CaptureError) -> any FormatReader
    /// Opens a capture held in memory; `name` is used in messages.
    func open(bytes: [UInt8], name: String) throws(CaptureError) -> any FormatReader
}

/// The reader of one format, as `CaptureReader` drives it.
public protocol FormatReader: RecordSource {
    var linkType: LinkType { get }
}

/// Reads any supported capture file record by record, with memory that stays flat.
///
/// The format is found from the file's first bytes, never from its name:
/// "btsnoop\0" → btsnoop; records that look like PacketLogger's → PacketLogger; pcap magic (µs or
/// ns, either byte order) or a pcapng section header → the external format that reads it.
public final class CaptureReader: RecordSource {
    enum Source {
        case btsnoop(BTSnoopReader)
        case packetLogger(PacketLoggerReader)
        case external(any FormatReader)
    }

    public let path: String
    public let format: CaptureFormat
    public let linkType: LinkType
    private let source: Source

    /// Opens the capture at `path`; `formats` read what this module does not (pcap, pcapng).
    public convenience init(path: String, formats: [any ExternalCaptureFormat] = []) throws(CaptureError) {
        let fd = try openCaptureFile(path)
        var magic = [UInt8](repeating: 0, count: 8)
        let got = pread(fd, &magic, 8, 0)
        let head = Array(magic.prefix(max(got, 0)))
        if let (external, format) = try Self.external(head, formats, path: path, closing: fd) {
            try self.init(path: path, source: .external(try external.open(fd: fd, path: path)), format: format)
        } else {
            try self.init(path: path, input: InputBuffer(fd: fd))
        }
    }

    /// Reads a capture held in memory (tests, fuzzing); `name` is used in messages.
    public convenience init(bytes: [UInt8], name: String = "<memory>", formats: [any ExternalCaptureFormat] = [])
        throws(CaptureError)
    {
        if bytes.isEmpty { throw .empty(path: name) }
        if let (external, format) = try Self.external(Array(bytes.prefix(8)), formats, path: name, closing: nil) {
            try self.init(path: name, source: .external(try external.open(bytes: bytes, name: name)), format: format)
        } else {
            try self.init(path: name, input: InputBuffer(bytes: bytes))
        }
    }

    /// The external format that reads a capture starting with `head`; nil when it is none of
    /// theirs; an error when it is pcap or pcapng and no format given reads it.
    private static func external(
        _ head: [UInt8], _ formats: [any ExternalCaptureFormat], path: String, closing fd: Int32?
    ) throws(CaptureError) -> (any ExternalCaptureFormat, CaptureFormat)? {
        for external in formats {
            if let format = external.recognise(head) { return (external, format) }
        }
        guard let format = pcapMagic(head) else { return nil }
        if let fd { close(fd) }
        throw .formatNotAvailable(path: path, format: format)
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
        case .external(let reader): linkType = reader.linkType
        }
    }

    /// pcap (µs or ns magic, either byte order) or pcapng, from a file's first bytes.
    public static func pcapMagic(_ head: [UInt8]) -> CaptureFormat? {
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
        case .external(let reader): reader.next()
        }
    }

    /// Calls `body` with each remaining record, in order, until it returns false. The same records
    /// as `next()` in a loop, without going through this wrapper for each one.
    public func forEach(_ body: (CaptureRecord) -> Bool) {
        switch source {
        case .btsnoop(let reader): while let record = reader.next(), body(record) {}
        case .packetLogger(let reader): while let record = reader.next(), body(record) {}
        case .external(let reader): while let record = reader.next(), body(record) {}
        }
    }

    public var problemCount: Int {
        switch source {
        case .btsnoop(let reader): reader.problems.count
        case .packetLogger(let reader): reader.problems.count
        case .external(let reader): reader.problemCount
        }
    }

    /// Damage found so far: damaged or cut records, with frame and byte offset.
    public var problems: ProblemLog {
        switch source {
        case .btsnoop(let reader): reader.problems
        case .packetLogger(let reader): reader.problems
        case .external(let reader): reader.problems
        }
    }

    /// Reads every remaining record into memory; for tests and small files.
    public func readAll() -> [StoredRecord] {
        var records: [StoredRecord] = []
        while let record = next() { records.append(record.stored()) }
        return records
    }
}
