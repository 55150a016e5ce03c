import BluetoothPackets
import CaptureModel

/// Writes: Write Request and Command, Signed Write, Prepare/Execute Write (a long value put
/// together from its parts) and the responses.
extension Tracker {
    /// Write Request and Write Command.
    @inline(__always)
    func write(_ x: ATTContext, _ handle: UInt16, _ value: UnsafeRawBufferPointer, _ e: inout ATTEvent) {
        e.handle = handle
        e.value = [UInt8](value)
        e.attribute = resolve(x, handle)
        if x.opcode == ATTOpcode.writeRequest {
            expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, handle: handle))
        }
        push(moving: &e)
    }

    @inline(__always)
    func signedWrite(_ x: ATTContext, _ handle: UInt16, _ value: UnsafeRawBufferPointer, _ e: inout ATTEvent) {
        e.handle = handle
        e.value = [UInt8](value)
        e.attribute = resolve(x, handle)
        push(moving: &e)
    }

    /// Prepare Write Request and Response: each a part of a long value.
    @inline(__always)
    func prepareWrite(
        _ x: ATTContext, _ handle: UInt16, offset: UInt16, _ value: UnsafeRawBufferPointer, _ e: inout ATTEvent
    ) {
        let b = x.bearer
        e.handle = handle
        e.offset = offset
        e.value = [UInt8](value)
        e.partial = true
        e.attribute = resolve(x, handle)
        if x.opcode == ATTOpcode.prepareWriteRequest {
            expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, handle: handle, offset: offset))
            if b.preparedWrites[x.side].count < 256 {
                b.preparedWrites[x.side].append(PreparedWrite(handle: handle, offset: offset, value: [UInt8](value)))
            }
        } else {
            e.requestFrame = takeRequest(x)?.frame
        }
        push(moving: &e)
    }

    @inline(__always)
    func executeWriteRequest(_ x: ATTContext, flags: UInt8, _ e: inout ATTEvent) {
        expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame, executeFlags: flags))
        push(moving: &e)
    }

    /// Write Response and Execute Write Response; executing writes the queued parts as one value.
    @inline(__always)
    func writeResponse(_ x: ATTContext, _ e: inout ATTEvent) {
        let request = takeRequest(x)
        e.requestFrame = request?.frame
        e.handle = request?.handle
        if let handle = e.handle { e.attribute = resolve(x, handle) }
        push(moving: &e)
        if x.opcode == ATTOpcode.executeWriteResponse {
            if request?.executeFlags == 1 { emitPreparedWrites(x) }
            x.bearer.preparedWrites[x.side].removeAll()
        }
    }

    private func emitPreparedWrites(_ x: ATTContext) {
        let c = x.connection
        let b = x.bearer
        let side = x.side
        var order: [UInt16] = []
        var values: [UInt16: [UInt8]] = [:]
        for part in b.preparedWrites[side] {
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
            var e = b.event(c, direction: side == 0 ? .sent : .received, opcode: ATTOpcode.executeWriteRequest)
            e.kind = .writeLong
            e.localServer = side == 1
            e.handle = handle
            e.value = values[handle]
            e.attribute = resolve(c, side: side, handle)
            push(moving: &e)
        }
    }
}
