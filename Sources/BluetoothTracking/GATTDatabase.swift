import BluetoothPackets

/// One GATT server's attributes as far as discovery (or a map) has shown them.
public struct GATTDatabase: Sendable {
    public struct Service: Sendable, Hashable {
        public var start: UInt16
        public var end: UInt16
        public var uuid: BluetoothUUID
        public var primary: Bool
        public var frame: Int?
    }

    public struct Characteristic: Sendable, Hashable {
        public var declarationHandle: UInt16
        public var valueHandle: UInt16
        public var uuid: BluetoothUUID
        public var properties: UInt8
        public var frame: Int?
    }

    /// An attribute and where it was learned.
    public struct Attribute: Sendable, Hashable {
        public var uuid: BluetoothUUID
        public var frame: Int?
    }

    public private(set) var services: [Service] = [] {
        didSet { lastResolved = nil }
    }
    /// Sorted by declaration handle.
    public private(set) var characteristics: [Characteristic] = [] {
        didSet { lastResolved = nil }
    }
    /// Every attribute whose type is known, by handle.
    public private(set) var attributes: [UInt16: Attribute] = [:] {
        didSet { lastResolved = nil }
    }
    /// The last handle resolved, for `resolve(remembering:source:)`; forgotten at every change.
    private var lastResolved: (handle: UInt16, source: UUIDSource, attribute: ResolvedAttribute?)?

    /// Services, and characteristics, kept per database: far more than any real GATT server has.
    /// A capture can discover tens of thousands of made-up services; past this, new ones are not
    /// kept, so each discovery response costs a bounded search and insertion.
    public static let maximumEntries = 4096

    public init() {}

    public var isEmpty: Bool { attributes.isEmpty && services.isEmpty }

    /// Services are kept sorted by start handle, one per start: found by binary search, so that
    /// adding each of n services is not a scan and a sort of all n.
    public mutating func addService(start: UInt16, end: UInt16, uuid: BluetoothUUID, primary: Bool = true, frame: Int?) {
        let entry = Service(start: start, end: end, uuid: uuid, primary: primary, frame: frame)
        let index = Self.firstIndex(services.count) { services[$0].start >= start }
        if index < services.count, services[index].start == start {
            services[index] = entry
        } else {
            guard services.count < Self.maximumEntries else { return }
            services.insert(entry, at: index)
        }
        attributes[start] = Attribute(uuid: primary ? .primaryService : .secondaryService, frame: frame)
    }

    public mutating func addCharacteristic(
        declaration: UInt16, valueHandle: UInt16, uuid: BluetoothUUID, properties: UInt8, frame: Int?
    ) {
        let entry = Characteristic(
            declarationHandle: declaration, valueHandle: valueHandle, uuid: uuid, properties: properties, frame: frame)
        let index = Self.firstIndex(characteristics.count) { characteristics[$0].declarationHandle >= declaration }
        if index < characteristics.count, characteristics[index].declarationHandle == declaration {
            characteristics[index] = entry
        } else {
            guard characteristics.count < Self.maximumEntries else { return }
            characteristics.insert(entry, at: index)
        }
        attributes[declaration] = Attribute(uuid: .characteristic, frame: frame)
        attributes[valueHandle] = Attribute(uuid: uuid, frame: frame)
    }

    /// The first index in 0..<count where `isAtOrAfter` holds, for a condition that, once true,
    /// stays true (binary search).
    private static func firstIndex(_ count: Int, _ isAtOrAfter: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// An attribute's type from Find Information (descriptors, and everything else it lists).
    public mutating func addAttribute(handle: UInt16, uuid: BluetoothUUID, frame: Int?) {
        // A characteristic value's type is its characteristic UUID: Find Information says the same.
        attributes[handle] = Attribute(uuid: uuid, frame: frame)
    }

    /// Everything `other` knows that this database does not (other's entries win on conflict).
    public mutating func merge(_ other: GATTDatabase) {
        for service in other.services {
            addService(start: service.start, end: service.end, uuid: service.uuid, primary: service.primary, frame: service.frame)
        }
        for c in other.characteristics {
            addCharacteristic(
                declaration: c.declarationHandle, valueHandle: c.valueHandle, uuid: c.uuid, properties: c.properties,
                frame: c.frame)
        }
        for (handle, attribute) in other.attributes { attributes[handle] = attribute }
    }

    /// `resolve(_:source:)`, remembering the answer: a connection's notifications and writes come
    /// one after another on the same handle, and each answer searched the services and
    /// characteristics again.
    public mutating func resolve(remembering handle: UInt16, source: UUIDSource) -> ResolvedAttribute? {
        if let last = lastResolved, last.handle == handle, last.source == source { return last.attribute }
        let attribute = resolve(handle, source: source)
        lastResolved = (handle, source, attribute)
        return attribute
    }

    /// What `handle` is, or nil when this database does not know it.
    public func resolve(_ handle: UInt16, source: UUIDSource) -> ResolvedAttribute? {
        guard let attribute = attributes[handle] else { return nil }
        let service = services.last { $0.start <= handle && handle <= $0.end }
        var characteristic: BluetoothUUID?
        // A descriptor belongs to the last characteristic declared before it in the same service.
        if let owner = lastCharacteristic(before: handle), owner.valueHandle < handle,
            service.map({ owner.declarationHandle >= $0.start }) ?? true,
            attribute.uuid != .characteristic
        {
            characteristic = owner.uuid
        }
        return ResolvedAttribute(
            uuid: attribute.uuid, service: service?.uuid, characteristic: characteristic, source: source,
            frame: source == .map ? nil : attribute.frame)
    }

    private func lastCharacteristic(before handle: UInt16) -> Characteristic? {
        var low = 0
        var high = characteristics.count
        while low < high {
            let mid = (low + high) / 2
            if characteristics[mid].declarationHandle < handle { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? characteristics[low - 1] : nil
    }
}

/// Whose GATT server a database describes: a device by address, or the capturing host's own
/// server (the phone's, when its address is not in the capture).
public enum GATTServer: Hashable, Sendable, Comparable {
    case device(BluetoothAddress)
    case localAdapter(UInt16)
}

/// GATT databases known before or outside a connection, loaded from a map file. A map entry
/// without an address applies to every device; "local" entries to the capturing host's own server.
public struct GATTMap: Sendable {
    public var devices: [BluetoothAddress: GATTDatabase] = [:]
    /// Applies to any device the map does not list by address.
    public var anyDevice: GATTDatabase?
    /// The capturing host's own GATT server.
    public var local: GATTDatabase?

    public init() {}

    public func database(for server: GATTServer) -> GATTDatabase? {
        switch server {
        case .device(let address): devices[address] ?? anyDevice
        case .localAdapter: local
        }
    }

    public var isEmpty: Bool { devices.isEmpty && anyDevice == nil && local == nil }
}
