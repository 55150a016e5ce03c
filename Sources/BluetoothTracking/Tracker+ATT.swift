import BluetoothPackets
import ByteReading
import CaptureModel

/// The ATT maximum attribute value length (Core v5.4, Vol 3, Part F, §3.2.9).
let maximumAttributeLength = 512

extension Tracker {
    /// Processes one ATT PDU. `side`: 0 when the peer is the GATT server for this PDU, 1 when we are.
    func handleATT(_ r: inout ByteReader, connection c: Connection, direction: Direction) {
        guard let opcode = r.peekU8() else {
            diagnose("att", "att.empty_pdu", "an ATT PDU with no opcode", connection: c.id)
            return
        }
        _ = try? r.u8()
        let fromServer = ATTOpcode.isFromServer(opcode)
        // Sending a client PDU or receiving a server PDU: the peer is the server.
        let side = (direction == .received) == fromServer ? 0 : 1
        var e = ATTEvent(connection: c.id, peer: c.peer, direction: direction, opcode: opcode)
        e.localServer = side == 1
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(opcode: opcode, parsing: &r)
        } catch {
            diagnose("att", "att.malformed_pdu", error, connection: c.id)
            e.value = [UInt8](r.unread)
            push(.att(e))
            return
        }
        if !fromServer { clientPDUArrives(c, side: side, opcode: opcode, pdu: pdu) }

        switch pdu {
        case .exchangeMTU(let mtu):
            if opcode == ATTOpcode.exchangeMTURequest {
                c.requestedMTU = mtu
                expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame))
                push(.att(e))
            } else {
                let request = takeRequest(c, side: side, response: opcode)
                e.requestFrame = request?.frame
                push(.att(e))
                c.mtu = max(23, min(mtu, c.requestedMTU ?? mtu))
                push(.mtu(MTUChange(connection: c.id, mtu: c.mtu)))
            }

        case .errorResponse(let requestOpcode, let handle, let code):
            let request = takeRequest(c, side: side, response: opcode, errorFor: requestOpcode)
            e.requestOpcode = requestOpcode
            e.errorCode = code
            e.handle = handle
            e.requestFrame = request?.frame
            if [ATTOpcode.readRequest, ATTOpcode.readBlobRequest, ATTOpcode.writeRequest, ATTOpcode.prepareWriteRequest]
                .contains(requestOpcode)
            {
                e.attribute = resolve(c, side: side, handle)
            }
            push(.att(e))
            if requestOpcode == ATTOpcode.readBlobRequest { completeLongRead(c, side: side) }
            if requestOpcode == ATTOpcode.executeWriteRequest { c.preparedWrites[side].removeAll() }

        case .handleRange(let start, let end):
            expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame))
            e.range = start...max(start, end)
            push(.att(e))

        case .handleRangeWithType(let start, let end, let type):
            expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, attributeType: type))
            e.range = start...max(start, end)
            e.attributeType = type
            push(.att(e))

        case .findByTypeValueRequest(let start, let end, let type, let value):
            expectResponse(
                c, side: side,
                PendingRequest(
                    opcode: opcode, frame: frame, attributeType: BluetoothUUID(UInt32(type)),
                    searchedValue: [UInt8](value.prefix(16))))
            e.range = start...max(start, end)
            e.attributeType = BluetoothUUID(UInt32(type))
            e.value = [UInt8](value)
            push(.att(e))

        case .findInformationResponse(let entries):
            let request = takeRequest(c, side: side, response: opcode)
            e.requestFrame = request?.frame
            for entry in entries { c.databases[side].addAttribute(handle: entry.handle, uuid: entry.uuid, frame: frame) }
            e.discovered = entries.map { DiscoveredAttribute(handle: $0.handle, uuid: $0.uuid) }
            push(.att(e))

        case .findByTypeValueResponse(let entries):
            let request = takeRequest(c, side: side, response: opcode)
            e.requestFrame = request?.frame
            if let request, let type = request.attributeType, type == .primaryService || type == .secondaryService,
                let bytes = request.searchedValue, bytes.count == 2 || bytes.count == 16,
                let uuid = try? ByteReader.reading(bytes, { r throws(DecodeError) in try BluetoothUUID(reading: &r, size: bytes.count) })
            {
                for entry in entries {
                    c.databases[side].addService(
                        start: entry.handle, end: entry.groupEnd, uuid: uuid, primary: type == .primaryService, frame: frame)
                }
                e.discovered = entries.map { DiscoveredAttribute(handle: $0.handle, uuid: uuid, endOrValueHandle: $0.groupEnd) }
            }
            push(.att(e))

        case .readByTypeResponse(let entries):
            let request = takeRequest(c, side: side, response: opcode)
            e.requestFrame = request?.frame
            learnReadByType(c, side: side, type: request?.attributeType, entries: entries, event: &e)
            push(.att(e))

        case .readByGroupTypeResponse(let entries):
            let request = takeRequest(c, side: side, response: opcode)
            e.requestFrame = request?.frame
            if let type = request?.attributeType, type == .primaryService || type == .secondaryService {
                var discovered: [DiscoveredAttribute] = []
                for entry in entries {
                    var value = ByteReader(entry.value)
                    guard let uuid = try? BluetoothUUID(reading: &value, size: entry.value.count) else {
                        diagnose("att", "att.bad_service_uuid", "service at handle \(entry.handle) has a \(entry.value.count)-byte UUID", connection: c.id)
                        continue
                    }
                    c.databases[side].addService(
                        start: entry.handle, end: entry.groupEnd, uuid: uuid, primary: type == .primaryService, frame: frame)
                    discovered.append(DiscoveredAttribute(handle: entry.handle, uuid: uuid, endOrValueHandle: entry.groupEnd))
                }
                e.discovered = discovered
            }
            push(.att(e))

        case .handle(let handle):
            expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, handle: handle))
            e.handle = handle
            e.attribute = resolve(c, side: side, handle)
            push(.att(e))

        case .handleOffset(let handle, let offset):
            expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, handle: handle, offset: offset))
            if offset == 0, c.longRead[side] == nil {
                c.longRead[side] = LongRead(handle: handle, value: [], firstFrame: frame, parts: 0)
            }
            e.handle = handle
            e.offset = offset
            e.attribute = resolve(c, side: side, handle)
            push(.att(e))

        case .handles(let handles):
            expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, handles: handles))
            e.handles = handles
            push(.att(e))

        case .value(let value):
            let request = takeRequest(c, side: side, response: opcode)
            e.requestFrame = request?.frame
            e.value = [UInt8](value)
            if opcode == ATTOpcode.readMultipleResponse {
                e.handles = request?.handles
                push(.att(e))
                break
            }
            e.handle = request?.handle
            if let handle = e.handle { e.attribute = resolve(c, side: side, handle) }
            if opcode == ATTOpcode.readResponse {
                let mayContinue = e.handle != nil && value.count == Int(c.mtu) - 1
                if mayContinue, let handle = e.handle {
                    // A full Read Response may be the first part of a long value: hold it until the
                    // next request shows whether a Read Blob continues it.
                    c.heldRead[side] = nextOutboxIndex
                    c.longRead[side] = LongRead(
                        handle: handle, value: [UInt8](value), firstFrame: request?.frame ?? frame, parts: 1)
                }
                push(.att(e), held: mayContinue)
            } else {
                e.offset = request?.offset
                appendLongRead(c, side: side, value: value, event: &e)
            }

        case .handleValue(let handle, let value):
            e.handle = handle
            e.value = [UInt8](value)
            e.attribute = resolve(c, side: side, handle)
            if opcode == ATTOpcode.writeRequest {
                expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, handle: handle))
            } else if opcode == ATTOpcode.handleValueIndication {
                if let earlier = c.pendingIndication[side] {
                    diagnose(
                        "att", "att.indication_without_confirmation",
                        "the indication in frame \(earlier.frame) was not confirmed before the next one", connection: c.id)
                }
                c.pendingIndication[side] = (handle, frame)
            }
            push(.att(e))

        case .signedWrite(let handle, let value, _):
            e.handle = handle
            e.value = [UInt8](value)
            e.attribute = resolve(c, side: side, handle)
            push(.att(e))

        case .prepareWrite(let handle, let offset, let value):
            e.handle = handle
            e.offset = offset
            e.value = [UInt8](value)
            e.partial = true
            e.attribute = resolve(c, side: side, handle)
            if opcode == ATTOpcode.prepareWriteRequest {
                expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, handle: handle, offset: offset))
                if c.preparedWrites[side].count < 256 {
                    c.preparedWrites[side].append(PreparedWrite(handle: handle, offset: offset, value: [UInt8](value)))
                }
            } else {
                e.requestFrame = takeRequest(c, side: side, response: opcode)?.frame
            }
            push(.att(e))

        case .executeWrite(let flags):
            expectResponse(c, side: side, PendingRequest(opcode: opcode, frame: frame, executeFlags: flags))
            push(.att(e))

        case .empty:
            if opcode == ATTOpcode.handleValueConfirmation {
                if let indication = c.pendingIndication[side] {
                    e.handle = indication.handle
                    e.requestFrame = indication.frame
                    e.attribute = resolve(c, side: side, indication.handle)
                    c.pendingIndication[side] = nil
                } else {
                    diagnose("att", "att.confirmation_without_indication", "a confirmation with no indication to confirm", connection: c.id)
                }
                push(.att(e))
                break
            }
            let request = takeRequest(c, side: side, response: opcode)
            e.requestFrame = request?.frame
            e.handle = request?.handle
            if let handle = e.handle { e.attribute = resolve(c, side: side, handle) }
            push(.att(e))
            if opcode == ATTOpcode.executeWriteResponse {
                if request?.executeFlags == 1 { emitPreparedWrites(c, side: side, direction: direction) }
                c.preparedWrites[side].removeAll()
            }

        case .values(let values):
            let request = takeRequest(c, side: side, response: opcode)
            let handles = request?.handles ?? []
            for (index, value) in values.enumerated() {
                var one = e
                one.requestFrame = request?.frame
                one.handle = index < handles.count ? handles[index] : nil
                one.value = [UInt8](value)
                if let handle = one.handle { one.attribute = resolve(c, side: side, handle) }
                push(.att(one))
            }
            if values.isEmpty { push(.att(e)) }

        case .multipleHandleValues(let entries):
            for entry in entries {
                var one = e
                one.handle = entry.handle
                one.value = [UInt8](entry.value)
                one.attribute = resolve(c, side: side, entry.handle)
                push(.att(one))
            }
            if entries.isEmpty { push(.att(e)) }

        case .unknown(let bytes):
            e.value = [UInt8](bytes)
            push(.att(e))
        }
    }

    // MARK: Transactions

    func expectResponse(_ c: Connection, side: Int, _ request: PendingRequest) {
        if let earlier = c.pending[side] {
            diagnose(
                "att", "att.request_without_response",
                "\(ATTOpcode.name(earlier.opcode)) in frame \(earlier.frame) got no response before the next request",
                connection: c.id)
        }
        c.pending[side] = request
    }

    /// The request a response answers; a response with none is reported and still emitted.
    func takeRequest(_ c: Connection, side: Int, response: UInt8, errorFor: UInt8? = nil) -> PendingRequest? {
        guard let request = c.pending[side] else {
            diagnose(
                "att", "att.response_without_request",
                "\(ATTOpcode.name(response)) answers no request seen in this capture", connection: c.id)
            return nil
        }
        c.pending[side] = nil
        let answers = errorFor.map { $0 == request.opcode } ?? (ATTOpcode.response(to: request.opcode) == response)
        if !answers {
            diagnose(
                "att", "att.unexpected_response",
                "\(ATTOpcode.name(response)) does not answer \(ATTOpcode.name(request.opcode)) from frame \(request.frame)",
                connection: c.id)
        }
        return request
    }

    /// What a handle is, from this connection's discovery, an earlier connection, or the map.
    func resolve(_ c: Connection, side: Int, _ handle: UInt16) -> ResolvedAttribute? {
        var found = c.databases[side].resolve(handle, source: .discovery)
        let server = server(of: c, side: side)
        if found == nil, let server { found = cache[server]?.resolve(handle, source: .cache) }
        if found == nil, !options.gattMap.isEmpty {
            // A peer first seen mid-connection has no address; the map's entry for any device still applies.
            let map = if let server { options.gattMap.database(for: server) } else { options.gattMap.anyDevice }
            found = map?.resolve(handle, source: .map)
        }
        return found
    }

    /// Read By Type responses: characteristic declarations and includes teach the database;
    /// any other type is a read of values by UUID.
    private func learnReadByType(
        _ c: Connection, side: Int, type: BluetoothUUID?, entries: [(handle: UInt16, value: UnsafeRawBufferPointer)],
        event e: inout ATTEvent
    ) {
        guard let type else { return }
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
            e.attribute = resolve(c, side: side, first.handle)
        }
    }

    // MARK: Long values

    /// A client PDU arrives: it decides a held Read Response and may end a long read.
    private func clientPDUArrives(_ c: Connection, side: Int, opcode: UInt8, pdu: ATTPDU) {
        var continues = false
        if opcode == ATTOpcode.readBlobRequest, case .handleOffset(let handle, let offset) = pdu,
            let long = c.longRead[side], long.handle == handle, Int(offset) == long.value.count
        {
            continues = true
        }
        // Commands and confirmations are outside request/response: they may come between a Read
        // Response and the Read Blob that continues it, so they decide nothing.
        let outsideTransactions =
            opcode == ATTOpcode.handleValueConfirmation || opcode == ATTOpcode.writeCommand
            || opcode == ATTOpcode.signedWriteCommand
        if !outsideTransactions, let held = c.heldRead[side] {
            decideHeld(at: held, partial: continues)
            c.heldRead[side] = nil
        }
        guard !continues, !outsideTransactions else { return }
        completeLongRead(c, side: side)
    }

    private func appendLongRead(_ c: Connection, side: Int, value: UnsafeRawBufferPointer, event e: inout ATTEvent) {
        guard var long = c.longRead[side], long.handle == e.handle else {
            push(.att(e))
            return
        }
        e.partial = true
        if long.value.count + value.count > maximumAttributeLength {
            diagnose(
                "att", "att.value_too_long",
                "a long read of handle 0x\(String(long.handle, radix: 16)) passed the 512-byte ATT maximum", connection: c.id)
        } else {
            long.value.append(contentsOf: value)
        }
        long.parts += 1
        c.longRead[side] = long
        push(.att(e))
        if value.count < Int(c.mtu) - 1 { completeLongRead(c, side: side) }
    }

    /// Emits the reassembled value of a long read that had more than one part.
    func completeLongRead(_ c: Connection, side: Int) {
        guard let long = c.longRead[side] else { return }
        c.longRead[side] = nil
        guard long.parts >= 2 else { return }
        var e = ATTEvent(
            connection: c.id, peer: c.peer, direction: side == 0 ? .received : .sent, opcode: ATTOpcode.readBlobResponse)
        e.kind = .readLong
        e.localServer = side == 1
        e.handle = long.handle
        e.value = long.value
        e.requestFrame = long.firstFrame
        e.attribute = resolve(c, side: side, long.handle)
        push(.att(e))
    }

    private func emitPreparedWrites(_ c: Connection, side: Int, direction: Direction) {
        var order: [UInt16] = []
        var values: [UInt16: [UInt8]] = [:]
        for part in c.preparedWrites[side] {
            if values[part.handle] == nil { order.append(part.handle) }
            var value = values[part.handle, default: []]
            let end = Int(part.offset) + part.value.count
            guard end <= maximumAttributeLength else {
                diagnose("att", "att.value_too_long", "a prepared write passes the 512-byte ATT maximum", connection: c.id)
                continue
            }
            if value.count < end { value.append(contentsOf: repeatElement(0, count: end - value.count)) }
            value.replaceSubrange(Int(part.offset)..<end, with: part.value)
            values[part.handle] = value
        }
        for handle in order {
            var e = ATTEvent(
                connection: c.id, peer: c.peer, direction: side == 0 ? .sent : .received,
                opcode: ATTOpcode.executeWriteRequest)
            e.kind = .writeLong
            e.localServer = side == 1
            e.handle = handle
            e.value = values[handle]
            e.attribute = resolve(c, side: side, handle)
            push(.att(e))
        }
    }

    /// Decides a connection's held reads as complete values (at disconnection, end, or timeout).
    func releaseHolds(_ c: Connection) {
        for side in 0..<2 {
            if let held = c.heldRead[side] {
                decideHeld(at: held, partial: false)
                c.heldRead[side] = nil
                if c.longRead[side]?.parts == 1 { c.longRead[side] = nil }
            }
        }
    }
}
