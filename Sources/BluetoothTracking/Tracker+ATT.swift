import BluetoothPackets
import ByteReading
import CaptureModel

/// The ATT maximum attribute value length (Core v5.4, Vol 3, Part F, §3.2.9).
let maximumAttributeLength = 512

/// What every ATT handler needs to know about the PDU it handles. The handlers are inlined into
/// `handleATT`, so that passing this costs nothing on the hot path.
struct ATTContext {
    let connection: Connection
    let bearer: ATTBearer
    /// 0 when the peer is the GATT server for this PDU, 1 when we are.
    let side: Int
    let opcode: UInt8
    let direction: Direction
}

extension Tracker {
    /// Processes one ATT PDU that came on `bearer`, and hands it to the handler of its family:
    /// MTU, errors, discovery, reads, writes, notifications and indications.
    func handleATT(_ r: inout ByteReader, connection c: Connection, bearer b: ATTBearer, direction: Direction) {
        guard let opcode = r.peekU8() else {
            diagnose("att", "att.empty_pdu", "an ATT PDU with no opcode", connection: c.id)
            return
        }
        _ = try? r.u8()
        let fromServer = ATTOpcode.isFromServer(opcode)
        // Sending a client PDU or receiving a server PDU: the peer is the server.
        let side = (direction == .received) == fromServer ? 0 : 1
        var e = b.event(c, direction: direction, opcode: opcode)
        e.localServer = side == 1
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(opcode: opcode, parsing: &r)
        } catch {
            diagnose("att", "att.malformed_pdu", error, connection: c.id)
            e.value = [UInt8](r.unread)
            push(moving: &e)
            return
        }
        let x = ATTContext(connection: c, bearer: b, side: side, opcode: opcode, direction: direction)
        if !fromServer { clientPDUArrives(x, pdu: pdu) }

        switch pdu {
        case .exchangeMTU(let mtu): exchangeMTU(x, mtu, &e)
        case .errorResponse(let requestOpcode, let handle, let code):
            errorResponse(x, request: requestOpcode, handle: handle, code: code, &e)

        case .handleRange(let start, let end): discoveryRequest(x, start...max(start, end), type: nil, &e)
        case .handleRangeWithType(let start, let end, let type): discoveryRequest(x, start...max(start, end), type: type, &e)
        case .findByTypeValueRequest(let start, let end, let type, let value):
            findByTypeValueRequest(x, start...max(start, end), type: type, value: value, &e)
        case .findInformationResponse(let entries): findInformationResponse(x, entries, &e)
        case .findByTypeValueResponse(let entries): findByTypeValueResponse(x, entries, &e)
        case .readByTypeResponse(let entries): readByTypeResponse(x, entries, &e)
        case .readByGroupTypeResponse(let entries): readByGroupTypeResponse(x, entries, &e)

        case .handle(let handle): readRequest(x, handle, &e)
        case .handleOffset(let handle, let offset): readBlobRequest(x, handle, offset: offset, &e)
        case .handles(let handles): readMultipleRequest(x, handles, &e)
        case .value(let value): readResponse(x, value, &e)
        case .values(let values): readMultipleVariableResponse(x, values, &e)

        case .handleValue(let handle, let value):
            if opcode == ATTOpcode.handleValueNotification || opcode == ATTOpcode.handleValueIndication {
                valueFromServer(x, handle, value, &e)
            } else {
                write(x, handle, value, &e)
            }
        case .multipleHandleValues(let entries): multipleNotification(x, entries, &e)
        case .signedWrite(let handle, let value, _): signedWrite(x, handle, value, &e)
        case .prepareWrite(let handle, let offset, let value): prepareWrite(x, handle, offset: offset, value, &e)
        case .executeWrite(let flags): executeWriteRequest(x, flags: flags, &e)
        case .empty:
            if opcode == ATTOpcode.handleValueConfirmation {
                confirmation(x, &e)
            } else {
                writeResponse(x, &e)
            }

        case .unknown(let bytes):
            e.value = [UInt8](bytes)
            push(moving: &e)
        }
    }

    /// Pushes a handler's event, moved out and the handler's left empty: pushing a copy
    /// retained and released what it holds (its value, its attribute), atomic operations each.
    @inline(__always)
    func push(moving e: inout ATTEvent, held: Bool = false) {
        var taken = ATTEvent(connection: 0, peer: nil, direction: .sent, opcode: 0)
        swap(&taken, &e)
        push(.att(consume taken), held: held)
    }

    // MARK: Transactions

    func expectResponse(_ x: ATTContext, _ request: PendingRequest) {
        let b = x.bearer
        if let earlier = b.pending[x.side] {
            diagnose(
                "att", "att.request_without_response",
                "\(ATTOpcode.name(earlier.opcode)) in frame \(earlier.frame) got no response before the next request",
                connection: x.connection.id)
        }
        b.pending[x.side] = request
    }

    /// The request a response answers, on the same bearer; a response with none is reported and
    /// still emitted.
    func takeRequest(_ x: ATTContext, errorFor: UInt8? = nil) -> PendingRequest? {
        let b = x.bearer
        let response = x.opcode
        guard let request = b.pending[x.side] else {
            diagnose(
                "att", "att.response_without_request",
                "\(ATTOpcode.name(response)) answers no request seen in this capture", connection: x.connection.id)
            return nil
        }
        b.pending[x.side] = nil
        let answers = errorFor.map { $0 == request.opcode } ?? (ATTOpcode.response(to: request.opcode) == response)
        if !answers {
            diagnose(
                "att", "att.unexpected_response",
                "\(ATTOpcode.name(response)) does not answer \(ATTOpcode.name(request.opcode)) from frame \(request.frame)",
                connection: x.connection.id)
        }
        return request
    }

    @inline(__always)
    func resolve(_ x: ATTContext, _ handle: UInt16) -> ResolvedAttribute? { resolve(x.connection, side: x.side, handle) }

    /// What a handle is, from this connection's discovery (on any of its bearers), an earlier
    /// connection, or the map.
    func resolve(_ c: Connection, side: Int, _ handle: UInt16) -> ResolvedAttribute? {
        var found = c.databases[side].resolve(remembering: handle, source: .discovery)
        let server = server(of: c, side: side)
        if found == nil, let server { found = cache[server]?.resolve(handle, source: .cache) }
        if found == nil, !options.gattMap.isEmpty {
            // A peer first seen mid-connection has no address; the map's entry for any device still applies.
            let map = if let server { options.gattMap.database(for: server) } else { options.gattMap.anyDevice }
            found = map?.resolve(handle, source: .map)
        }
        return found
    }
}
