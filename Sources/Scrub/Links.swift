import BluetoothPackets
import ByteReading
import CaptureModel

/// An ATT request waiting for its response: what the response's values belong to.
struct PendingATTRequest {
    var opcode: UInt8
    /// The record that completed the request: a long value's parts are planned by it.
    var frame: Int
    var handle: UInt16?
    var handles: [UInt16] = []
    /// Read By Type: the attribute type asked for.
    var type: BluetoothUUID?
}

/// One connection, over HCI or on air: its peer and what is in flight each way.
final class LinkState {
    /// The peer, as the tracker knows it (from the connection's set-up; nil mid-connection).
    let peer: BluetoothAddress?
    /// L2CAP frames being collected: 0 host to controller (central to peripheral on air), 1 the other way.
    var units: [Unit?] = [nil, nil]
    /// ATT requests waiting: 0 where the peer is the server, 1 where we are.
    var requests: [PendingATTRequest?] = [nil, nil]

    init(peer: BluetoothAddress?) { self.peer = peer }
}

extension Rewriter {
    func acl(_ r: inout ByteReader, _ pending: PendingRecord, adapter: UInt16, direction: Direction) {
        guard let header = try? ACLHeader(parsing: &r) else { return }
        let key = UInt32(adapter) << 16 | UInt32(header.handle)
        let link: LinkState
        if let known = hciLinks[key] {
            link = known
        } else {
            // A capture that starts mid-connection: followed without its peer, as the tracker does.
            link = LinkState(peer: nil)
            if hciLinks.count < Self.maximumLinks { hciLinks[key] = link }
        }
        fragment(header.data, pending, link: link, direction: direction, start: !header.isContinuation)
    }

    /// One fragment of an L2CAP frame (an ACL packet, a link-layer data PDU), joined as the tracker
    /// joins them. Returns the unit it went into, when the frame is not complete in this record.
    @discardableResult
    func fragment(
        _ data: ByteReader, _ pending: PendingRecord, link: LinkState, direction: Direction, start: Bool,
        sidesGuessed: Bool = false
    ) -> Unit?
    {
        let side = direction == .received ? 1 : 0
        if start {
            if let open = link.units[side] {
                link.units[side] = nil
                if !context.learning { context.statistics.incompleteUnits += 1 }
                open.finish { r, out in frame(r, &out, link: link, direction: direction, tracked: false) }
            }
            var peek = data
            let length = data.remaining >= 4 ? (try? peek.u16le()).map(Int.init) : nil
            if let length, data.remaining >= 4 + length {
                // The whole frame (the common case), or more: the rest is not part of it.
                var copy = data
                if let frameBytes = try? copy.sub(4 + length) {
                    frame(frameBytes, &pending.record.payload, link: link, direction: direction, tracked: true)
                }
                return nil
            }
            let unit = Unit(startFrame: context.frame)
            if let length { unit.expected = 4 + length }
            link.units[side] = unit
        }
        var collecting = side
        if sidesGuessed, !start, link.units[side] == nil, link.units[1 - side] != nil {
            // A continuation with nothing started on its side: on air the sides are guessed from
            // timing, and a late fragment is taken for the other side's. The tracker drops it;
            // here it joins the frame that is open, so that what it carries (a public key, say) is
            // still rewritten. That frame is no longer the tracker's.
            collecting = 1 - side
            link.units[collecting]?.tracked = false
        }
        guard let unit = link.units[collecting] else { return nil }
        unit.add(pending, offset: data.offset, count: data.remaining)
        if unit.expected == 0, unit.bytes.count >= 2 { unit.expected = 4 + (Int(unit.bytes[0]) | Int(unit.bytes[1]) << 8) }
        if unit.bytes.count > 65_539 {
            link.units[collecting] = nil
            if !context.learning { context.statistics.incompleteUnits += 1 }
            unit.finish { r, out in frame(r, &out, link: link, direction: direction, tracked: false) }
            return nil
        }
        guard unit.expected > 0, unit.bytes.count >= unit.expected else { return unit }
        link.units[collecting] = nil
        let expected = unit.expected
        let tracked = unit.tracked
        let frameDirection: Direction = collecting == 1 ? .received : .sent
        unit.finish { r, out in
            var whole = r
            if let frameBytes = try? whole.sub(expected) {
                frame(frameBytes, &out, link: link, direction: frameDirection, tracked: tracked)
            }
        }
        return unit
    }

    /// A complete (or, untracked, a partial) L2CAP basic frame: SMP and ATT are rewritten.
    /// `tracked`: the tracker processes this frame too, so ATT transactions move on.
    func frame(_ r: ByteReader, _ out: inout [UInt8], link: LinkState?, direction: Direction, tracked: Bool) {
        var r = r
        guard (try? r.u16le()) != nil, let channel = try? r.u16le() else { return }
        switch channel {
        case L2CAPChannel.securityManager, 0x0007:  // LE and BR/EDR Security Manager
            securityManager(&r, &out)
        case L2CAPChannel.attribute:
            attribute(&r, &out, link: link, direction: direction, tracked: tracked)
        default:
            break
        }
    }

    /// SMP (Core v5.4, Vol 3, Part H, §3.5–3.6): every value that could rebuild a key is zeroed;
    /// the identity address is mapped.
    private func securityManager(_ r: inout ByteReader, _ out: inout [UInt8]) {
        guard let code = try? r.u8() else { return }
        switch code {
        case 0x03, 0x04:  // Pairing Confirm, Pairing Random
            context.zero(&r, 16, &out)
        case 0x06:  // Encryption Information: the LTK
            context.zero(&r, 16, &out)
        case 0x07:  // Central Identification: EDIV, Rand
            context.zero(&r, 2, &out)
            context.zero(&r, 8, &out)
        case 0x08:  // Identity Information: the IRK
            context.zero(&r, 16, &out)
        case 0x09:  // Identity Address Information: type, address
            _ = try? r.skip(1)
            _ = try? context.address(&r, &out)
        case 0x0A:  // Signing Information: the CSRK
            context.zero(&r, 16, &out)
        case 0x0C:  // Pairing Public Key: X, Y
            context.zero(&r, 64, &out)
        case 0x0D:  // Pairing DHKey Check
            context.zero(&r, 16, &out)
        default:
            break
        }
    }
}
