import CPcap
import CaptureFiles
import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// pcap (µs and ns magic, either byte order) and pcapng, read through libpcap: give it to
/// `CaptureReader` (`CaptureReader(path:formats: [PcapFormat()])`).
public struct PcapFormat: ExternalCaptureFormat {
    public init() {}

    public func recognise(_ head: [UInt8]) -> CaptureFormat? { CaptureReader.pcapMagic(head) }

    public func open(fd: Int32, path: String) throws(CaptureError) -> any FormatReader {
        guard let file = fdopen(fd, "rb") else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .notReadable(path: path, reason: reason)
        }
        return try PcapReader(file: file, path: path)
    }

    public func open(bytes: [UInt8], name: String) throws(CaptureError) -> any FormatReader {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        guard let file = fmemopen(memory, bytes.count, "rb") else {
            memory.deallocate()
            throw .notReadable(path: name, reason: "fmemopen failed")
        }
        return try PcapReader(file: file, path: name, memory: memory)
    }

    public func open(stream: any ByteStream, name: String) throws(CaptureError) -> any FormatReader {
        guard let (file, cookie) = openFile(reading: stream) else {
            throw .notReadable(path: name, reason: "the C library could not make a stream for libpcap")
        }
        do {
            return try PcapReader(file: file, path: name, cookie: cookie)
        } catch {
            // libpcap read the header from the stream: a damaged gzip says so better than it.
            if let failure = cookie.failure { throw .archive(path: name, reason: failure.message) }
            throw error
        }
    }
}

/// Reads pcap and pcapng through libpcap.
final class PcapReader: FormatReader {
    static let supported: Set<LinkType> = [
        .h4, .h4WithPHDR, .linuxMonitor, .leLL, .leLLWithPHDR, .nordicBLE, .ppi, .user0,
    ]

    let linkType: LinkType
    let isNextGeneration: Bool
    private let pcap: bluetape_pcap
    private let handle: OpaquePointer
    private var memory: UnsafeMutableRawPointer?
    /// The stream read through `openFile(reading:)`, whose failure explains libpcap's I/O error.
    private let cookie: StreamCookie?
    private(set) var problems = ProblemLog()
    private var frame = 0

    /// Opens `file` (which the reader then owns and closes).
    init(
        file: UnsafeMutablePointer<FILE>, path: String, memory: UnsafeMutableRawPointer? = nil, cookie: StreamCookie? = nil
    ) throws(CaptureError) {
        // Until libpcap holds the file, a failure closes it here.
        func failure(_ message: String) -> CaptureError {
            fclose(file)
            memory?.deallocate()
            return .libpcap(path: path, message: message)
        }
        let pcap: bluetape_pcap
        do { pcap = try Libpcap.functions() } catch { throw failure(error.message) }
        var errorBuffer = Libpcap.errorBuffer()
        guard let handle = pcap.fopen_offline(file, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errorBuffer) else {
            let message = Libpcap.text(errorBuffer)
            throw failure(message.isEmpty ? "libpcap could not open the file" : message)
        }
        self.pcap = pcap
        self.handle = handle
        self.memory = memory
        self.cookie = cookie
        linkType = LinkType(rawValue: UInt32(pcap.datalink(handle)))
        isNextGeneration = pcap.major_version(handle) != 2
        // Fully initialized: deinit closes the handle if this throws.
        guard Self.supported.contains(linkType) else { throw .unsupportedDatalink(path: path, datalink: linkType) }
    }

    deinit {
        pcap.close(handle)
        memory?.deallocate()
    }

    func next() -> CaptureRecord? {
        while true {
            let offset = max(Int64(ftell(pcap.file(handle))), 0)
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let status = pcap.next_ex(handle, &header, &data)
            if status == PCAP_ERROR_BREAK { return nil }  // end of file
            guard status == 1, let header, let data else {
                if let failure = cookie?.failure {
                    let kind: CaptureProblem.Kind = failure.kind == .truncated ? .truncatedTail : .readError
                    problems.add(CaptureProblem(kind: kind, frame: frame + 1, offset: max(offset, 0), reason: failure.message))
                    return nil
                }
                let message = Libpcap.error(handle, pcap)
                let kind: CaptureProblem.Kind = message.contains("truncated") ? .truncatedTail : .badRecord
                problems.add(CaptureProblem(kind: kind, frame: frame + 1, offset: offset, reason: message))
                return nil
            }
            frame += 1
            let captured = Int(header.pointee.caplen)
            if captured > maximumRecordLength + 64 {
                problems.add(
                    CaptureProblem(
                        kind: .badRecord, frame: frame, offset: offset,
                        reason: "record length \(captured) exceeds the 64 KiB maximum", skippedBytes: Int64(captured)))
                continue
            }
            // pcapng timestamps are 64-bit counts, so tv_sec can be too large for microseconds: a damaged
            // timestamp wraps (as btsnoop's does) instead of stopping the program.
            let timestamp = Int64(header.pointee.ts.tv_sec) &* 1_000_000 &+ Int64(header.pointee.ts.tv_usec)
            var record = CaptureRecord(
                frame: frame, timestamp: timestamp, direction: .unknown, kind: .other, adapter: 0,
                linkType: linkType, sourceType: 0,
                payload: UnsafeRawBufferPointer(start: data, count: captured),
                originalLength: max(Int(header.pointee.len), captured), fileOffset: offset)
            unwrap(&record)
            return record
        }
    }

    /// Strips the datalink's pseudo-header and fills in kind, direction and adapter.
    private func unwrap(_ record: inout CaptureRecord) {
        var reader = PseudoHeader(record.payload)
        switch linkType {
        case .h4:
            guard let type = reader.u8(), let kind = RecordKind(h4Type: type) else { return }
            record.kind = kind
            record.direction = HCIFraming.impliedDirection(kind)
            record.sourceType = UInt16(type)
        case .h4WithPHDR:
            guard let direction = reader.u32be(), let type = reader.u8(), let kind = RecordKind(h4Type: type)
            else { return }
            record.kind = kind
            record.direction = direction & 1 == 0 ? .sent : .received
            record.sourceType = UInt16(type)
        case .linuxMonitor:
            guard let adapter = reader.u16be(), let opcode = reader.u16be() else { return }
            (record.kind, record.direction) = HCIFraming.monitor(opcode: opcode)
            record.adapter = adapter
            record.sourceType = opcode
        case .ppi:
            // PPI: version, flags, header length (LE u16), wrapped datalink (LE u32), fields.
            guard reader.u8() != nil, reader.u8() != nil, let length = reader.u16le(), let inner = reader.u32le(),
                length >= 8, reader.skip(Int(length) - 8)
            else { return }
            record.linkType = LinkType(rawValue: inner)
            if record.linkType.isLinkLayer { record.kind = .linkLayer }
        default:
            record.kind = .linkLayer
            record.sourceType = 0
            return
        }
        let consumed = reader.consumed
        record.payload = UnsafeRawBufferPointer(rebasing: record.payload.dropFirst(consumed))
        record.originalLength -= consumed
    }
}

/// A tiny cursor for pseudo-headers: nil instead of an error, since a short pseudo-header just
/// leaves the record as kind `.other`.
struct PseudoHeader {
    let bytes: UnsafeRawBufferPointer
    var consumed = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func u8() -> UInt8? {
        guard consumed < bytes.count else { return nil }
        defer { consumed += 1 }
        return bytes[consumed]
    }
    mutating func u16be() -> UInt16? {
        guard let a = u8(), let b = u8() else { return nil }
        return UInt16(a) << 8 | UInt16(b)
    }
    mutating func u16le() -> UInt16? { u16be().map { $0.byteSwapped } }
    mutating func u32be() -> UInt32? {
        guard let a = u16be(), let b = u16be() else { return nil }
        return UInt32(a) << 16 | UInt32(b)
    }
    mutating func u32le() -> UInt32? { u32be().map { $0.byteSwapped } }
    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, consumed + n <= bytes.count else { return false }
        consumed += n
        return true
    }
}
