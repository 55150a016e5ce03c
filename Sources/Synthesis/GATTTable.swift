import BluetoothPackets
import ByteReading

/// A device's attribute table with handles assigned in declaration order, and the discovery
/// responses a GATT server gives for it (Core v5.4, Vol 3, Part G, §4.4–4.7).
struct GATTTable {
    struct Service {
        var start: UInt16
        var end: UInt16
        var uuid: BluetoothUUID
    }

    struct Characteristic {
        var declaration: UInt16
        var valueHandle: UInt16
        var uuid: BluetoothUUID
        var properties: UInt8
        var value: [UInt8]
        var descriptors: [(handle: UInt16, uuid: BluetoothUUID)]
        var cccd: UInt16? { descriptors.first { $0.uuid == .clientCharacteristicConfiguration }?.handle }
        var notifies: Bool { properties & 0x10 != 0 }
    }

    private(set) var services: [Service] = []
    private(set) var characteristics: [Characteristic] = []
    var lastHandle: UInt16 = 0

    /// The device's services after Generic Access (device name) and Generic Attribute (Service Changed).
    init(deviceName: String, services specs: [ServiceSpec]) {
        let standard = [
            ServiceSpec(
                uuid: BluetoothUUID(0x1800),
                characteristics: [
                    CharacteristicSpec(uuid: BluetoothUUID(0x2A00), properties: 0x02, value: Array(deviceName.utf8.prefix(20)), descriptors: [])
                ]),
            ServiceSpec(
                uuid: BluetoothUUID(0x1801),
                characteristics: [CharacteristicSpec(uuid: BluetoothUUID(0x2A05), properties: 0x20, value: [], descriptors: [])]),
        ]
        var handle: UInt16 = 0
        for spec in standard + specs {
            handle += 1
            let start = handle
            for c in spec.characteristics {
                let declaration = handle + 1
                let valueHandle = handle + 2
                handle = valueHandle
                var descriptors: [(UInt16, BluetoothUUID)] = []
                if c.notifies || c.indicates {
                    handle += 1
                    descriptors.append((handle, .clientCharacteristicConfiguration))
                }
                for d in c.descriptors where d != .clientCharacteristicConfiguration {
                    handle += 1
                    descriptors.append((handle, d))
                }
                characteristics.append(
                    Characteristic(
                        declaration: declaration, valueHandle: valueHandle, uuid: c.uuid, properties: c.properties,
                        value: c.value, descriptors: descriptors))
            }
            services.append(Service(start: start, end: handle, uuid: spec.uuid))
        }
        lastHandle = handle
    }

    func characteristic(_ uuid: BluetoothUUID) -> Characteristic? { characteristics.first { $0.uuid == uuid } }

    // MARK: Discovery responses; nil means Error Response "Attribute Not Found".

    /// How many bytes a UUID takes in an ATT list: 2, or 16 (a 32-bit UUID goes in its 128-bit form).
    static func attSize(_ uuid: BluetoothUUID) -> Int {
        uuid.shortValue.map { $0 <= 0xFFFF ? 2 : 16 } ?? 16
    }

    /// Read By Group Type Response for primary services from `start` (same UUID size per response).
    func readByGroupType(from start: UInt16, mtu: Int) -> (pdu: [UInt8], last: UInt16)? {
        let found = services.filter { $0.start >= start }
        guard let first = found.first else { return nil }
        let size = Self.attSize(first.uuid)
        let entryLength = 4 + size
        var w = ByteWriter()
        w.u8(ATTOpcode.readByGroupTypeResponse)
        w.u8(UInt8(entryLength))
        var last = first.end
        for service in found {
            let s = Self.attSize(service.uuid)
            guard s == size, w.count + entryLength <= mtu else { break }
            w.u16le(service.start)
            w.u16le(service.end)
            w.append(service.uuid.wireBytes(size: size))
            last = service.end
        }
        return (w.bytes, last)
    }

    /// Read By Type Response for characteristic declarations in [start, end].
    func characteristicDeclarations(from start: UInt16, to end: UInt16, mtu: Int) -> (pdu: [UInt8], last: UInt16)? {
        let found = characteristics.filter { $0.declaration >= start && $0.declaration <= end }
        guard let first = found.first else { return nil }
        let size = Self.attSize(first.uuid)
        let entryLength = 5 + size
        var w = ByteWriter()
        w.u8(ATTOpcode.readByTypeResponse)
        w.u8(UInt8(entryLength))
        var last = first.declaration
        for c in found {
            let s = Self.attSize(c.uuid)
            guard s == size, w.count + entryLength <= mtu else { break }
            w.u16le(c.declaration)
            w.u8(c.properties)
            w.u16le(c.valueHandle)
            w.append(c.uuid.wireBytes(size: size))
            last = c.declaration
        }
        return (w.bytes, last)
    }

    /// Find Information Response for the descriptors in [start, end].
    func findInformation(from start: UInt16, to end: UInt16, mtu: Int) -> (pdu: [UInt8], last: UInt16)? {
        let found = characteristics.flatMap(\.descriptors).filter { $0.handle >= start && $0.handle <= end }
        guard let first = found.first else { return nil }
        let size = Self.attSize(first.uuid)
        var w = ByteWriter()
        w.u8(ATTOpcode.findInformationResponse)
        w.u8(size == 2 ? 1 : 2)
        var last = first.handle
        for d in found {
            let s = Self.attSize(d.uuid)
            guard s == size, w.count + 2 + size <= mtu else { break }
            w.u16le(d.handle)
            w.append(d.uuid.wireBytes(size: size))
            last = d.handle
        }
        return (w.bytes, last)
    }
}
