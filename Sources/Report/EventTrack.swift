import BluetoothPackets
import BluetoothTracking
import Statistics

/// What the report draws from the event stream of one capture: per device its RSSI over time,
/// when it advertised, and when it was connected. Memory is bounded per device (grids of fixed
/// capacity, a bounded list of connections) and in the number of devices.
public struct EventTrack: Sendable {
    /// Devices drawn; the rest are counted in `devicesNotDrawn`.
    public static let maximumDevices = 128
    /// Connections drawn one by one per device; later ones widen the last bar.
    public static let maximumSpans = 1000

    public struct ConnectionSpan: Sendable {
        public var handle: UInt16
        /// Nil when it was open before the capture began (the bar starts at its first event).
        public var start: Int64?
        public var firstSeen: Int64
        /// Nil while open; the capture's last event time when it never closed.
        public var end: Int64?
        public var lastSeen: Int64
        public var reason: UInt8?
        /// Connections folded into this bar past `maximumSpans`.
        public var merged = 0
    }

    public struct DeviceTrack: Sendable {
        public let address: BluetoothAddress
        public var name: String?
        public var firstSeen: Int64
        public fileprivate(set) var adverts = 0
        public fileprivate(set) var rssi = ColumnGrid<MinMaxCell>(capacity: 1024)
        public fileprivate(set) var advertTimes = ColumnGrid<CountCell>(capacity: 1024)
        public fileprivate(set) var spans: [ConnectionSpan] = []
    }

    public private(set) var devices: [DeviceTrack] = []
    public private(set) var devicesNotDrawn = 0
    public private(set) var firstTimestamp: Int64?
    public private(set) var lastTimestamp: Int64?

    private var index = AddressIndex()
    /// Open connections by (adapter, handle): device and span.
    private var open: [UInt32: (device: Int, span: Int)] = [:]
    private var overflow: Set<BluetoothAddress> = []

    public init() {}

    public mutating func add(_ event: Event) {
        if firstTimestamp.map({ event.timestamp < $0 }) ?? true { firstTimestamp = event.timestamp }
        if lastTimestamp.map({ event.timestamp > $0 }) ?? true { lastTimestamp = event.timestamp }
        switch event.body {
        case .advertisement(let advert):
            guard let d = slot(advert.address, event) else { return }
            devices[d].adverts += 1
            devices[d].advertTimes.add(event.timestamp, 1)
            if let rssi = advert.rssi {
                devices[d].rssi.add(event.timestamp, TimedValue(time: event.timestamp, value: Double(rssi), frame: event.frame))
            }
            // A name comes in the first adverts or scan responses if at all: stop looking after them.
            if devices[d].name == nil, devices[d].adverts <= 64, let name = advert.data.localName, !name.isEmpty {
                devices[d].name = name
            }
        case .connect(let connect) where connect.status == 0:
            let key = Self.key(event.adapter, connect.connection)
            if let old = open.removeValue(forKey: key) { close(old, at: event.timestamp, reason: nil) }
            guard let d = slot(connect.address, event) else { return }
            openSpan(d, key, ConnectionSpan(handle: connect.connection, start: event.timestamp, firstSeen: event.timestamp, lastSeen: event.timestamp))
        case .disconnect(let disconnect):
            let key = Self.key(event.adapter, disconnect.connection)
            if let (d, s) = open.removeValue(forKey: key) {
                close((d, s), at: event.timestamp, reason: disconnect.reason)
            } else if let address = disconnect.address, let d = slot(address, event) {
                // Open before the capture began and silent until its end.
                var span = ConnectionSpan(handle: disconnect.connection, start: nil, firstSeen: event.timestamp, lastSeen: event.timestamp)
                span.end = event.timestamp
                span.reason = disconnect.reason
                append(span, to: d)
            }
        case .att(let att):
            let key = Self.key(event.adapter, att.connection)
            if let (d, s) = open[key] {
                devices[d].spans[s].lastSeen = max(devices[d].spans[s].lastSeen, event.timestamp)
            } else if let peer = att.peer, let d = slot(peer, event) {
                openSpan(d, key, ConnectionSpan(handle: att.connection, start: nil, firstSeen: event.timestamp, lastSeen: event.timestamp))
            }
        default:
            break
        }
    }

    /// Ends the connections still open at the capture's last event.
    public mutating func finish() {
        for (_, (d, s)) in open where devices[d].spans[s].end == nil {
            devices[d].spans[s].end = lastTimestamp ?? devices[d].spans[s].lastSeen
        }
        open = [:]
    }

    static func key(_ adapter: UInt16, _ handle: UInt16) -> UInt32 { UInt32(adapter) << 16 | UInt32(handle) }

    private mutating func openSpan(_ d: Int, _ key: UInt32, _ span: ConnectionSpan) {
        append(span, to: d)
        open[key] = (d, devices[d].spans.count - 1)
    }

    private mutating func append(_ span: ConnectionSpan, to d: Int) {
        if devices[d].spans.count < Self.maximumSpans {
            devices[d].spans.append(span)
        } else {
            // Too many to draw one by one: the last bar stretches over the rest.
            let last = devices[d].spans.count - 1
            devices[d].spans[last].merged += 1
            devices[d].spans[last].end = nil
            devices[d].spans[last].lastSeen = max(devices[d].spans[last].lastSeen, span.lastSeen)
        }
    }

    private mutating func close(_ at: (device: Int, span: Int), at time: Int64, reason: UInt8?) {
        devices[at.device].spans[at.span].end = time
        devices[at.device].spans[at.span].lastSeen = max(devices[at.device].spans[at.span].lastSeen, time)
        if let reason { devices[at.device].spans[at.span].reason = reason }
    }

    private mutating func slot(_ address: BluetoothAddress, _ event: Event) -> Int? {
        if let d = index[address] { return d }
        guard devices.count < Self.maximumDevices else {
            if overflow.count < 1 << 16, overflow.insert(address).inserted { devicesNotDrawn += 1 }
            return nil
        }
        index[address] = devices.count
        devices.append(DeviceTrack(address: address, firstSeen: event.timestamp))
        return devices.count - 1
    }

    public func device(_ address: BluetoothAddress) -> DeviceTrack? { index[address].map { devices[$0] } }
}
