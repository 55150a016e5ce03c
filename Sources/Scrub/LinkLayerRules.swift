import BluetoothPackets
import ByteReading
import CaptureModel

/// A connection followed on air, found by its access address, with what the tracker keeps to
/// follow it: which side sent what, retransmissions, encryption.
final class AirLink {
    let link: LinkState
    let crcInit: UInt32?
    /// Who sent each PDU, and which are retransmissions.
    var turns = LinkLayerTurns()
    /// The tracker's view: LL_START_ENC_RSP seen in the clear.
    var encrypted = false
    /// LL_START_ENC_REQ seen in the clear: every PDU after it is encrypted.
    var startEncryptionSeen = false
    /// The last PDU each way, to rewrite a retransmission of it the same way.
    var last: [(record: PendingRecord, offset: Int, count: Int, unit: Unit?, unitOffset: Int)?] = [nil, nil]

    init(link: LinkState, crcInit: UInt32?) {
        self.link = link
        self.crcInit = crcInit
    }
}

extension Rewriter {
    /// The CRC initial value on advertising channels (Core v5.4, Vol 6, Part B, §3.1.1).
    static let advertisingCRCInit: UInt32 = 0x55_5555

    /// An air-sniffer packet: advertising PDUs have their addresses and data rewritten, data PDUs
    /// their L2CAP frames (joined as the tracker joins them) and encryption set-up values. The CRC
    /// is brought in line with the new bytes when the record is written out.
    func linkLayer(_ r: inout ByteReader, _ pending: PendingRecord, _ record: CaptureRecord) {
        let packet: LinkLayerPacket
        do {
            packet = try LinkLayerPacket(linkType: record.linkType.rawValue, parsing: &r)
        } catch {
            damagedPDU(record, pending, error)
            return
        }
        guard let base = record.payload.baseAddress, let pduBase = packet.pdu.baseAddress else { return }
        let start = pduBase - base
        pending.pdu = start..<start + packet.pdu.count
        if packet.crc != nil { pending.crcOffset = start + packet.pdu.count }
        var crcValid = packet.metadata.crcValid
        if crcValid == nil {
            let initial = packet.isAdvertising ? Self.advertisingCRCInit : airLinks[packet.accessAddress]?.crcInit
            crcValid = initial.flatMap { packet.crcMatches(initial: $0) }
        }
        // The tracker skips packets with a bad CRC: they are rewritten on their own, and change nothing.
        let tracked = crcValid != false && packet.metadata.micValid != false
        if packet.isAdvertising {
            advertisingPDU(packet, pending, tracked: tracked)
        } else if packet.metadata.micValid == false {
            leaveEncrypted(pending)
        } else {
            dataPDU(packet, pending, timestamp: record.timestamp, tracked: tracked)
        }
    }

    /// A PDU whose length field claims more bytes than there are (a crafted or damaged packet).
    /// The tracker drops it; Wireshark still shows what is there, so it is rewritten as far as it
    /// goes: read with the length cut to the bytes present, nothing followed, the CRC left.
    private func damagedPDU(_ record: CaptureRecord, _ pending: PendingRecord, _ error: DecodeError) {
        guard error.field == "ll.payload", error.offset >= 2 else { return }
        let available = max(record.payload.count - error.offset - 3, 0)
        // The length byte is just before the payload, or before the CTEInfo byte.
        for lengthAt in [error.offset - 1, error.offset - 2] {
            var patched = [UInt8](record.payload)
            patched[lengthAt] = UInt8(min(available, 255))
            let done = patched.withUnsafeBytes { bytes -> Bool in
                var r = ByteReader(bytes)
                guard let packet = try? LinkLayerPacket(linkType: record.linkType.rawValue, parsing: &r) else { return false }
                if packet.isAdvertising {
                    advertisingPDU(packet, pending, tracked: false)
                } else if packet.length > 0, !isEncrypted(packet, airLinks[packet.accessAddress]) {
                    standalone(packet, pending, link: airLinks[packet.accessAddress]?.link)
                }
                return true
            }
            if done { return }
        }
    }

    private func leaveEncrypted(_ pending: PendingRecord) {
        pending.leftAsIs = true
        if !context.learning { context.statistics.encryptedPDUsLeft += 1 }
    }

    /// Advertising-channel PDUs (§2.3): AdvA, ScanA, InitA, TargetA, advertising data.
    private func advertisingPDU(_ packet: LinkLayerPacket, _ pending: PendingRecord, tracked: Bool) {
        var p = packet.payload
        switch packet.header0 & 0x0F {
        case 0, 2, 4, 6:  // ADV_IND, ADV_NONCONN_IND, SCAN_RSP, ADV_SCAN_IND: AdvA, data
            guard (try? context.address(&p, &pending.record.payload)) != nil else { return }
            context.advertisingData(p, &pending.record.payload)
        case 1, 3:  // ADV_DIRECT_IND: AdvA, TargetA; SCAN_REQ: ScanA, AdvA
            _ = try? context.address(&p, &pending.record.payload)
            _ = try? context.address(&p, &pending.record.payload)
        case 5:  // CONNECT_IND: InitA, AdvA, then the link-layer data that opens the connection
            _ = try? context.address(&p, &pending.record.payload)
            guard let advertiser = try? context.address(&p, &pending.record.payload), tracked,
                let accessAddress = try? p.u32le(), let crcInit = try? p.u24le()
            else { return }
            if let stale = airLinks[accessAddress] { abandon(stale.link) }
            guard airLinks[accessAddress] != nil || airLinks.count < Self.maximumLinks else { return }
            airLinks[accessAddress] = AirLink(link: LinkState(peer: advertiser), crcInit: crcInit)
        case 7, 8:  // extended advertising PDUs, AUX_CONNECT_RSP: the extended header
            guard let first = try? p.u8(), var header = try? p.sub(Int(first & 0x3F)), let flags = try? header.u8()
            else { return }
            if flags & 0x01 != 0 { _ = try? context.address(&header, &pending.record.payload) }
            if flags & 0x02 != 0 { _ = try? context.address(&header, &pending.record.payload) }
            // As the tracker reads it: advertising data only in a well-formed PDU naming its advertiser.
            var check = packet.payload
            if packet.header0 & 0x0F == 7, let parsed = try? ExtendedAdvertisingHeader(parsing: &check),
                parsed.advertiser != nil, !parsed.data.isEmpty
            {
                context.advertisingData(p, &pending.record.payload)
            }
        default:
            break
        }
    }

    /// Data-channel PDUs (§2.4), followed per access address as the tracker follows them.
    private func dataPDU(_ packet: LinkLayerPacket, _ pending: PendingRecord, timestamp: Int64, tracked: Bool) {
        guard tracked else {
            // Not part of the tracker's stream: rewritten on its own, nothing followed.
            if packet.length > 0, !isEncrypted(packet, airLinks[packet.accessAddress]) {
                standalone(packet, pending, link: airLinks[packet.accessAddress]?.link)
            }
            return
        }
        let air: AirLink
        if let known = airLinks[packet.accessAddress] {
            air = known
        } else {
            air = AirLink(link: LinkState(peer: nil), crcInit: nil)
            if airLinks.count < Self.maximumLinks { airLinks[packet.accessAddress] = air }
        }
        let (fromCentral, retransmitted) = air.turns.observe(packet, at: timestamp)
        let side = fromCentral ? 0 : 1
        let direction: Direction = fromCentral ? .sent : .received
        if packet.length == 0 { return }
        if isEncrypted(packet, air) {
            leaveEncrypted(pending)
            return
        }
        let payload = packet.payload
        if retransmitted, let last = air.last[side], last.count == payload.remaining {
            // The same bytes again: the same rewrite.
            if let unit = last.unit, air.link.units.contains(where: { $0 === unit }) {
                unit.mirror(pending, offset: payload.offset, count: last.count, unitOffset: last.unitOffset)
            } else {
                for i in 0..<last.count {
                    pending.record.payload[payload.offset + i] = last.record.record.payload[last.offset + i]
                }
            }
            air.last[side] = (pending, payload.offset, last.count, last.unit, last.unitOffset)
            return
        }
        var unit: Unit?
        switch packet.header0 & 0x03 {
        case 3:
            let opcode = payload.unread.first
            control(payload, pending)
            if opcode == LLControl.startEncryptionRequest { air.startEncryptionSeen = true }
            if opcode == LLControl.startEncryptionResponse { air.encrypted = true }
            if opcode == LLControl.pauseEncryptionResponse {
                air.encrypted = false
                air.startEncryptionSeen = false
            }
            if opcode == LLControl.terminateIndication {
                abandon(air.link)
                airLinks[packet.accessAddress] = nil
            }
        case 2, 1:
            unit = fragment(
                payload, pending, link: air.link, direction: direction, start: packet.header0 & 0x03 == 2,
                sidesGuessed: packet.metadata.fromCentral == nil)
            air.last[side] = (pending, payload.offset, payload.remaining, unit, unit?.lastPiece?.unitOffset ?? 0)
            return
        default:
            break
        }
        air.last[side] = (pending, payload.offset, payload.remaining, unit, 0)
    }

    /// Encrypted on air and not decrypted by the sniffer: as the nRF Sniffer flags say, or after
    /// encryption started in the clear.
    private func isEncrypted(_ packet: LinkLayerPacket, _ air: AirLink?) -> Bool {
        if let flagged = packet.metadata.encrypted { return flagged && packet.metadata.micValid != true }
        guard let air, air.encrypted || air.startEncryptionSeen else { return false }
        return packet.metadata.decrypted != true
    }

    /// LL control PDUs (§2.4.2): LL_ENC_REQ and LL_ENC_RSP carry Rand, EDIV and the session key
    /// diversifiers and IVs, from which (with the LTK) the session key is derived.
    private func control(_ payload: ByteReader, _ pending: PendingRecord) {
        var p = payload
        guard let opcode = try? p.u8() else { return }
        switch opcode {
        case LLControl.encryptionRequest:  // Rand, EDIV, SKDm, IVm
            context.zero(&p, 8, &pending.record.payload)
            context.zero(&p, 2, &pending.record.payload)
            context.zero(&p, 8, &pending.record.payload)
            context.zero(&p, 4, &pending.record.payload)
        case 0x04:  // LL_ENC_RSP: SKDs, IVs
            context.zero(&p, 8, &pending.record.payload)
            context.zero(&p, 4, &pending.record.payload)
        default:
            break
        }
    }

    /// A data PDU the tracker skips (bad CRC): its control values and a whole L2CAP frame in it
    /// are rewritten, with no state moved.
    private func standalone(_ packet: LinkLayerPacket, _ pending: PendingRecord, link: LinkState?) {
        switch packet.header0 & 0x03 {
        case 3: control(packet.payload, pending)
        case 2: frame(packet.payload, &pending.record.payload, link: link, direction: .unknown, tracked: false)
        default: break
        }
    }
}

/// Keeps a link-layer CRC right after the PDU it covers was rewritten. The CRC is linear over
/// GF(2): CRC(init, new) = CRC(init, old) ⊕ CRC(0, old ⊕ new). So the stored CRC is adjusted by
/// the CRC of the difference: one that matched its PDU matches the rewritten PDU, and one that did
/// not still does not, whatever initial value (advertising 0x555555, a connection's CRCInit) it
/// was computed with.
enum LinkLayerCRCUpdate {
    /// Returns whether the CRC changed; nil when there is no room for it.
    static func apply(pdu: Range<Int>, crc: Int, original: [UInt8], _ bytes: inout [UInt8]) -> Bool? {
        guard crc + 3 <= bytes.count, pdu.upperBound <= bytes.count else { return nil }
        var difference = [UInt8](repeating: 0, count: pdu.count)
        var changed = false
        for i in pdu where original[i] != bytes[i] {
            difference[i - pdu.lowerBound] = original[i] ^ bytes[i]
            changed = true
        }
        guard changed else { return false }
        let state = difference.withUnsafeBytes { LinkLayerCRC.compute($0, initial: 0) }
        let adjustment = reversed24(state)
        for i in 0..<3 { bytes[crc + i] ^= UInt8(truncatingIfNeeded: adjustment >> UInt32(8 * i)) }
        return true
    }

    /// The stored CRC is the register's bits in the order sent (§3.1.1).
    static func reversed24(_ value: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for i in 0..<24 where value & (1 << UInt32(i)) != 0 { out |= 1 << UInt32(23 - i) }
        return out
    }
}
