import BluetoothPackets
import ByteReading
import CaptureModel

/// Discovery: the requests that search a handle range, and the responses that teach the
/// connection's GATT database (shared by all its bearers).
extension Tracker {
    /// Find Information, Read By Type and Read By Group Type Requests.
    @inline(__always)
    func discoveryRequest(_ x: ATTContext, _ range: ClosedRange<UInt16>, type: BluetoothUUID?, _ e: inout ATTEvent) {
        expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, attributeType: type))
        e.range = range
        e.attributeType = type
        push(moving: &e)
    }

    @inline(__always)
    func findByTypeValueRequest(
        _ x: ATTContext, _ range: ClosedRange<UInt16>, type: UInt16, value: UnsafeRawBufferPointer, _ e: inout ATTEvent
    ) {
        expectResponse(
            x,
            PendingRequest(
                opcode: x.opcode, frame: frame, attributeType: BluetoothUUID(UInt32(type)),
                searchedValue: [UInt8](value.prefix(16))))
        e.range = range
        e.attributeType = BluetoothUUID(UInt32(type))
        e.value = [UInt8](value)
        push(moving: &e)
    }

    @inline(__always)
    func findInformationResponse(_ x: ATTContext, _ entries: [(handle: UInt16, uuid: BluetoothUUID)], _ e: inout ATTEvent) {
        let request = takeRequest(x)
        e.requestFrame = request?.frame
        for entry in entries {
            x.connection.databases[x.side].addAttribute(handle: entry.handle, uuid: entry.uuid, frame: frame)
        }
        e.discovered = entries.map { DiscoveredAttribute(handle: $0.handle, uuid: $0.uuid) }
        push(moving: &e)
    }

    /// Primary service discovery by service UUID: the request said which service was searched.
    @inline(__always)
    func findByTypeValueResponse(_ x: ATTContext, _ entries: [(handle: UInt16, groupEnd: UInt16)], _ e: inout ATTEvent) {
        let request = takeRequest(x)
        e.requestFrame = request?.frame
        if let request, let type = request.attributeType, type == .primaryService || type == .secondaryService,
            let bytes = request.searchedValue, bytes.count == 2 || bytes.count == 16,
            let uuid = try? ByteReader.reading(bytes, { r throws(DecodeError) in try BluetoothUUID(reading: &r, size: bytes.count) })
        {
            for entry in entries {
                x.connection.databases[x.side].addService(
                    start: entry.handle, end: entry.groupEnd, uuid: uuid, primary: type == .primaryService, frame: frame)
            }
            e.discovered = entries.map { DiscoveredAttribute(handle: $0.handle, uuid: uuid, endOrValueHandle: $0.groupEnd) }
        }
        push(moving: &e)
    }

    @inline(__always)
    func readByGroupTypeResponse(
        _ x: ATTContext, _ entries: [(handle: UInt16, groupEnd: UInt16, value: UnsafeRawBufferPointer)], _ e: inout ATTEvent
    ) {
        let c = x.connection
        let request = takeRequest(x)
        e.requestFrame = request?.frame
        if let type = request?.attributeType, type == .primaryService || type == .secondaryService {
            var discovered: [DiscoveredAttribute] = []
            for entry in entries {
                var value = ByteReader(entry.value)
                guard let uuid = try? BluetoothUUID(reading: &value, size: entry.value.count) else {
                    diagnose(
                        "att", "att.bad_service_uuid", "service at handle \(entry.handle) has a \(entry.value.count)-byte UUID",
                        connection: c.id)
                    continue
                }
                c.databases[x.side].addService(
                    start: entry.handle, end: entry.groupEnd, uuid: uuid, primary: type == .primaryService, frame: frame)
                discovered.append(DiscoveredAttribute(handle: entry.handle, uuid: uuid, endOrValueHandle: entry.groupEnd))
            }
            e.discovered = discovered
        }
        push(moving: &e)
    }

    @inline(__always)
    func readByTypeResponse(_ x: ATTContext, _ entries: [(handle: UInt16, value: UnsafeRawBufferPointer)], _ e: inout ATTEvent) {
        let request = takeRequest(x)
        e.requestFrame = request?.frame
        learnReadByType(x, type: request?.attributeType, entries: entries, event: &e)
        push(moving: &e)
    }

    /// Read By Type responses: characteristic declarations and includes teach the database;
    /// any other type is a read of values by UUID.
    private func learnReadByType(
        _ x: ATTContext, type: BluetoothUUID?, entries: [(handle: UInt16, value: UnsafeRawBufferPointer)],
        event e: inout ATTEvent
    ) {
        guard let type else { return }
        let c = x.connection
        let side = x.side
        if type == .characteristic {
            var discovered: [DiscoveredAttribute] = []
            for entry in entries {
                var r = ByteReader(entry.value)
                do {
                    let properties = try r.u8("characteristic.properties")
                    let valueHandle = try r.u16le("characteristic.value_handle")
                    let uuid = try BluetoothUUID(reading: &r, size: r.remaining, "characteristic.uuid")
                    c.databases[side].addCharacteristic(
                        declaration: entry.handle, valueHandle: valueHandle, uuid: uuid, properties: properties, frame: frame)
                    discovered.append(
                        DiscoveredAttribute(handle: entry.handle, uuid: uuid, endOrValueHandle: valueHandle, properties: properties))
                } catch {
                    diagnose("att", "att.bad_characteristic_declaration", error, connection: c.id)
                }
            }
            e.discovered = discovered
        } else if type == .include {
            for entry in entries { c.databases[side].addAttribute(handle: entry.handle, uuid: .include, frame: frame) }
        } else if let first = entries.first {
            // Read Using Characteristic UUID: the handle is of that type, and this is its value.
            for entry in entries { c.databases[side].addAttribute(handle: entry.handle, uuid: type, frame: frame) }
            e.handle = first.handle
            e.value = [UInt8](first.value)
            e.attribute = resolve(x, first.handle)
        }
    }
}
