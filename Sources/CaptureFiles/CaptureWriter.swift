import CaptureModel
import ByteReading

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a capture could not be written.
public struct CaptureWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot write (\(reason))" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Writes captures: btsnoop (datalinks 1001, 1002, 2001), pcap (link types 187, 201, 254, or
/// any link-layer type for link-layer records) and PacketLogger (either byte order). The inverse of
/// `CaptureReader` for those formats.
public final class CaptureWriter {
    public enum Format: Sendable, Hashable {
        case btsnoop(LinkType)
        case pcap(LinkType)
        /// Apple PacketLogger: no file header; big-endian as BTstack writes it, little as PacketLogger.app.
        case packetLogger(bigEndian: Bool)
    }

    public let format: Format
    private let path: String
    private var fd: Int32 = -1
    private var buffer = ByteWriter(capacity: 1 << 20)
    private var flushed: [UInt8] = []
    private let inMemory: Bool
    public private(set) var recordsWritten = 0

    /// Creates (or replaces) the file at `path` and writes the file header.
    public init(path: String, format: Format) throws(CaptureWriteError) {
        self.format = format
        self.path = path
        inMemory = false
        try Self.validate(format, path: path)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CaptureWriteError(path: path, reason: String(cString: strerror(errno))) }
        writeHeader()
    }

    /// Collects the capture in memory; read it with `bytes` after the last record.
    public init(format: Format) throws(CaptureWriteError) {
        self.format = format
        path = "<memory>"
        inMemory = true
        try Self.validate(format, path: path)
        writeHeader()
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    private static func validate(_ format: Format, path: String) throws(CaptureWriteError) {
        switch format {
        case .btsnoop(let link):
            guard [.btsnoopHCI, .btsnoopUART, .btsnoopMonitor].contains(link) else {
                throw CaptureWriteError(path: path, reason: "btsnoop datalink \(link.rawValue) cannot be written")
            }
        case .pcap(let link):
            guard link == .h4 || link == .h4WithPHDR || link == .linuxMonitor || link.isLinkLayer else {
                throw CaptureWriteError(path: path, reason: "pcap link type \(link.rawValue) cannot be written")
            }
        case .packetLogger:
            break
        }
    }

    private func writeHeader() {
        switch format {
        case .btsnoop(let link):
            buffer.append(Array("btsnoop\0".utf8))
            buffer.u32be(1)
            buffer.u32be(link.rawValue)
        case .pcap(let link):
            buffer.u32le(0xa1b2_c3d4)
            buffer.u16le(2)
            buffer.u16le(4)
            buffer.u32le(0)  // thiszone
            buffer.u32le(0)  // sigfigs
            buffer.u32le(262_144)  // snaplen
            buffer.u32le(link.rawValue)
        case .packetLogger:
            break
        }
    }

    /// The capture written so far (in-memory writers).
    public var bytes: [UInt8] { flushed + buffer.bytes }

    public func write(_ record: StoredRecord) throws(CaptureWriteError) {
        if case .packetLogger = format {
            return try writePacketLogger(
                type: record.linkType == .packetLogger ? UInt8(truncatingIfNeeded: record.sourceType) : nil,
                kind: record.kind, direction: record.direction, timestamp: record.timestamp, payload: record.payload)
        }
        try write(
            kind: record.kind, direction: record.direction, adapter: record.adapter, timestamp: record.timestamp,
            payload: record.payload, originalLength: record.originalLength,
            monitorOpcode: record.linkType.isMonitor ? record.sourceType : nil)
    }

    public func write(_ record: CaptureRecord) throws(CaptureWriteError) {
        if case .packetLogger = format {
            return try writePacketLogger(
                type: record.linkType == .packetLogger ? UInt8(truncatingIfNeeded: record.sourceType) : nil,
                kind: record.kind, direction: record.direction, timestamp: record.timestamp, payload: record.payload)
        }
        try write(
            kind: record.kind, direction: record.direction, adapter: record.adapter, timestamp: record.timestamp,
            payload: record.payload, originalLength: record.originalLength,
            monitorOpcode: record.linkType.isMonitor ? record.sourceType : nil)
    }

    /// Appends one record. `originalLength` larger than the payload writes a snapped record.
    /// `monitorOpcode` keeps a Linux-monitor record's exact opcode (index and logging records).
    public func write<Bytes: Collection<UInt8>>(
        kind: RecordKind, direction: Direction, adapter: UInt16 = 0, timestamp: Int64, payload: Bytes,
        originalLength: Int? = nil, monitorOpcode: UInt16? = nil
    ) throws(CaptureWriteError) {
        let original = max(originalLength ?? payload.count, payload.count)
        switch format {
        case .packetLogger:
            try writePacketLogger(type: nil, kind: kind, direction: direction, timestamp: timestamp, payload: payload)
            return
        case .btsnoop(let link):
            var prefix: [UInt8] = []
            var flags: UInt32
            switch link {
            case .btsnoopMonitor:
                let opcode = monitorOpcode ?? HCIFraming.monitorOpcode(kind: kind, direction: direction) ?? 13
                flags = UInt32(adapter) << 16 | UInt32(opcode)
            default:
                guard let h4 = kind.h4Type else {
                    throw CaptureWriteError(path: path, reason: "a \(kind.name) record has no place in datalink \(link.rawValue)")
                }
                if link == .btsnoopUART { prefix = [h4] }
                let received = direction == .received || (direction == .unknown && kind == .event)
                flags = (received ? 1 : 0) | (kind == .command || kind == .event ? 2 : 0)
            }
            buffer.u32be(UInt32(original + prefix.count))
            buffer.u32be(UInt32(payload.count + prefix.count))
            buffer.u32be(flags)
            buffer.u32be(0)
            buffer.u64be(UInt64(bitPattern: timestamp &+ BTSnoopReader.epochOffset))
            buffer.append(prefix)
        case .pcap(let link):
            var prefix = ByteWriter(capacity: 8)
            switch link {
            case .h4WithPHDR, .h4:
                guard let h4 = kind.h4Type else {
                    throw CaptureWriteError(path: path, reason: "a \(kind.name) record has no place in link type \(link.rawValue)")
                }
                if link == .h4WithPHDR { prefix.u32be(direction == .received ? 1 : 0) }
                prefix.u8(h4)
            case .linuxMonitor:
                prefix.u16be(adapter)
                prefix.u16be(monitorOpcode ?? HCIFraming.monitorOpcode(kind: kind, direction: direction) ?? 13)
            default:
                guard kind == .linkLayer else {
                    throw CaptureWriteError(path: path, reason: "a \(kind.name) record has no place in link type \(link.rawValue)")
                }
            }
            let seconds = timestamp >= 0 ? timestamp / 1_000_000 : (timestamp - 999_999) / 1_000_000
            buffer.u32le(UInt32(truncatingIfNeeded: seconds))
            buffer.u32le(UInt32(timestamp - seconds * 1_000_000))
            buffer.u32le(UInt32(payload.count + prefix.count))
            buffer.u32le(UInt32(original + prefix.count))
            buffer.append(prefix.bytes)
        }
        buffer.append(payload)
        recordsWritten += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// One PacketLogger record: length (of what follows it), seconds, microseconds, type, packet.
    /// `type` is the record's own when it came from a PacketLogger file (notes, LMP and the rest
    /// keep theirs); otherwise it follows from kind and direction.
    private func writePacketLogger<Bytes: Collection<UInt8>>(
        type: UInt8?, kind: RecordKind, direction: Direction, timestamp: Int64, payload: Bytes
    ) throws(CaptureWriteError) {
        guard case .packetLogger(let bigEndian) = format else { return }
        let code: UInt8
        if let type {
            code = type
        } else {
            switch kind {
            case .command: code = 0x00
            case .event: code = 0x01
            case .acl: code = direction == .received ? 0x03 : 0x02
            case .sco: code = direction == .received ? 0x09 : 0x08
            case .note: code = 0xFC
            default:
                throw CaptureWriteError(path: path, reason: "a \(kind.name) record has no place in a PacketLogger file")
            }
        }
        guard payload.count <= maximumRecordLength else {
            throw CaptureWriteError(path: path, reason: "a record of \(payload.count) bytes is too long for PacketLogger")
        }
        // A record the reader found without a type byte (length 8) is written back without one.
        let hasType = !(type == 0xFF && kind == .other && payload.isEmpty)
        let seconds = timestamp >= 0 ? timestamp / 1_000_000 : (timestamp - 999_999) / 1_000_000
        let fields = [
            UInt32(8 + (hasType ? 1 : 0) + payload.count), UInt32(truncatingIfNeeded: seconds),
            UInt32(timestamp - seconds * 1_000_000),
        ]
        for field in fields {
            if bigEndian { buffer.u32be(field) } else { buffer.u32le(field) }
        }
        if hasType { buffer.u8(code) }
        buffer.append(payload)
        recordsWritten += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Whether a PacketLogger capture starting with `head` (its first records) is big-endian, as the
    /// reader decides it; nil when it does not look like PacketLogger.
    public static func packetLoggerIsBigEndian(_ head: [UInt8]) -> Bool? {
        PacketLoggerReader.recognise(InputBuffer(bytes: head))
    }

    private func flush() throws(CaptureWriteError) {
        if inMemory {
            flushed += buffer.bytes
        } else {
            var failure: String?
            buffer.bytes.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = systemWrite(fd, raw.baseAddress! + done, raw.count - done)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = String(cString: strerror(errno))
                        return
                    }
                    done += n
                }
            }
            if let failure { throw CaptureWriteError(path: path, reason: failure) }
        }
        buffer = ByteWriter(capacity: 1 << 20)
    }

    /// Writes what is buffered and closes the file.
    public func finish() throws(CaptureWriteError) {
        try flush()
        if fd >= 0 {
            let status = close(fd)
            fd = -1
            if status != 0 { throw CaptureWriteError(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}

@inline(__always)
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}
