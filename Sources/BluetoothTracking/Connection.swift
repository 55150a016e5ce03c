import BluetoothPackets
import ByteReading
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

/// Collects ACL fragments into L2CAP frames for one direction of one connection.
struct L2CAPReassembler {
    var buffer: [UInt8] = []
    var expected = 0
    var startFrame = 0
    var isCollecting: Bool { !buffer.isEmpty }

    mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        expected = 0
    }
}

/// Everything known about one connection: addresses, MTU, reassembly, ATT transactions and the
/// two GATT databases (the peer's, when we are its client, and ours, when it is ours).
final class Connection {
    /// The `conn` number in events: the HCI handle, or a sequence number on air.
    let id: UInt16
    let adapter: UInt16
    @exclusivity(unchecked) var peer: BluetoothAddress?
    @exclusivity(unchecked) var peerType: AddressType?
    /// Our own address: the adapter's, or on air the central's.
    @exclusivity(unchecked) var local: BluetoothAddress?
    @exclusivity(unchecked) var mtu: UInt16 = 23
    @exclusivity(unchecked) var requestedMTU: UInt16?
    @exclusivity(unchecked) var reassembly = [L2CAPReassembler(), L2CAPReassembler()]
    /// Index 0: transactions where the peer is the server; 1: where we are.
    @exclusivity(unchecked) var pending: [PendingRequest?] = [nil, nil]
    @exclusivity(unchecked) var pendingIndication: [(handle: UInt16, frame: Int)?] = [nil, nil]
    @exclusivity(unchecked) var longRead: [LongRead?] = [nil, nil]
    @exclusivity(unchecked) var preparedWrites: [[PreparedWrite]] = [[], []]
    /// Outbox index of a Read Response held back until we know whether a Read Blob continues it.
    @exclusivity(unchecked) var heldRead: [Int?] = [nil, nil]
    @exclusivity(unchecked) var databases = [GATTDatabase(), GATTDatabase()]
    @exclusivity(unchecked) var pairingRequest: SMP.PairingFeatures?
    @exclusivity(unchecked) var pairingMethod: String?
    @exclusivity(unchecked) var pairingSecure: Bool?
    @exclusivity(unchecked) var pairingInProgress = false

    init(id: UInt16, adapter: UInt16) {
        self.id = id
        self.adapter = adapter
    }

    static func directionIndex(_ direction: Direction) -> Int { direction == .received ? 1 : 0 }
}
