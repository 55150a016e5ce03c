import BluetoothPackets
import ByteReading
import CaptureModel

extension Tracker {
    /// Dispatches one complete L2CAP frame by channel: the fixed channels, then the dynamic
    /// channels whose opening was seen; a frame on any other CID becomes an `l2cap` event.
    func dispatchL2CAP(_ r: inout ByteReader, connection: Connection, direction: Direction) {
        let channel: UInt16
        do {
            _ = try r.u16le("l2cap.length")
            channel = try r.u16le("l2cap.cid")
        } catch {
            diagnose("l2cap", "l2cap.short_frame", error, connection: connection.id)
            return
        }
        switch channel {
        case L2CAPChannel.attribute:
            handleATT(&r, connection: connection, bearer: connection.fixedBearer, direction: direction)
        case L2CAPChannel.leSignaling, L2CAPChannel.signaling:
            handleSignaling(&r, connection: connection, direction: direction)
        case L2CAPChannel.securityManager:
            handleSMP(&r, connection: connection, direction: direction)
        default:
            if !connection.channels.isEmpty, let dynamic = connection.channel(cid: channel, direction: direction) {
                handleChannelFrame(&r, connection: connection, channel: dynamic, direction: direction)
            } else {
                push(
                    .l2cap(
                        L2CAPData(connection: connection.id, direction: direction, channel: channel, data: [UInt8](r.unread))))
            }
        }
    }

    private func handleSMP(_ r: inout ByteReader, connection c: Connection, direction: Direction) {
        do {
            let code = try r.u8("smp.code")
            var event = SMPEvent(connection: c.id, direction: direction, code: code, op: SMP.name(code))
            switch code {
            case 0x01:
                c.pairingRequest = try SMP.PairingFeatures(parsing: &r)
                c.pairingInProgress = true
                c.pairingMethod = nil
            case 0x02:
                let response = try SMP.PairingFeatures(parsing: &r)
                if let request = c.pairingRequest {
                    c.pairingMethod = SMP.pairingMethod(initiator: request, responder: response)
                    c.pairingSecure = request.secureConnections && response.secureConnections
                    event.method = c.pairingMethod
                    event.secureConnections = c.pairingSecure
                }
            case 0x05:
                event.reason = try r.u8("smp.reason")
                event.method = c.pairingMethod
                c.pairingInProgress = false
            default:
                break
            }
            push(.smp(event))
        } catch {
            diagnose("smp", "smp.malformed", error, connection: c.id)
        }
    }

    /// After an Encryption Change: the pairing that led to it has succeeded.
    func pairingFinished(_ connection: Connection?, encrypted: Bool) {
        guard let c = connection, c.pairingInProgress else { return }
        c.pairingInProgress = false
        guard encrypted else { return }
        push(
            .smp(
                SMPEvent(
                    connection: c.id, direction: .unknown, code: 0, op: "paired", method: c.pairingMethod,
                    secureConnections: c.pairingSecure)))
    }
}
