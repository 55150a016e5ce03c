import BluetoothPackets
import ByteReading
import CaptureModel

/// Frames on dynamic channels: B-frames carry one SDU each; K-frames of credit-based channels
/// carry SDUs in segments, the first starting with the SDU's 2-byte length (Core v5.4, Vol 3,
/// Part A, §3.4). Complete SDUs go to the channel's ATT bearer, or out as `l2cap` events.
extension Tracker {
    func handleChannelFrame(_ r: inout ByteReader, connection c: Connection, channel: DynamicChannel, direction: Direction) {
        switch channel.mode {
        case .basic:
            let index = Connection.directionIndex(direction)
            if r.remaining > Int(channel.mtu[index]) {
                diagnose(
                    "l2cap", "l2cap.sdu_too_long",
                    "a \(r.remaining)-byte frame on channel 0x\(hex4(channel.cid(direction))) exceeds its MTU \(channel.mtu[index])",
                    connection: c.id)
            }
            deliverSDU(&r, connection: c, channel: channel, direction: direction)
        case .retransmission:
            push(.l2cap(L2CAPData(connection: c.id, direction: direction, channel: channel.cid(direction), data: [UInt8](r.unread), psm: channel.psm)))
        case .credit:
            kFrame(&r, connection: c, channel: channel, direction: direction)
        }
    }

    private func kFrame(_ r: inout ByteReader, connection c: Connection, channel: DynamicChannel, direction: Direction) {
        let index = Connection.directionIndex(direction)
        let cid = channel.cid(direction)
        if channel.credits[index] > 0 {
            channel.credits[index] -= 1
        } else if !channel.reportedNoCredits[index] {
            channel.reportedNoCredits[index] = true
            diagnose(
                "l2cap", "l2cap.no_credits",
                "a K-frame on channel 0x\(hex4(cid)) after its sender had used every credit it was given", connection: c.id)
        }
        if channel.mps[index] > 0, r.remaining > Int(channel.mps[index]) {
            diagnose(
                "l2cap", "l2cap.kframe_too_long",
                "a \(r.remaining)-byte K-frame on channel 0x\(hex4(cid)) exceeds its MPS \(channel.mps[index])", connection: c.id)
        }
        // The rest of an SDU too long for the channel: skipped, as its receiver must.
        if channel.sdu[index].skipping > 0 {
            channel.sdu[index].skipping = max(0, channel.sdu[index].skipping - r.remaining)
            return
        }
        guard let expected = channel.sdu[index].expected else {
            firstKFrame(&r, connection: c, channel: channel, direction: direction)
            return
        }
        channel.sdu[index].buffer.append(contentsOf: r.unread)
        let collected = channel.sdu[index].buffer.count
        guard collected >= expected else { return }
        if collected > expected {
            diagnose(
                "l2cap", "l2cap.sdu_overrun",
                "K-frames on channel 0x\(hex4(cid)) carry \(collected) bytes for an SDU of \(expected): the rest is dropped",
                connection: c.id)
        }
        var buffer: [UInt8] = []
        swap(&buffer, &channel.sdu[index].buffer)
        channel.sdu[index].expected = nil
        buffer.withUnsafeBytes { bytes in
            var sdu = ByteReader(UnsafeRawBufferPointer(rebasing: bytes.prefix(expected)))
            deliverSDU(&sdu, connection: c, channel: channel, direction: direction)
        }
        buffer.removeAll(keepingCapacity: true)
        // Keep the buffer's storage for the next SDU, unless delivery opened a new one.
        if channel.sdu[index].expected == nil { channel.sdu[index].buffer = buffer }
    }

    /// The first K-frame of an SDU: its length, bounded by the receiver's MTU.
    private func firstKFrame(_ r: inout ByteReader, connection c: Connection, channel: DynamicChannel, direction: Direction) {
        let index = Connection.directionIndex(direction)
        let cid = channel.cid(direction)
        let length: Int
        do {
            length = Int(try r.u16le("l2cap.sdu_length"))
        } catch {
            diagnose("l2cap", "l2cap.short_kframe", error, connection: c.id)
            return
        }
        let mtu = Int(channel.mtu[index])
        if length > mtu {
            channel.sdu[index].skipping = max(0, length - r.remaining)
            diagnose(
                "l2cap", "l2cap.sdu_too_long",
                "an SDU of \(length) bytes on channel 0x\(hex4(cid)) exceeds its MTU \(mtu): skipped",
                offset: r.offset - 2, connection: c.id)
            return
        }
        if r.remaining >= length {
            if r.remaining > length {
                diagnose(
                    "l2cap", "l2cap.sdu_overrun",
                    "a K-frame on channel 0x\(hex4(cid)) carries \(r.remaining) bytes for an SDU of \(length): the rest is dropped",
                    connection: c.id)
            }
            guard var sdu = try? r.sub(length) else { return }
            deliverSDU(&sdu, connection: c, channel: channel, direction: direction)
            return
        }
        // Bounded by the MTU checked above (at most 65535).
        channel.sdu[index].buffer.reserveCapacity(length)
        channel.sdu[index].buffer.append(contentsOf: r.unread)
        channel.sdu[index].expected = length
        channel.sdu[index].startFrame = frame
    }

    private func deliverSDU(_ r: inout ByteReader, connection c: Connection, channel: DynamicChannel, direction: Direction) {
        if let bearer = channel.bearer {
            handleATT(&r, connection: c, bearer: bearer, direction: direction)
        } else {
            push(
                .l2cap(
                    L2CAPData(
                        connection: c.id, direction: direction, channel: channel.cid(direction), data: [UInt8](r.unread),
                        psm: channel.psm, sdu: channel.mode == .credit)))
        }
    }

    func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
