import BluetoothPackets
import CaptureModel

/// One fact of the event stream, in capture order. `frame` is the record that completed it.
public struct Event: Sendable {
    public var frame: Int
    /// Microseconds since the Unix epoch.
    public var timestamp: Int64
    public var adapter: UInt16
    public var body: Body {
        _read { yield storedBody }
        _modify {
            yield &storedBody
            mayHoldReferences = true
        }
    }
    @usableFromInline var storedBody: Body
    /// The record was kept shorter than it was (snapped, or cut by Android's snooz ring).
    public var truncated: Bool
    /// False only when the body is known to hold nothing on the heap (`deinitialize(_:)`).
    @usableFromInline var mayHoldReferences = true

    public init(frame: Int, timestamp: Int64, adapter: UInt16 = 0, body: Body, truncated: Bool = false) {
        self.frame = frame
        self.timestamp = timestamp
        self.adapter = adapter
        self.storedBody = body
        self.truncated = truncated
    }

    /// Frees what the event in `slot` holds, leaving its memory uninitialized. An event made
    /// knowing it holds nothing on the heap (an advert with its data inline, the most common) is
    /// left as it lies: the general path, through the value witness of `Body`, cost a hundred
    /// instructions more for each advert whose slot was used again.
    @inlinable @inline(__always)
    public static func deinitialize(_ slot: UnsafeMutablePointer<Event>) {
        if slot.pointee.mayHoldReferences { slot.deinitialize(count: 1) }
    }

    /// Makes an event in `slot` field by field: `slot.initialize(to: Event(…))` made it on the
    /// stack first and copied its two hundred bytes over.
    @inline(__always)
    static func initialize(
        _ slot: UnsafeMutablePointer<Event>, frame: Int, timestamp: Int64, adapter: UInt16, body: consuming Body,
        truncated: Bool, mayHoldReferences: Bool = true
    ) {
        let raw = UnsafeMutableRawPointer(slot)
        func field<Value>(_ path: WritableKeyPath<Event, Value>) -> UnsafeMutablePointer<Value> {
            (raw + MemoryLayout<Event>.offset(of: path)!).assumingMemoryBound(to: Value.self)
        }
        field(\.frame).initialize(to: frame)
        field(\.timestamp).initialize(to: timestamp)
        field(\.adapter).initialize(to: adapter)
        field(\.mayHoldReferences).initialize(to: mayHoldReferences)
        field(\.storedBody).initialize(to: body)
        field(\.truncated).initialize(to: truncated)
    }

    public enum Body: Sendable {
        case advertisement(Advertisement)
        case connect(Connect)
        case disconnect(Disconnect)
        case att(ATTEvent)
        case mtu(MTUChange)
        case smp(SMPEvent)
        case connectionUpdate(ConnectionUpdate)
        case dataLength(DataLength)
        case phy(PHYUpdate)
        case encryption(EncryptionEvent)
        case signal(SignalEvent)
        case l2cap(L2CAPData)
        case hci(HCIPacket)
        case linkLayer(LinkLayerEvent)
        case note(Note)
        case diagnostic(Diagnostic)
    }

    /// The `type` written for this event.
    public var type: EventType {
        switch body {
        case .advertisement: .adv
        case .connect: .connect
        case .disconnect: .disconnect
        case .att: .att
        case .mtu: .mtu
        case .smp: .smp
        case .connectionUpdate: .connUpdate
        case .dataLength: .dataLength
        case .phy: .phy
        case .encryption: .encryption
        case .signal: .signal
        case .l2cap: .l2cap
        case .hci: .hci
        case .linkLayer: .ll
        case .note: .note
        case .diagnostic: .diagnostic
        }
    }
}

/// Event types, as written in `type` and accepted by `--type`.
public enum EventType: String, Sendable, CaseIterable {
    case adv, connect, disconnect, att, mtu, smp
    case connUpdate = "conn_update"
    case dataLength = "data_length"
    case phy, encryption, signal, l2cap, hci, ll, note, diagnostic

    /// Position among the types (0…), for compact sets of types.
    public var ordinal: Int {
        switch self {
        case .adv: 0
        case .connect: 1
        case .disconnect: 2
        case .att: 3
        case .mtu: 4
        case .smp: 5
        case .connUpdate: 6
        case .dataLength: 7
        case .phy: 8
        case .encryption: 9
        case .signal: 10
        case .l2cap: 11
        case .hci: 12
        case .ll: 13
        case .note: 14
        case .diagnostic: 15
        }
    }

    /// `rawValue` without building a String.
    public var name: StaticString {
        switch self {
        case .adv: "adv"
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .att: "att"
        case .mtu: "mtu"
        case .smp: "smp"
        case .connUpdate: "conn_update"
        case .dataLength: "data_length"
        case .phy: "phy"
        case .encryption: "encryption"
        case .signal: "signal"
        case .l2cap: "l2cap"
        case .hci: "hci"
        case .ll: "ll"
        case .note: "note"
        case .diagnostic: "diagnostic"
        }
    }
}

/// An advertising report (HCI legacy, extended or directed report, or an advertising PDU on air).
public struct Advertisement: Sendable {
    public var address: BluetoothAddress
    public var addressType: AddressType
    /// dBm; nil when the controller did not report it (127).
    public var rssi: Int8?
    public var pdu: AdvertisingPDUKind
    public var data: AdvertisingData
    public var directAddress: BluetoothAddress?
    /// Extended reports: PHYs, advertising set id and the advertiser's transmit power.
    public var primaryPHY: UInt8?
    public var secondaryPHY: UInt8?
    public var sid: UInt8?
    public var advertisedTxPower: Int8?
    /// The controller truncated the data of this extended report.
    public var truncated: Bool = false
    /// Air captures: the RF channel.
    public var channel: UInt8?
}

public enum AdvertisingPDUKind: UInt8, Sendable {
    case advInd, advDirectInd, advScanInd, advNonconnInd, scanRsp, ext

    public var name: StaticString {
        switch self {
        case .advInd: "adv_ind"
        case .advDirectInd: "adv_direct_ind"
        case .advScanInd: "adv_scan_ind"
        case .advNonconnInd: "adv_nonconn_ind"
        case .scanRsp: "scan_rsp"
        case .ext: "ext"
        }
    }
}

public struct Connect: Sendable {
    public var connection: UInt16
    public var address: BluetoothAddress
    public var addressType: AddressType
    /// "central" or "peripheral": the local controller's role (HCI). On air: nil.
    public var role: String?
    /// Air captures: the central's address and the connection's access address.
    public var initiator: BluetoothAddress?
    public var accessAddress: UInt32?
    /// In units of 1.25 ms.
    public var interval: UInt16
    public var latency: UInt16
    /// In units of 10 ms.
    public var supervisionTimeout: UInt16
    /// Non-zero when the connection attempt failed.
    public var status: UInt8 = 0
}

public struct Disconnect: Sendable {
    public var connection: UInt16
    public var address: BluetoothAddress?
    public var reason: UInt8
}

/// Where a handle's UUID came from.
public enum UUIDSource: String, Sendable {
    /// Learned from discovery in this connection.
    case discovery
    /// Learned from discovery in an earlier connection to the same device.
    case cache
    /// From a GATT map file given with `--gatt`.
    case map

    public var name: StaticString {
        switch self {
        case .discovery: "discovery"
        case .cache: "cache"
        case .map: "map"
        }
    }
}

/// What a handle is: its attribute type, the service around it, and for descriptors the
/// characteristic they belong to.
public struct ResolvedAttribute: Sendable, Hashable {
    public var uuid: BluetoothUUID
    public var service: BluetoothUUID?
    public var characteristic: BluetoothUUID?
    public var source: UUIDSource
    /// The frame of the discovery response that taught it (discovery and cache).
    public var frame: Int?
}

public struct ATTEvent: Sendable {
    public enum Kind: Sendable {
        /// One ATT PDU as it was on the link.
        case pdu
        /// A long value read with Read Blob, reassembled (synthetic event at the completing frame).
        case readLong
        /// A value written with Prepare/Execute Write, reassembled.
        case writeLong
    }

    public var connection: UInt16
    public var peer: BluetoothAddress?
    public var direction: Direction
    public var opcode: UInt8
    public var kind: Kind = .pdu
    /// The attribute handle; responses take it from the request they answer.
    public var handle: UInt16?
    /// The handle is on the capturing host's own GATT server: the peer is the client.
    public var localServer = false
    /// Discovery requests: the handle range searched.
    public var range: ClosedRange<UInt16>?
    public var attribute: ResolvedAttribute?
    public var value: [UInt8]?
    public var offset: UInt16?
    /// Error Response: the failed request's opcode and the error code.
    public var requestOpcode: UInt8?
    public var errorCode: UInt8?
    /// The frame of the request this response answers.
    public var requestFrame: Int?
    /// Read By Type / Read By Group Type / Find By Type Value requests: the attribute type asked for.
    public var attributeType: BluetoothUUID?
    /// Read Multiple: the handles asked for.
    public var handles: [UInt16]?
    /// Discovery responses: what they listed, as (handle, uuid) pairs.
    public var discovered: [DiscoveredAttribute]?
    /// One part of a long value (Read Blob, Prepare Write, or a Read Response that a blob read continued).
    public var partial = false
    /// The L2CAP channel the PDU came on: 0x0004 on the LE fixed channel, else the host's end of
    /// the dynamic channel (the CID of the frames the host receives on it), for both directions.
    public var channel: UInt16 = 0x0004
    public var bearer: ATTBearerKind = .fixed
    /// Exchange MTU: the Client Rx MTU of a request, the Server Rx MTU of a response.
    public var exchangedMTU: UInt16?

    public var op: String {
        switch kind {
        case .pdu: ATTOpcode.name(opcode)
        case .readLong: "read_long"
        case .writeLong: "write_long"
        }
    }

    /// `op` without building a String, when it is a known name.
    public var staticOp: StaticString? {
        switch kind {
        case .pdu: ATTOpcode.staticName(opcode)
        case .readLong: "read_long"
        case .writeLong: "write_long"
        }
    }

    public init(connection: UInt16, peer: BluetoothAddress?, direction: Direction, opcode: UInt8) {
        self.connection = connection
        self.peer = peer
        self.direction = direction
        self.opcode = opcode
    }
}

/// The ATT bearer an `att` event came on.
public enum ATTBearerKind: UInt8, Sendable {
    /// The LE fixed channel, CID 0x0004.
    case fixed
    /// A BR/EDR channel opened for PSM 0x001F.
    case bredr
    /// An Enhanced ATT bearer: an enhanced credit-based channel for PSM 0x0027.
    case eatt

    /// The `bearer` key's value.
    public var name: StaticString {
        switch self {
        case .fixed: "le"
        case .bredr: "bredr"
        case .eatt: "eatt"
        }
    }
}

/// One attribute a discovery response listed.
public struct DiscoveredAttribute: Sendable, Hashable {
    public var handle: UInt16
    public var uuid: BluetoothUUID
    /// Services: the last handle of the group. Characteristics: the value handle.
    public var endOrValueHandle: UInt16?
    /// Characteristics: the properties byte.
    public var properties: UInt8?
}

public struct MTUChange: Sendable {
    public var connection: UInt16
    public var mtu: UInt16
    /// The bearer whose ATT_MTU this is (0x0004: the LE fixed channel).
    public var channel: UInt16 = 0x0004
    public var bearer: ATTBearerKind = .fixed
}

public struct SMPEvent: Sendable {
    public var connection: UInt16
    public var direction: Direction
    public var code: UInt8
    /// "pairing_req", …, or "paired" (synthetic, on encryption after pairing).
    public var op: String
    public var method: String?
    public var secureConnections: Bool?
    public var reason: UInt8?
}

public struct ConnectionUpdate: Sendable {
    public var connection: UInt16
    public var status: UInt8
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16
}

public struct DataLength: Sendable {
    public var connection: UInt16
    public var maxTxOctets: UInt16
    public var maxRxOctets: UInt16
}

public struct PHYUpdate: Sendable {
    public var connection: UInt16
    public var status: UInt8
    public var txPHY: UInt8
    public var rxPHY: UInt8
}

public struct EncryptionEvent: Sendable {
    public var connection: UInt16
    public var status: UInt8
    public var enabled: Bool
    public var keySize: UInt8?
}

public struct SignalEvent: Sendable {
    public var connection: UInt16
    public var direction: Direction
    public var code: UInt8
    public var identifier: UInt8
    public var data: [UInt8]
    /// The parameters, for the commands that open, shape and close channels.
    public var command: SignalCommand = .other
}

/// A frame on a channel that carries neither ATT nor signalling; on a credit-based channel, one
/// reassembled SDU.
public struct L2CAPData: Sendable {
    public var connection: UInt16
    public var direction: Direction
    public var channel: UInt16
    public var data: [UInt8]
    /// The PSM the channel was opened for, when its opening was seen.
    public var psm: UInt16?
    /// The data is an SDU reassembled from K-frames of a credit-based channel.
    public var sdu = false
}

/// An HCI command or event that no other event type describes: passed through, not an error.
public struct HCIPacket: Sendable {
    public var kind: RecordKind
    /// Command opcode, or event code.
    public var code: UInt16
    public var subevent: UInt8?
    public var status: UInt8?
    /// The opcode a Command Complete/Status answers.
    public var commandOpcode: UInt16?
    public var parameters: [UInt8]
    /// Vendor commands and events, and the Command Complete/Status answering one: the adapter's
    /// manufacturer, when its Read Local Version Information was captured.
    public var manufacturer: UInt16?

    public init(
        kind: RecordKind, code: UInt16, subevent: UInt8? = nil, status: UInt8? = nil, commandOpcode: UInt16? = nil,
        parameters: [UInt8], manufacturer: UInt16? = nil
    ) {
        self.kind = kind
        self.code = code
        self.subevent = subevent
        self.status = status
        self.commandOpcode = commandOpcode
        self.parameters = parameters
        self.manufacturer = manufacturer
    }
}

/// A note the capturing tool wrote: btmon's system notes and user logging (btsnoop 2001, monitor
/// opcodes 12 and 13), PacketLogger's notes and logs. Text only where the bytes are text.
public struct Note: Sendable, ExpressibleByStringLiteral {
    public enum Source: Sendable, Hashable {
        /// btmon's system note (monitor opcode 12).
        case systemNote
        /// btmon "User Logging" (monitor opcode 13): a program's log line, with ident and priority.
        case userLogging
        /// A PacketLogger record type 0xF7–0xFE (syslog, kernel, error, power, note, config, …).
        case packetLogger(UInt8)
        case other
    }

    public var source: Source
    /// The text, trailing NULs gone; nil when the note is not text. Escaped only when printed.
    public var text: String?
    /// The bytes, when the note is not text.
    public var data: [UInt8]?
    /// User logging: the program that logged the line, and its syslog priority (0 emergency … 7 debug).
    public var ident: String?
    public var priority: UInt8?

    public init(source: Source, text: String?, data: [UInt8]? = nil, ident: String? = nil, priority: UInt8? = nil) {
        self.source = source
        self.text = text
        self.data = data
        self.ident = ident
        self.priority = priority
    }

    public init(stringLiteral text: String) { self.init(source: .other, text: text) }
}

/// A link-layer PDU of an air capture that is neither advertising data nor L2CAP: control PDUs,
/// scan requests.
public struct LinkLayerEvent: Sendable {
    public var connection: UInt16?
    public var direction: Direction
    public var op: String
    public var address: BluetoothAddress?
    public var data: [UInt8]
}

/// Something malformed or unexpected, located; the stream goes on after it.
public struct Diagnostic: Sendable {
    /// The layer that found it: capture, hci, acl, l2cap, att, ad, smp, ll.
    public var layer: StaticString
    /// A stable dotted id ("att.response_without_request").
    public var id: StaticString
    public var reason: String
    /// Byte offset in the record's packet, when it points at a byte.
    public var offset: Int?
    public var connection: UInt16?
}
