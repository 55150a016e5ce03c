import BluetoothPackets
import CaptureModel

/// How a dynamic channel frames its data (Core v5.4, Vol 3, Part A, §3).
enum ChannelMode: Sendable {
    /// B-frames: one SDU per frame (BR/EDR basic mode).
    case basic
    /// A BR/EDR channel configured for retransmission or streaming: I-frames, not decoded here.
    case retransmission
    /// K-frames with credits: LE credit-based or enhanced credit-based flow control.
    case credit
}

/// An SDU being collected from K-frames in one direction of a credit-based channel.
struct SDUReassembly {
    var buffer: [UInt8] = []
    /// The SDU length the first K-frame announced; nil between SDUs.
    var expected: Int?
    var startFrame = 0
    /// An SDU longer than the channel MTU is skipped, not kept: bytes of it still to come.
    var skipping = 0
}

/// One open dynamic channel. Each end names it by its own CID: frames the host receives carry
/// `hostCID`, frames it sends carry `peerCID`. Per-direction arrays are indexed like
/// `Connection.directionIndex`: 0 for frames sent (to the peer), 1 for frames received.
final class DynamicChannel {
    let psm: UInt16
    @exclusivity(unchecked) var mode: ChannelMode
    let hostCID: UInt16
    let peerCID: UInt16
    let openedFrame: Int
    /// The largest SDU the receiver of each direction takes (BR/EDR default 672, §5.1).
    @exclusivity(unchecked) var mtu: [UInt16] = [672, 672]
    /// The largest K-frame payload the receiver of each direction takes.
    @exclusivity(unchecked) var mps: [UInt16] = [0, 0]
    /// K-frames the sender of each direction may still send.
    @exclusivity(unchecked) var credits: [Int] = [0, 0]
    /// Whether running out of credits was reported, per direction (once until credits come).
    @exclusivity(unchecked) var reportedNoCredits = [false, false]
    @exclusivity(unchecked) var sdu = [SDUReassembly(), SDUReassembly()]
    /// The ATT bearer, for channels opened for ATT (PSM 0x001F) or EATT (0x0027).
    @exclusivity(unchecked) var bearer: ATTBearer?

    init(psm: UInt16, mode: ChannelMode, hostCID: UInt16, peerCID: UInt16, frame: Int) {
        self.psm = psm
        self.mode = mode
        self.hostCID = hostCID
        self.peerCID = peerCID
        openedFrame = frame
    }

    /// The CID that frames in `direction` carry.
    func cid(_ direction: Direction) -> UInt16 { direction == .received ? hostCID : peerCID }

    /// ATT_MTU on this channel: the smaller of the two ends' MTUs (Vol 3, Part F, §3.2.8).
    var attMTU: UInt16 { min(mtu[0], mtu[1]) }
}

/// A channel connection request waiting for its response, matched by signal identifier.
struct ChannelRequest {
    var identifier: UInt8
    /// The direction the request went; its response comes the other way.
    var direction: Direction
    var psm: UInt16
    var mode: ChannelMode
    /// The requester's CIDs, in order (one, except for Credit Based Connection Requests).
    var sourceCIDs: [UInt16]
    var mtu: UInt16
    var mps: UInt16
    var credits: UInt16
    var frame: Int
}

extension Connection {
    /// Channels followed at once per connection, and connection requests waiting at once: a
    /// crafted capture could otherwise grow them by a few bytes each.
    static let maximumChannels = 64
    static let maximumChannelRequests = 16

    /// The open channel whose frames in `direction` carry `cid`.
    func channel(cid: UInt16, direction: Direction) -> DynamicChannel? {
        if direction == .received {
            for channel in channels where channel.hostCID == cid { return channel }
        } else {
            for channel in channels where channel.peerCID == cid { return channel }
        }
        return nil
    }
}
