import BluetoothPackets
import ByteReading
import PayloadDecoders

/// A scenario: devices, how they advertise, and the connections a phone makes to them. Everything
/// the synthesizer needs, parsed and checked. The file format is described in captures/README.md.
public struct Scenario: Sendable {
    public var name: String
    public var seed: UInt64
    /// Microseconds since the Unix epoch.
    public var start: Int64
    public var duration: Int64
    var controller: ControllerSpec
    var devices: [DeviceSpec]

    public var durationSeconds: Double { Double(duration) / 1_000_000 }
}

struct ControllerSpec: Sendable {
    var address = BluetoothAddress(0x00_1A_7D_DA_71_13)
    /// LE ACL data packet length the controller takes and gives (27 before data length extension).
    var aclBuffer = 27
    /// Legacy LE Advertising Reports, or LE Extended Advertising Reports.
    var extendedReports = false
    var enhancedConnectionComplete = true
}

struct DeviceSpec: Sendable {
    var name: String
    var address: BluetoothAddress
    var addressType: AddressType
    var advertising: AdvertisingSpec?
    var services: [ServiceSpec]
    var connections: [ConnectionSpec]
    var path: String
}

struct AdvertisingSpec: Sendable {
    var interval: Int64
    var jitter: Int64
    /// Explicit times (µs from the start) instead of an interval.
    var times: [Int64]?
    var start: Int64
    var end: Int64?
    var pdu: UInt8
    var data: [ADEntrySpec]
    var scanResponse: [ADEntrySpec]?
    /// Field values change every `repeat` adverts (a device that repeats each reading several times).
    var repeatCount: Int
    var rssi: ValueSeries
    var pauseWhenConnected: Bool
    var path: String
}

struct ADEntrySpec: Sendable {
    enum Kind: Sendable {
        case fixed(type: UInt8, data: [UInt8])
        case manufacturer(company: UInt16, PayloadSpec)
        case serviceData(uuid: BluetoothUUID, PayloadSpec)
    }
    var kind: Kind
}

struct ServiceSpec: Sendable {
    var uuid: BluetoothUUID
    var characteristics: [CharacteristicSpec]
}

struct CharacteristicSpec: Sendable {
    var uuid: BluetoothUUID
    var properties: UInt8
    var value: [UInt8]
    var descriptors: [BluetoothUUID]

    var notifies: Bool { properties & 0x10 != 0 }
    var indicates: Bool { properties & 0x20 != 0 }
}

struct ConnectionSpec: Sendable {
    var at: Int64
    var duration: Int64
    var interval: Int64
    /// The device's receive MTU; the phone asks for 517 and they settle on the smaller.
    var deviceMTU: Int
    var discover: Bool
    var subscribe: [BluetoothUUID]
    var actions: [ActionSpec]
    var localDisconnect: Bool
    var reason: UInt8
    var path: String
    var bearer: BearerSpec = .le
    /// Credit-based channels: the largest K-frame payload each side takes, and the credits each
    /// gives the other at the start and whenever they run out.
    var mps = 64
    var credits = 10
    /// EATT channels opened all at once (Credit Based Connection Request), or one LE Credit
    /// Based Connection Request each (which older dissectors follow).
    var leCreditRequests = false
}

/// How ATT travels on a connection.
enum BearerSpec: Sendable, Equatable {
    /// An LE link, ATT on the fixed channel (CID 0x0004).
    case le
    /// A BR/EDR link, ATT on a channel opened for PSM 0x001F.
    case bredr
    /// An LE link that opens `channels` Enhanced ATT bearers (PSM 0x0027) after its set-up on
    /// the fixed channel (MTU exchange, discovery, subscriptions); the actions go over them.
    case eatt(channels: Int)
}

struct ActionSpec: Sendable {
    enum Kind: Sendable {
        case notify, indicate, write(withResponse: Bool), read
        /// Enable notifications or indications: a write of the characteristic's CCCD.
        case subscribe
    }
    var kind: Kind
    var uuid: BluetoothUUID
    var start: Int64
    var every: Int64?
    var count: Int?
    var payload: PayloadSpec?
    var path: String
}
