import BluetoothPackets
import ByteReading
import CaptureModel

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

/// Everything known about one connection: addresses, reassembly, its channels and ATT bearers, and
/// the two GATT databases (the peer's, when we are its client, and ours, when it is ours).
final class Connection {
    /// The `conn` number in events: the HCI handle, or a sequence number on air.
    let id: UInt16
    let adapter: UInt16
    @exclusivity(unchecked) var peer: BluetoothAddress?
    @exclusivity(unchecked) var peerType: AddressType?
    /// Our own address: the adapter's, or on air the central's.
    @exclusivity(unchecked) var local: BluetoothAddress?
    @exclusivity(unchecked) var reassembly = [L2CAPReassembler(), L2CAPReassembler()]
    /// ATT on the LE fixed channel (CID 0x0004).
    let fixedBearer = ATTBearer(channel: L2CAPChannel.attribute, kind: .fixed)
    /// Dynamic channels open now (BR/EDR ATT, EATT and other credit-based channels), and the
    /// connection requests still waiting for their responses.
    @exclusivity(unchecked) var channels: [DynamicChannel] = []
    @exclusivity(unchecked) var channelRequests: [ChannelRequest] = []
    /// The GATT databases, shared by every ATT bearer of the connection. Index 0: the peer's
    /// (we are its client); 1: ours.
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
