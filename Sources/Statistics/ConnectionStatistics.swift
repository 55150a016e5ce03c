import BluetoothPackets
import BluetoothTracking
import CaptureFiles

/// One connection, from its connect event (or, for one already open when the capture began, its
/// first event) to its disconnect (or the end of the capture).
public struct ConnectionStatistics: Sendable {
    /// Attributes counted one by one per connection; more share one "other" row.
    public static let maximumAttributes = 128
    /// Parameter updates listed; later ones are only counted.
    public static let maximumUpdates = 16

    public struct Parameters: Sendable, Hashable {
        /// In units of 1.25 ms.
        public var interval: UInt16
        public var latency: UInt16
        /// In units of 10 ms.
        public var supervisionTimeout: UInt16
        public var timestamp: Int64
        public var frame: Int

        public var intervalMilliseconds: Double { Double(interval) * 1.25 }
        public var timeoutMilliseconds: Int { Int(supervisionTimeout) * 10 }
    }

    /// What a handle's traffic is counted under: its UUID once known, else the handle.
    public enum AttributeKey: Sendable, Hashable, Comparable {
        case uuid(BluetoothUUID)
        case handle(UInt16)
        /// Attributes past `maximumAttributes`.
        case other
    }

    public struct AttributeCounts: Sendable {
        public var reads = 0
        public var writes = 0
        public var notifications = 0
        public var indications = 0
        /// Bytes of attribute values, both ways.
        public var bytes = 0

        mutating func count(_ use: Use, bytes: Int) {
            switch use {
            case .read: reads += 1
            case .write: writes += 1
            case .notification: notifications += 1
            case .indication: indications += 1
            }
            self.bytes += bytes
        }
    }

    public struct ATTError: Sendable, Hashable {
        public var requestOpcode: UInt8
        public var code: UInt8
    }

    public let adapter: UInt16
    public let handle: UInt16
    public private(set) var peer: BluetoothAddress?
    public private(set) var peerType: AddressType?
    /// The local controller's role ("central", "peripheral"); nil on air.
    public private(set) var role: String?
    /// Nil when the connection was open before the capture began.
    public private(set) var start: Int64?
    public private(set) var startFrame: Int?
    /// Nil when it was still open at the end of the capture.
    public private(set) var end: Int64?
    public private(set) var endFrame: Int?
    public private(set) var disconnectReason: UInt8?
    public private(set) var firstSeen: Int64
    public private(set) var lastSeen: Int64

    public private(set) var initialParameters: Parameters?
    public private(set) var updates: [Parameters] = []
    public private(set) var updateCount = 0
    public private(set) var txPHY: UInt8?
    public private(set) var rxPHY: UInt8?
    public private(set) var maxTxOctets: UInt16?
    public private(set) var maxRxOctets: UInt16?
    public private(set) var mtu: UInt16?
    public private(set) var encrypted = false
    public private(set) var keySize: UInt8?

    /// ATT PDUs by opcode (long reads and writes count under their last PDU's opcode).
    public var opcodes: [UInt8: Int] {
        var counts: [UInt8: Int] = [:]
        for (opcode, count) in opcodeCounts.enumerated() where count > 0 { counts[UInt8(opcode)] = count }
        return counts
    }
    /// By opcode, all 256: counted for every PDU without hashing.
    private var opcodeCounts = [Int](repeating: 0, count: 256)
    public private(set) var attributes: [AttributeKey: AttributeCounts] = [:]
    public private(set) var notifications = 0
    public private(set) var indications = 0
    /// Attribute value bytes, host to controller and controller to host.
    public private(set) var bytesSent = 0
    public private(set) var bytesReceived = 0
    /// Microseconds from an ATT request (or indication) to its response (or confirmation).
    public private(set) var latency = QuantileSketch(exactCapacity: 256)
    public private(set) var errors: [ATTError: Int] = [:]
    /// Time between consecutive notifications or indications of one handle.
    public private(set) var notificationIntervals = LogHistogram()

    /// Requests waiting for their response: frame → timestamp. A peer that never answers would
    /// otherwise grow this without end.
    private var pending: [Int: Int64] = [:]
    private var lastValueTime: [UInt16: Int64] = [:]

    init(adapter: UInt16, handle: UInt16, event: Event) {
        self.adapter = adapter
        self.handle = handle
        firstSeen = event.timestamp
        lastSeen = event.timestamp
    }

    /// Duration in microseconds, from the first thing known about it to the last.
    public var duration: Int64 { (end ?? lastSeen) - (start ?? firstSeen) }

    mutating func seen(_ event: Event) {
        if event.timestamp > lastSeen { lastSeen = event.timestamp }
    }

    mutating func opened(_ connect: Connect, _ event: Event) {
        start = event.timestamp
        startFrame = event.frame
        peer = connect.address
        peerType = connect.addressType
        role = connect.role
        initialParameters = Parameters(
            interval: connect.interval, latency: connect.latency, supervisionTimeout: connect.supervisionTimeout,
            timestamp: event.timestamp, frame: event.frame)
    }

    mutating func closed(_ disconnect: Disconnect, _ event: Event) {
        seen(event)
        end = event.timestamp
        endFrame = event.frame
        disconnectReason = disconnect.reason
        if peer == nil { peer = disconnect.address }
        // Nothing more comes on this connection: its per-request state can go.
        pending = [:]
        lastValueTime = [:]
    }

    mutating func add(_ body: Event.Body, _ event: Event) {
        seen(event)
        switch body {
        case .att(let att): add(att, event)
        case .mtu(let change): mtu = change.mtu
        case .connectionUpdate(let update) where update.status == 0:
            updateCount += 1
            if updates.count < Self.maximumUpdates {
                updates.append(
                    Parameters(
                        interval: update.interval, latency: update.latency,
                        supervisionTimeout: update.supervisionTimeout, timestamp: event.timestamp, frame: event.frame))
            }
        case .dataLength(let length):
            maxTxOctets = length.maxTxOctets
            maxRxOctets = length.maxRxOctets
        case .phy(let phy) where phy.status == 0:
            txPHY = phy.txPHY
            rxPHY = phy.rxPHY
        case .encryption(let change) where change.status == 0:
            encrypted = change.enabled
            if let size = change.keySize { keySize = size }
        default:
            break
        }
    }

    private mutating func add(_ att: ATTEvent, _ event: Event) {
        if peer == nil, let address = att.peer { peer = address }
        // Reassembled long values are not PDUs of their own; their parts are not whole values.
        if att.kind == .pdu { opcodeCounts[Int(att.opcode)] += 1 }
        let bytes = att.partial ? 0 : att.value?.count ?? 0
        if att.direction == .sent { bytesSent += bytes } else { bytesReceived += bytes }
        if let frame = att.requestFrame, let asked = pending.removeValue(forKey: frame), event.timestamp >= asked {
            latency.add(Double(event.timestamp - asked))
        }
        if att.kind == .pdu, ATTOpcode.response(to: att.opcode) != nil {
            if pending.count >= 64 { pending.removeAll() }
            pending[event.frame] = event.timestamp
        }
        if att.opcode == ATTOpcode.errorResponse, let request = att.requestOpcode, let code = att.errorCode {
            errors[ATTError(requestOpcode: request, code: code), default: 0] += 1
        }
        guard let handle = att.handle, !att.partial, let use = Use(att) else { return }
        if use == .notification || use == .indication {
            if use == .notification { notifications += 1 } else { indications += 1 }
            // One lookup of the handle for both its last time and the new one.
            if let known = lastValueTime.index(forKey: handle) {
                let last = lastValueTime.values[known]
                if event.timestamp >= last { notificationIntervals.add(micros: event.timestamp - last) }
                lastValueTime.values[known] = event.timestamp
            } else if lastValueTime.count < 1024 {
                lastValueTime[handle] = event.timestamp
            }
        }
        let key = att.attribute.map { AttributeKey.uuid($0.uuid) } ?? .handle(handle)
        // One lookup of a known attribute (most of them), where a check and an update took two.
        if let known = attributes.index(forKey: key) {
            attributes.values[known].count(use, bytes: bytes)
        } else {
            attributes[attributes.count >= Self.maximumAttributes ? .other : key, default: AttributeCounts()]
                .count(use, bytes: bytes)
        }
    }

    /// What an ATT PDU did with an attribute's value.
    enum Use {
        case read, write, notification, indication

        init?(_ att: ATTEvent) {
            switch att.kind {
            case .readLong: self = .read
            case .writeLong: self = .write
            case .pdu:
                switch att.opcode {
                case ATTOpcode.handleValueNotification, ATTOpcode.multipleHandleValueNotification: self = .notification
                case ATTOpcode.handleValueIndication: self = .indication
                case ATTOpcode.readResponse, ATTOpcode.readBlobResponse: self = .read
                case ATTOpcode.writeRequest, ATTOpcode.writeCommand, ATTOpcode.signedWriteCommand: self = .write
                default: return nil
                }
            }
        }
    }

    /// Notifications and indications per second over the connection's duration.
    public var valueRate: Double? {
        duration > 0 ? Double(notifications + indications) / (Double(duration) / 1e6) : nil
    }
}
