import CaptureModel

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
    /// Opens a capture read front to back from `stream`, from its first byte: standard input, a
    /// gzip'd file, an archive member. The reader keeps the stream and reads it as it goes.
    func open(stream: any ByteStream, name: String) throws(CaptureError) -> any FormatReader
}

/// The reader of one format, as `CaptureReader` drives it.
public protocol FormatReader: RecordSource {
    var linkType: LinkType { get }
}

/// Reads any supported capture record by record, with memory that stays flat.
///
/// The format is found from the first bytes, never from the name: "btsnoop\0" → btsnoop (or, with
/// btsnooz records after the header, btsnoop+snooz); records that look like PacketLogger's →
/// PacketLogger; pcap magic (µs or ns, either byte order) or a pcapng section header → the external
/// format that reads it; `1f 8b` → gzip, read through; a zip or tar archive → the Bluetooth log it
/// holds; text → the BTSNOOP_LOG_SUMMARY section of an Android bug report or `dumpsys` output.
public final class CaptureReader: RecordSource {
    enum Source {
        case btsnoop(BTSnoopReader)
        case packetLogger(PacketLoggerReader)
        /// pcap, btsnooz, a joined session, an archive member read to the archive's end…
        case other(any FormatReader)
    }

    /// The path as given (several joined: "A + B").
    public let path: String
    public let format: CaptureFormat
    public let linkType: LinkType
    private let source: Source
    private let box: ContentsBox

    /// Archive layers, the logs found and read, joined parts, notes: what `info` lists.
    public var contents: CaptureContents { box.value }

    /// Opens the capture at `path` (`-`: standard input); `formats` read what this module does not
    /// (pcap, pcapng).
    public convenience init(path: String, formats: [any ExternalCaptureFormat] = []) throws(CaptureError) {
        try self.init(CaptureRequest(path: path), formats: formats)
    }

    /// Opens what `request` names: a capture, an archive's Bluetooth log, or several files joined.
    public convenience init(_ request: CaptureRequest, formats: [any ExternalCaptureFormat] = []) throws(CaptureError) {
        let opening = OpenSession(request: request, formats: formats)
        let opened = try opening.open()
        self.init(path: opening.displayPath, opened: opened, contents: opening.contents)
    }

    /// Reads a capture held in memory (tests, fuzzing); `name` is used in messages.
    public convenience init(
        bytes: [UInt8], name: String = "<memory>", formats: [any ExternalCaptureFormat] = [], limits: ArchiveLimits = ArchiveLimits()
    ) throws(CaptureError) {
        var request = CaptureRequest(path: name)
        request.limits = limits
        let opening = OpenSession(request: request, formats: formats)
        let opened = try opening.open(bytes: bytes, name: name)
        self.init(path: name, opened: opened, contents: opening.contents)
    }

    init(path: String, opened: Opened, contents: ContentsBox) {
        self.path = path
        source = opened.source
        format = opened.format
        box = contents
        switch opened.source {
        case .btsnoop(let reader): linkType = reader.datalink
        case .packetLogger: linkType = .packetLogger
        case .other(let reader): linkType = reader.linkType
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
        case .other(let reader): reader.next()
        }
    }

    /// Calls `body` with each remaining record, in order, until it returns false. The same records
    /// as `next()` in a loop, without going through this wrapper for each one.
    public func forEach(_ body: (CaptureRecord) -> Bool) {
        switch source {
        case .btsnoop(let reader): while let record = reader.next(), body(record) {}
        case .packetLogger(let reader): while let record = reader.next(), body(record) {}
        case .other(let reader): while let record = reader.next(), body(record) {}
        }
    }

    /// The records in a loop over the reader inside, which a call of `next()` for each record
    /// takes out of `source` (a retain and a release) every time.
    public func forEachRecord(_ body: (CaptureRecord, _ problemCount: Int) -> Bool) {
        switch source {
        case .btsnoop(let reader): while let record = reader.next(), body(record, reader.problems.count) {}
        case .packetLogger(let reader): while let record = reader.next(), body(record, reader.problems.count) {}
        case .other(let reader): while let record = reader.next(), body(record, reader.problemCount) {}
        }
    }

    public var problemCount: Int {
        switch source {
        case .btsnoop(let reader): reader.problems.count
        case .packetLogger(let reader): reader.problems.count
        case .other(let reader): reader.problemCount
        }
    }

    /// Damage found so far: damaged or cut records, with frame and byte offset.
    public var problems: ProblemLog {
        switch source {
        case .btsnoop(let reader): reader.problems
        case .packetLogger(let reader): reader.problems
        case .other(let reader): reader.problems
        }
    }

    /// Reads every remaining record into memory; for tests and small files.
    public func readAll() -> [StoredRecord] {
        var records: [StoredRecord] = []
        while let record = next() { records.append(record.stored()) }
        return records
    }
}

/// A reader found for a capture, and its format.
struct Opened {
    var source: CaptureReader.Source
    var format: CaptureFormat
}
