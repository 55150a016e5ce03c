import BluetoothPackets
import BluetoothTracking

/// Statistics of an event stream, per device, per connection and per adapter, in bounded memory:
/// feed it every event in order with `add`, then call `finish`.
public struct EventStatistics: Sendable {
    /// Devices followed one by one; the adverts of later ones are counted in `otherDevices`.
    public static let maximumDevices = 2048
    /// Connections listed one by one; later ones are counted in `connectionsNotListed`.
    public static let maximumConnections = 4096
    public static let maximumDiagnosticIDs = 64

    public private(set) var devices: [DeviceStatistics] = []
    public private(set) var connections: [ConnectionStatistics] = []
    public private(set) var adapters: [AdapterStatistics] = []
    /// Adverts of devices past `maximumDevices`, and how many such devices.
    public private(set) var otherDevices = 0
    public private(set) var otherDeviceAdverts = 0
    public private(set) var connectionsNotListed = 0

    public private(set) var events = 0
    public private(set) var firstTimestamp: Int64?
    public private(set) var lastTimestamp: Int64?
    public private(set) var lastFrame = 0
    /// Records the reader found damaged, and whether the capture was cut short.
    public private(set) var damagedRecords = 0
    public private(set) var truncated = false
    /// Diagnostics by id ("att.response_without_request"), in the order first seen.
    public private(set) var diagnostics: [(id: String, count: Int)] = []

    private var deviceIndex = AddressIndex()
    private var adapterIndex: [UInt16: Int] = [:]
    private var lastAdapter: Int?
    /// Open connections by (adapter, handle), pointing into `connections`, or -1 when not listed.
    private var open: [UInt32: Int] = [:]
    private var overflowDevices: Set<BluetoothAddress> = []

    public init() {}

    public init(_ events: some Sequence<Event>) {
        for event in events { add(event) }
        finish()
    }

    /// Looks up a device by address.
    public func device(_ address: BluetoothAddress) -> DeviceStatistics? {
        deviceIndex[address].map { devices[$0] }
    }

    public mutating func add(_ event: Event) {
        events += 1
        lastFrame = max(lastFrame, event.frame)
        if firstTimestamp.map({ event.timestamp < $0 }) ?? true { firstTimestamp = event.timestamp }
        if lastTimestamp.map({ event.timestamp > $0 }) ?? true { lastTimestamp = event.timestamp }
        adapters[adapterSlot(event.adapter)].add(event)
        switch event.body {
        case .advertisement(let advert):
            guard let index = deviceSlot(advert.address, event) else {
                otherDeviceAdverts += 1
                return
            }
            devices[index].add(advert, event)
        case .connect(let connect):
            if let index = deviceSlot(connect.address, event) { devices[index].connected(connect, event) }
            guard connect.status == 0 else { return }
            let key = Self.key(event.adapter, connect.connection)
            // A handle opened again without a disconnect in between: the old one ended unseen.
            open[key] = nil
            if let index = connectionSlot(event.adapter, connect.connection, event) {
                connections[index].opened(connect, event)
            }
        case .disconnect(let disconnect):
            let key = Self.key(event.adapter, disconnect.connection)
            if let index = connectionSlot(event.adapter, disconnect.connection, event) {
                connections[index].closed(disconnect, event)
                if let peer = connections[index].peer, let device = deviceIndex[peer] { devices[device].seen(event) }
            }
            open[key] = nil
        case .att(let att):
            guard let index = connectionSlot(event.adapter, att.connection, event) else { return }
            connections[index].add(event.body, event)
            if let peer = att.peer ?? connections[index].peer, let device = deviceIndex[peer] {
                devices[device].seen(event)
            }
        case .mtu(let change): connection(event, change.connection)
        case .connectionUpdate(let update): connection(event, update.connection)
        case .dataLength(let length): connection(event, length.connection)
        case .phy(let phy): connection(event, phy.connection)
        case .encryption(let change): connection(event, change.connection)
        case .diagnostic(let diagnostic):
            let id = "\(diagnostic.id)"
            if id == "capture.truncated" { truncated = true } else if id == "capture.damaged" { damagedRecords += 1 }
            if let i = diagnostics.firstIndex(where: { $0.id == id }) {
                diagnostics[i].count += 1
            } else if diagnostics.count < Self.maximumDiagnosticIDs {
                diagnostics.append((id, 1))
            }
        default:
            break
        }
    }

    /// Sorts what was collected for output: devices by adverts, connections by start.
    public mutating func finish() {
        devices.sort { ($0.adverts, $1.firstFrame) > ($1.adverts, $0.firstFrame) }
        deviceIndex = AddressIndex()
        for (i, device) in devices.enumerated() { deviceIndex[device.address] = i }
        adapters.sort { $0.adapter < $1.adapter }
        adapterIndex = Dictionary(uniqueKeysWithValues: adapters.enumerated().map { ($0.element.adapter, $0.offset) })
        lastAdapter = nil
        open = [:]
    }

    private mutating func connection(_ event: Event, _ handle: UInt16) {
        guard let index = connectionSlot(event.adapter, handle, event) else { return }
        connections[index].add(event.body, event)
    }

    static func key(_ adapter: UInt16, _ handle: UInt16) -> UInt32 { UInt32(adapter) << 16 | UInt32(handle) }

    private mutating func adapterSlot(_ adapter: UInt16) -> Int {
        // Almost every capture has one adapter: no lookup for it.
        if let last = lastAdapter, adapters[last].adapter == adapter { return last }
        if let index = adapterIndex[adapter] {
            lastAdapter = index
            return index
        }
        lastAdapter = adapters.count
        adapterIndex[adapter] = adapters.count
        adapters.append(AdapterStatistics(adapter: adapter))
        return adapters.count - 1
    }

    /// The device's index, made on first sight; nil past the limit.
    private mutating func deviceSlot(_ address: BluetoothAddress, _ event: Event) -> Int? {
        if let index = deviceIndex[address] { return index }
        guard devices.count < Self.maximumDevices else {
            if overflowDevices.count < 1 << 16, overflowDevices.insert(address).inserted { otherDevices += 1 }
            return nil
        }
        deviceIndex[address] = devices.count
        devices.append(DeviceStatistics(address: address, event: event))
        return devices.count - 1
    }

    /// The open connection on this handle, made on first sight (a connection already open when the
    /// capture began); nil when it is past the limit.
    private mutating func connectionSlot(_ adapter: UInt16, _ handle: UInt16, _ event: Event) -> Int? {
        let key = Self.key(adapter, handle)
        if let index = open[key] { return index < 0 ? nil : index }
        guard connections.count < Self.maximumConnections else {
            connectionsNotListed += 1
            open[key] = -1
            return nil
        }
        open[key] = connections.count
        connections.append(ConnectionStatistics(adapter: adapter, handle: handle, event: event))
        return connections.count - 1
    }
}
