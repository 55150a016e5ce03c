import BluetoothPackets
import ByteReading
import CaptureModel

/// What happens to an attribute value: blanked (`--values`) or, for a Device Name, renamed.
enum ValueRule {
    case blank
    case name
}

extension Rewriter {
    /// ATT (Core v5.4, Vol 3, Part F, §3.4): values of blanked characteristics are zeroed, Device
    /// Name values renamed. Which handle is which comes from the tracker's resolution in the first
    /// pass; responses take their handle from the request they answer, as the tracker pairs them.
    func attribute(_ r: inout ByteReader, _ out: inout [UInt8], link: LinkState?, direction: Direction, tracked: Bool) {
        guard let opcode = try? r.u8() else { return }
        let side = (direction == .received) == ATTOpcode.isFromServer(opcode) ? 0 : 1
        let peer = link?.peer
        func rule(_ handle: UInt16) -> ValueRule? {
            context.facts.rule(peer: peer, localServer: side == 1, handle: handle)
        }
        func request(_ made: PendingATTRequest) {
            if tracked { link?.requests[side] = made }
        }
        func response() -> PendingATTRequest? {
            guard let link else { return nil }
            let answered = link.requests[side]
            if tracked { link.requests[side] = nil }
            return answered
        }
        switch opcode {
        case 0x1B, 0x1D, 0x12, 0x52:  // notification, indication, write request, write command
            guard let handle = try? r.u16le() else { return }
            if opcode == 0x12 { request(PendingATTRequest(opcode: opcode, frame: context.frame, handle: handle)) }
            if let rule = rule(handle) { value(rule, &r, r.remaining, &out) }
        case 0xD2:  // signed write command: the 12-byte signature stays
            guard let handle = try? r.u16le(), let rule = rule(handle) else { return }
            value(rule, &r, max(r.remaining - 12, 0), &out)
        case 0x16, 0x17:  // prepare write request and response
            if opcode == 0x17 { _ = response() }
            guard let handle = try? r.u16le(), (try? r.skip(2)) != nil else { return }
            if opcode == 0x16 { request(PendingATTRequest(opcode: opcode, frame: context.frame, handle: handle)) }
            if let rule = rule(handle) { value(rule, &r, r.remaining, &out) }
        case 0x0A, 0x0C:  // read request, read blob request
            guard let handle = try? r.u16le() else { return }
            request(PendingATTRequest(opcode: opcode, frame: context.frame, handle: handle))
        case 0x08:  // read by type request: the type decides for every value the response lists
            guard (try? r.skip(4)) != nil else { return }
            let type = try? BluetoothUUID(reading: &r, size: r.remaining)
            request(PendingATTRequest(opcode: opcode, frame: context.frame, type: type))
        case 0x0E, 0x20:  // read multiple (variable) request
            var handles: [UInt16] = []
            while handles.count < 256, let handle = try? r.u16le() { handles.append(handle) }
            request(PendingATTRequest(opcode: opcode, frame: context.frame, handles: handles))
        case 0x02, 0x04, 0x06, 0x10, 0x18:  // other requests: their responses hold no values
            request(PendingATTRequest(opcode: opcode, frame: context.frame))
        case 0x0B, 0x0D:  // read response, read blob response
            guard let answered = response(), let handle = answered.handle, let rule = rule(handle) else { return }
            value(rule, &r, r.remaining, &out, plan: answered.frame)
        case 0x09:  // read by type response: length, then handle and value per entry
            let answered = response()
            guard let length = try? r.u8(), length >= 2 else { return }
            let byType = answered?.type.flatMap { context.facts.rule(type: $0) }
            while r.remaining >= 2, let handle = try? r.u16le() {
                let count = min(Int(length) - 2, r.remaining)
                if let rule = byType ?? rule(handle) {
                    value(rule, &r, count, &out)
                } else {
                    _ = try? r.skip(count)
                }
            }
        case 0x0F:  // read multiple response: values run together, so one blanked value blanks all
            guard let answered = response(), answered.handles.contains(where: { rule($0) != nil }) else { return }
            context.blank(&r, r.remaining, &out)
        case 0x21:  // read multiple variable response: length and value for each handle asked for
            let handles = response()?.handles ?? []
            var index = 0
            while let length = try? r.u16le() {
                let count = min(Int(length), r.remaining)
                if index < handles.count, let rule = rule(handles[index]) {
                    value(rule, &r, count, &out)
                } else {
                    _ = try? r.skip(count)
                }
                index += 1
            }
        case 0x23:  // multiple handle value notification: handle, length, value
            while let handle = try? r.u16le(), let length = try? r.u16le() {
                let count = min(Int(length), r.remaining)
                if let rule = rule(handle) { value(rule, &r, count, &out) } else { _ = try? r.skip(count) }
            }
        case 0x01, 0x03, 0x05, 0x07, 0x11, 0x13, 0x19:  // other responses end their transaction
            _ = response()
        default:
            break
        }
    }

    /// Applies a value rule to the next `count` bytes. A part of a long Device Name has its bytes
    /// planned in the first pass (`plan`: the frame of the request it answers).
    private func value(_ rule: ValueRule, _ r: inout ByteReader, _ count: Int, _ out: inout [UInt8], plan: Int? = nil) {
        switch rule {
        case .blank:
            context.blank(&r, count, &out)
        case .name:
            // In the first pass the tracker's events say which values are names, joined whole.
            if context.learning {
                _ = try? r.skip(min(count, r.remaining))
            } else if let plan, let planned = context.facts.namePlans[plan] {
                let start = r.offset
                let n = min(count, r.remaining)
                _ = try? r.skip(n)
                context.write(Array(planned.prefix(n)), at: start, &out)
            } else {
                context.name(&r, count, &out)
            }
        }
    }
}
