import BluetoothPackets
import ByteReading
import CaptureModel

/// Reads: Read, Read Blob, Read Multiple (fixed and variable) and their responses, and long
/// values reassembled from a Read Response and the Read Blobs that continue it. A long read is
/// followed per bearer: its parts are limited by that bearer's MTU.
extension Tracker {
    @inline(__always)
    func readRequest(_ x: ATTContext, _ handle: UInt16, _ e: inout ATTEvent) {
        expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, handle: handle))
        e.handle = handle
        e.attribute = resolve(x, handle)
        push(moving: &e)
    }

    @inline(__always)
    func readBlobRequest(_ x: ATTContext, _ handle: UInt16, offset: UInt16, _ e: inout ATTEvent) {
        let b = x.bearer
        expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, handle: handle, offset: offset))
        if offset == 0, b.longRead[x.side] == nil {
            b.longRead[x.side] = LongRead(handle: handle, value: [], firstFrame: frame, parts: 0)
        }
        e.handle = handle
        e.offset = offset
        e.attribute = resolve(x, handle)
        push(moving: &e)
    }

    /// Read Multiple and Read Multiple Variable Requests.
    @inline(__always)
    func readMultipleRequest(_ x: ATTContext, _ handles: [UInt16], _ e: inout ATTEvent) {
        expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, handles: handles))
        e.handles = handles
        push(moving: &e)
    }

    /// Read, Read Blob and Read Multiple Responses.
    @inline(__always)
    func readResponse(_ x: ATTContext, _ value: UnsafeRawBufferPointer, _ e: inout ATTEvent) {
        let b = x.bearer
        let side = x.side
        let request = takeRequest(x)
        e.requestFrame = request?.frame
        e.value = [UInt8](value)
        if x.opcode == ATTOpcode.readMultipleResponse {
            e.handles = request?.handles
            push(moving: &e)
            return
        }
        e.handle = request?.handle
        if let handle = e.handle { e.attribute = resolve(x, handle) }
        if x.opcode == ATTOpcode.readResponse {
            let mayContinue = e.handle != nil && value.count == Int(b.mtu) - 1
            if mayContinue, let handle = e.handle {
                // A full Read Response may be the first part of a long value: hold it until the
                // next request shows whether a Read Blob continues it.
                b.heldRead[side] = nextOutboxIndex
                b.longRead[side] = LongRead(
                    handle: handle, value: [UInt8](value), firstFrame: request?.frame ?? frame, parts: 1)
            }
            push(moving: &e, held: mayContinue)
        } else {
            e.offset = request?.offset
            appendLongRead(x, value: value, event: &e)
        }
    }

    /// Read Multiple Variable Response: one event per value, with the handle asked for in its place.
    @inline(__always)
    func readMultipleVariableResponse(_ x: ATTContext, _ values: [UnsafeRawBufferPointer], _ e: inout ATTEvent) {
        let request = takeRequest(x)
        let handles = request?.handles ?? []
        for (index, value) in values.enumerated() {
            var one = e
            one.requestFrame = request?.frame
            one.handle = index < handles.count ? handles[index] : nil
            one.value = [UInt8](value)
            if let handle = one.handle { one.attribute = resolve(x, handle) }
            push(moving: &one)
        }
        if values.isEmpty { push(moving: &e) }
    }

    // MARK: Long values

    /// A client PDU arrives: it decides a held Read Response and may end a long read.
    @inline(__always)
    func clientPDUArrives(_ x: ATTContext, pdu: ATTPDU) {
        let b = x.bearer
        let side = x.side
        let opcode = x.opcode
        var continues = false
        if opcode == ATTOpcode.readBlobRequest, case .handleOffset(let handle, let offset) = pdu,
            let long = b.longRead[side], long.handle == handle, Int(offset) == long.value.count
        {
            continues = true
        }
        // Commands and confirmations are outside request/response: they may come between a Read
        // Response and the Read Blob that continues it, so they decide nothing.
        let outsideTransactions =
            opcode == ATTOpcode.handleValueConfirmation || opcode == ATTOpcode.writeCommand
            || opcode == ATTOpcode.signedWriteCommand
        if !outsideTransactions, let held = b.heldRead[side] {
            decideHeld(at: held, partial: continues)
            b.heldRead[side] = nil
        }
        guard !continues, !outsideTransactions else { return }
        completeLongRead(x.connection, b, side: side)
    }

    private func appendLongRead(_ x: ATTContext, value: UnsafeRawBufferPointer, event e: inout ATTEvent) {
        let b = x.bearer
        let side = x.side
        guard var long = b.longRead[side], long.handle == e.handle else {
            push(moving: &e)
            return
        }
        e.partial = true
        if long.value.count + value.count > maximumAttributeLength {
            diagnose(
                "att", "att.value_too_long",
                "a long read of handle 0x\(String(long.handle, radix: 16)) passed the 512-byte ATT maximum",
                connection: x.connection.id)
        } else {
            long.value.append(contentsOf: value)
        }
        long.parts += 1
        b.longRead[side] = long
        push(moving: &e)
        if value.count < Int(b.mtu) - 1 { completeLongRead(x.connection, b, side: side) }
    }

    /// Emits the reassembled value of a long read that had more than one part.
    func completeLongRead(_ c: Connection, _ b: ATTBearer, side: Int) {
        guard let long = b.longRead[side] else { return }
        b.longRead[side] = nil
        guard long.parts >= 2 else { return }
        var e = b.event(c, direction: side == 0 ? .received : .sent, opcode: ATTOpcode.readBlobResponse)
        e.kind = .readLong
        e.localServer = side == 1
        e.handle = long.handle
        e.value = long.value
        e.requestFrame = long.firstFrame
        e.attribute = resolve(c, side: side, long.handle)
        push(moving: &e)
    }

    /// Decides a connection's held reads, on every bearer, as complete values (at disconnection,
    /// end, or timeout).
    func releaseHolds(_ c: Connection) {
        releaseHolds(c.fixedBearer)
        for channel in c.channels {
            if let bearer = channel.bearer { releaseHolds(bearer) }
        }
    }

    func releaseHolds(_ b: ATTBearer) {
        for side in 0..<2 {
            if let held = b.heldRead[side] {
                decideHeld(at: held, partial: false)
                b.heldRead[side] = nil
                if b.longRead[side]?.parts == 1 { b.longRead[side] = nil }
            }
        }
    }
}
