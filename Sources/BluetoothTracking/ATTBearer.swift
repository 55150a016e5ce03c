import BluetoothPackets
import CaptureModel

/// A request waiting for its response, with what the response needs from it.
struct PendingRequest {
    var opcode: UInt8
    var frame: Int
    var handle: UInt16?
    var offset: UInt16?
    var attributeType: BluetoothUUID?
    var handles: [UInt16]?
    /// Find By Type Value: the value searched for (a service UUID in primary-service discovery).
    var searchedValue: [UInt8]?
    var executeFlags: UInt8?
}

/// A long value being read with Read Blob.
struct LongRead {
    var handle: UInt16
    var value: [UInt8]
    var firstFrame: Int
    /// Read Response and Read Blob Responses so far; a long value has at least two.
    var parts: Int
}

struct PreparedWrite {
    var handle: UInt16
    var offset: UInt16
    var value: [UInt8]
}

/// One ATT bearer of a connection: the LE fixed channel, a BR/EDR channel for PSM 0x001F or an
/// EATT channel. Each has its own MTU and its own transactions (one outstanding request per
/// direction, §3.3.2 of Vol 3, Part F), while the GATT databases belong to the connection.
/// Arrays are indexed by side: 0 where the peer is the server, 1 where we are.
final class ATTBearer {
    let channel: UInt16
    let kind: ATTBearerKind
    @exclusivity(unchecked) var mtu: UInt16 = 23
    @exclusivity(unchecked) var requestedMTU: UInt16?
    @exclusivity(unchecked) var pending: [PendingRequest?] = [nil, nil]
    @exclusivity(unchecked) var pendingIndication: [(handle: UInt16, frame: Int)?] = [nil, nil]
    @exclusivity(unchecked) var longRead: [LongRead?] = [nil, nil]
    @exclusivity(unchecked) var preparedWrites: [[PreparedWrite]] = [[], []]
    /// Outbox index of a Read Response held back until we know whether a Read Blob continues it.
    @exclusivity(unchecked) var heldRead: [Int?] = [nil, nil]

    init(channel: UInt16, kind: ATTBearerKind, mtu: UInt16 = 23) {
        self.channel = channel
        self.kind = kind
        self.mtu = mtu
    }

    /// A new event for a PDU on this bearer.
    @inline(__always)
    func event(_ c: Connection, direction: Direction, opcode: UInt8) -> ATTEvent {
        var e = ATTEvent(connection: c.id, peer: c.peer, direction: direction, opcode: opcode)
        e.channel = channel
        e.bearer = kind
        return e
    }
}
