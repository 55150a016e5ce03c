/// Which way a packet went across the host–controller interface.
public enum Direction: UInt8, Sendable, Hashable {
    /// Host to controller (commands, outgoing ACL).
    case sent
    /// Controller to host (events, incoming ACL).
    case received
    case unknown

    public var name: StaticString {
        switch self {
        case .sent: "sent"
        case .received: "recv"
        case .unknown: "unknown"
        }
    }
}

/// What a capture record carries, the same for every file format.
public enum RecordKind: UInt8, Sendable, Hashable, CaseIterable {
    case command, event, acl, sco, iso
    /// An air-sniffer link-layer packet (nRF Sniffer, LE link layer); `linkType` says how to read it.
    case linkLayer
    /// A text note written by the capturing tool (btmon system notes, PacketLogger notes).
    case note
    /// Anything else the format can hold (monitor index records, LMP, vendor diagnostics).
    case other

    public var name: String {
        switch self {
        case .command: "command"
        case .event: "event"
        case .acl: "acl"
        case .sco: "sco"
        case .iso: "iso"
        case .linkLayer: "link_layer"
        case .note: "note"
        case .other: "other"
        }
    }

    /// HCI packets carry an H4 packet-type byte in H4-framed formats.
    public var h4Type: UInt8? {
        switch self {
        case .command: 0x01
        case .acl: 0x02
        case .sco: 0x03
        case .event: 0x04
        case .iso: 0x05
        default: nil
        }
    }

    /// Inlinable: readers call it for every record of an H4 file, from another module.
    @inlinable
    public init?(h4Type: UInt8) {
        switch h4Type {
        case 0x01: self = .command
        case 0x02: self = .acl
        case 0x03: self = .sco
        case 0x04: self = .event
        case 0x05: self = .iso
        default: return nil
        }
    }
}

/// One record of a capture file, normalized across formats.
///
/// For HCI kinds `payload` is the HCI packet itself (no H4 byte, no pseudo-header); for link-layer
/// records it is the packet as the sniffer wrote it, read according to `linkType`.
/// The payload is borrowed from the reader: it is valid until the reader's next `next()` call.
/// Use `stored()` to keep a record.
public struct CaptureRecord {
    /// 1-based number of the record in the file, the same as Wireshark's frame number.
    public var frame: Int
    /// Microseconds since the Unix epoch.
    public var timestamp: Int64
    public var direction: Direction
    public var kind: RecordKind
    /// Controller index (btmon files); 0 where the format has none.
    public var adapter: UInt16
    /// How the payload is framed: the file's datalink, or for PPI the wrapped one.
    public var linkType: LinkType
    /// The format's own type code: H4 type, monitor opcode or PacketLogger type.
    public var sourceType: UInt16
    public var payload: UnsafeRawBufferPointer
    /// The payload's length before the capturing tool cut it (`> payload.count` when snapped).
    public var originalLength: Int
    /// Byte offset of the record in the file.
    public var fileOffset: Int64

    public init(
        frame: Int, timestamp: Int64, direction: Direction, kind: RecordKind, adapter: UInt16, linkType: LinkType,
        sourceType: UInt16, payload: UnsafeRawBufferPointer, originalLength: Int, fileOffset: Int64
    ) {
        self.frame = frame
        self.timestamp = timestamp
        self.direction = direction
        self.kind = kind
        self.adapter = adapter
        self.linkType = linkType
        self.sourceType = sourceType
        self.payload = payload
        self.originalLength = originalLength
        self.fileOffset = fileOffset
    }

    public var isSnapped: Bool { originalLength > payload.count }

    public func stored() -> StoredRecord {
        StoredRecord(
            frame: frame, timestamp: timestamp, direction: direction, kind: kind, adapter: adapter,
            linkType: linkType, sourceType: sourceType, payload: [UInt8](payload),
            originalLength: originalLength)
    }
}

/// A capture record that owns its bytes: for tests, writers and anything that keeps records.
public struct StoredRecord: Sendable, Hashable {
    public var frame: Int
    public var timestamp: Int64
    public var direction: Direction
    public var kind: RecordKind
    public var adapter: UInt16
    public var linkType: LinkType
    public var sourceType: UInt16
    public var payload: [UInt8]
    public var originalLength: Int

    public init(
        frame: Int = 0, timestamp: Int64, direction: Direction, kind: RecordKind, adapter: UInt16 = 0,
        linkType: LinkType = .h4, sourceType: UInt16? = nil, payload: [UInt8], originalLength: Int? = nil
    ) {
        self.frame = frame
        self.timestamp = timestamp
        self.direction = direction
        self.kind = kind
        self.adapter = adapter
        self.linkType = linkType
        self.sourceType = sourceType ?? UInt16(kind.h4Type ?? 0)
        self.payload = payload
        self.originalLength = originalLength ?? payload.count
    }

    /// Runs `body` with this record as a borrowed `CaptureRecord`.
    public func withRecord<R>(_ body: (CaptureRecord) throws -> R) rethrows -> R {
        try payload.withUnsafeBytes { bytes in
            try body(
                CaptureRecord(
                    frame: frame, timestamp: timestamp, direction: direction, kind: kind, adapter: adapter,
                    linkType: linkType, sourceType: sourceType, payload: bytes, originalLength: originalLength,
                    fileOffset: 0))
        }
    }
}
