import BluetoothPackets
import BluetoothTracking
import ByteReading

/// What one device (one address) did: its adverts, how often and how loud, what it called itself.
public struct DeviceStatistics: Sendable {
    /// Names, companies and service UUIDs kept per device; a device that changes them on every
    /// advert would otherwise grow without end.
    public static let maximumNames = 8
    public static let maximumCompanies = 16
    public static let maximumServiceUUIDs = 32
    /// Intervals kept exactly before the sketch takes over (see `QuantileSketch`).
    public static let exactIntervals = 512

    public let address: BluetoothAddress
    public private(set) var addressType: AddressType?
    /// Adverts by PDU kind, indexed by `AdvertisingPDUKind.rawValue`.
    public private(set) var advertsByKind = [Int](repeating: 0, count: 6)
    public private(set) var adverts = 0
    /// Microseconds between consecutive advertising PDUs other than scan responses (which answer a
    /// scan request and do not follow the advertising interval).
    public private(set) var interval = QuantileSketch(exactCapacity: exactIntervals)
    public private(set) var intervalHistogram = LogHistogram()
    public private(set) var rssi = IntegerCounts()
    public private(set) var names: [String] = []
    public private(set) var companies: [UInt16] = []
    public private(set) var serviceUUIDs: [BluetoothUUID] = []
    public private(set) var firstSeen: Int64
    public private(set) var lastSeen: Int64
    public private(set) var firstFrame: Int
    public private(set) var lastFrame: Int
    public private(set) var connections = 0
    /// Connection attempts the controller reported as failed (a non-zero status).
    public private(set) var failedConnections = 0

    private var lastAdvertTime: Int64?
    /// The last advertising data per PDU kind: a repeat of it needs no parsing.
    private var lastData: [AdvertisingData] = Array(repeating: AdvertisingData([]), count: 6)

    init(address: BluetoothAddress, event: Event) {
        self.address = address
        firstSeen = event.timestamp
        lastSeen = event.timestamp
        firstFrame = event.frame
        lastFrame = event.frame
    }

    mutating func seen(_ event: Event) {
        if event.timestamp < firstSeen { firstSeen = event.timestamp }
        if event.timestamp > lastSeen { lastSeen = event.timestamp }
        lastFrame = event.frame
    }

    mutating func add(_ advert: Advertisement, _ event: Event) {
        seen(event)
        addressType = advert.addressType
        adverts += 1
        let kind = Int(advert.pdu.rawValue)
        advertsByKind[kind] += 1
        if let value = advert.rssi { rssi.add(value) }
        if advert.pdu != .scanRsp {
            if let last = lastAdvertTime, event.timestamp >= last {
                interval.add(Double(event.timestamp - last))
                intervalHistogram.add(micros: event.timestamp - last)
            }
            lastAdvertTime = event.timestamp
        }
        if lastData[kind] != advert.data {
            lastData[kind] = advert.data
            learn(from: advert.data)
        }
    }

    /// Names, companies and service UUIDs in one advert's data.
    private mutating func learn(from data: AdvertisingData) {
        var names = self.names
        var companies = self.companies
        var uuids = self.serviceUUIDs
        _ = data.forEach { s in
            switch s.type {
            case ADType.completeName, ADType.shortenedName:
                guard names.count < Self.maximumNames else { return }
                let name = String(decoding: s.data, as: UTF8.self)
                if !names.contains(name) { names.append(name) }
            case ADType.manufacturerData:
                guard s.data.count >= 2, companies.count < Self.maximumCompanies else { return }
                let company = UInt16(s.data[0]) | UInt16(s.data[1]) << 8
                if !companies.contains(company) { companies.append(company) }
            case ADType.incomplete16...ADType.complete128, ADType.serviceData16, ADType.serviceData32,
                ADType.serviceData128:
                guard let size = Self.uuidSize(s.type) else { return }
                var reader = ByteReader(s.data)
                let isList = s.type <= ADType.complete128
                while reader.remaining >= size, uuids.count < Self.maximumServiceUUIDs,
                    let uuid = try? BluetoothUUID(reading: &reader, size: size)
                {
                    if !uuids.contains(uuid) { uuids.append(uuid) }
                    if !isList { break }  // service data: one UUID, then the data
                }
            default:
                break
            }
        }
        self.names = names
        self.companies = companies
        self.serviceUUIDs = uuids
    }

    private static func uuidSize(_ type: UInt8) -> Int? {
        switch type {
        case ADType.serviceData16: 2
        case ADType.serviceData32: 4
        case ADType.serviceData128: 16
        default: ADType.uuidSize(type)
        }
    }

    mutating func connected(_ connect: Connect, _ event: Event) {
        seen(event)
        if addressType == nil { addressType = connect.addressType }
        if connect.status == 0 { connections += 1 } else { failedConnections += 1 }
    }
}
