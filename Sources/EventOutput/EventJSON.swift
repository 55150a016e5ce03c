import BluetoothPackets
import BluetoothTracking
import CaptureModel
import JSON

/// Writes events as JSON Lines, the stream's contract (DESIGN.md, "The event stream").
public enum EventJSON {
    /// `cache`: the JSON of adverts, HCI packets and ATT heads seen lately, for a stream of events (see
    /// `EventJSONCache`); the output is the same with it or without.
    public static func write(_ event: Event, to w: inout JSONWriter, cache: EventJSONCache? = nil) {
        w.beginObject()
        w.key("frame")
        w.int(event.frame)
        w.key("ts")
        w.timestamp(micros: event.timestamp)
        // The type is written from the switch on the body below: `event.type`, a switch of its
        // own, copied the body out first (two hundred bytes per event).
        switch event.body {
        case .advertisement(let adv):
            head(event, .adv, &w)
            writeAdvertisement(adv, &w, cache)
        case .connect(let c):
            head(event, .connect, &w)
            writeConnect(c, &w)
        case .disconnect(let d):
            head(event, .disconnect, &w)
            w.key("conn")
            w.int(d.connection)
            if let addr = d.address { address(addr, &w) }
            w.key("reason")
            w.int(d.reason)
            w.key("reason_name")
            w.string(HCINames.error(d.reason))
        case .att(let att):
            head(event, .att, &w)
            writeATT(att, &w, cache)
        case .mtu(let m):
            head(event, .mtu, &w)
            w.key("conn")
            w.int(m.connection)
            w.key("mtu")
            w.int(m.mtu)
            bearer(channel: m.channel, m.bearer, &w)
        case .smp(let s):
            head(event, .smp, &w)
            w.key("conn")
            w.int(s.connection)
            direction(s.direction, &w)
            w.key("op")
            w.string(s.op)
            if let method = s.method {
                w.key("method")
                w.string(method)
            }
            if let sc = s.secureConnections {
                w.key("secure_connections")
                w.bool(sc)
            }
            if let reason = s.reason {
                w.key("reason")
                w.int(reason)
                w.key("reason_name")
                w.string(SMP.failure(reason))
            }
        case .connectionUpdate(let u):
            head(event, .connUpdate, &w)
            w.key("conn")
            w.int(u.connection)
            if u.status != 0 { status(u.status, &w) }
            w.key("interval_ms")
            w.double(Double(u.interval) * 1.25)
            w.key("latency")
            w.int(u.latency)
            w.key("timeout_ms")
            w.int(Int(u.supervisionTimeout) * 10)
        case .dataLength(let d):
            head(event, .dataLength, &w)
            w.key("conn")
            w.int(d.connection)
            w.key("max_tx_octets")
            w.int(d.maxTxOctets)
            w.key("max_rx_octets")
            w.int(d.maxRxOctets)
        case .phy(let p):
            head(event, .phy, &w)
            w.key("conn")
            w.int(p.connection)
            if p.status != 0 { status(p.status, &w) }
            w.key("tx_phy")
            w.int(p.txPHY)
            w.key("rx_phy")
            w.int(p.rxPHY)
        case .encryption(let e):
            head(event, .encryption, &w)
            w.key("conn")
            w.int(e.connection)
            if e.status != 0 { status(e.status, &w) }
            w.key("enabled")
            w.bool(e.enabled)
            if let size = e.keySize {
                w.key("key_size")
                w.int(size)
            }
        case .signal(let s):
            head(event, .signal, &w)
            w.key("conn")
            w.int(s.connection)
            direction(s.direction, &w)
            w.key("code")
            w.int(s.code)
            w.key("op")
            w.string(SignalingPacket.name(s.code))
            w.key("id")
            w.int(s.identifier)
            EventL2CAPJSON.writeCommand(s.command, &w)
            w.key("data")
            w.hex(s.data)
        case .l2cap(let l):
            head(event, .l2cap, &w)
            w.key("conn")
            w.int(l.connection)
            direction(l.direction, &w)
            w.key("cid")
            w.int(l.channel)
            if let psm = l.psm { EventL2CAPJSON.writePSM(psm, &w) }
            if l.sdu {
                w.key("sdu")
                w.bool(true)
            }
            w.key("data")
            w.hex(l.data)
        case .hci(let h):
            head(event, .hci, &w)
            writeHCI(h, &w, cache)
        case .linkLayer(let l):
            head(event, .ll, &w)
            if let conn = l.connection {
                w.key("conn")
                w.int(conn)
                direction(l.direction, &w)
            }
            w.key("op")
            w.string(l.op)
            if let addr = l.address { address(addr, &w) }
            w.key("data")
            w.hex(l.data)
        case .note(let note):
            head(event, .note, &w)
            writeNote(note, &w)
        case .diagnostic(let d):
            head(event, .diagnostic, &w)
            w.key("layer")
            w.string(d.layer.description)
            w.key("id")
            w.string(d.id.description)
            if let conn = d.connection {
                w.key("conn")
                w.int(conn)
            }
            if let offset = d.offset {
                w.key("offset")
                w.int(offset)
            }
            w.key("reason")
            w.string(d.reason)
        }
        w.endObject()
        w.newline()
    }

    /// The members every event has after its time: type, adapter, truncated.
    @inline(__always)
    private static func head(_ event: Event, _ type: EventType, _ w: inout JSONWriter) {
        w.key("type")
        w.literal(type.name)
        if event.adapter != 0 {
            w.key("adapter")
            w.int(event.adapter)
        }
        if event.truncated {
            w.key("truncated")
            w.bool(true)
        }
    }

    static func address(_ address: BluetoothAddress, key: StaticString = "addr", _ w: inout JSONWriter) {
        w.key(key)
        w.quoted(upTo: BluetoothAddress.textLength) { address.writeText(to: $0) }
    }

    static func direction(_ direction: Direction, _ w: inout JSONWriter) {
        w.key("dir")
        w.literal(direction.name)
    }

    static func status(_ status: UInt8, _ w: inout JSONWriter) {
        w.key("status")
        w.int(status)
        w.key("status_name")
        w.string(HCINames.error(status))
    }

    static func uuid(_ uuid: BluetoothUUID, _ w: inout JSONWriter) {
        w.quoted(upTo: BluetoothUUID.maximumTextLength) { uuid.writeText(to: $0) }
    }

    static func addressType(_ type: AddressType, _ w: inout JSONWriter) {
        w.key("addr_type")
        if let name = type.staticName { w.literal(name) } else { w.string(type.name) }
    }

    /// `cid` and `bearer`, for ATT that did not come on the LE fixed channel.
    static func bearer(channel: UInt16, _ bearer: ATTBearerKind, _ w: inout JSONWriter) {
        guard channel != L2CAPChannel.attribute else { return }
        w.key("cid")
        w.int(channel)
        w.key("bearer")
        w.literal(bearer.name)
    }

    static func appearance(_ value: UInt16, _ w: inout JSONWriter) {
        w.key("appearance")
        w.int(value)
        if let text = AssignedNames.appearanceText(value) {
            w.key("appearance_name")
            w.string(text)
        }
    }

    /// A connection; a failed one carries its status, and no address, role or interval it never had.
    static func writeConnect(_ c: Connect, _ w: inout JSONWriter) {
        guard c.status == 0 else {
            status(c.status, &w)
            if c.address.value != 0 {
                address(c.address, &w)
                addressType(c.addressType, &w)
            }
            return
        }
        w.key("conn")
        w.int(c.connection)
        address(c.address, &w)
        addressType(c.addressType, &w)
        if let role = c.role {
            w.key("role")
            w.string(role)
        }
        if let initiator = c.initiator { address(initiator, key: "initiator", &w) }
        if let aa = c.accessAddress {
            w.key("access_address")
            w.int(aa)
        }
        w.key("interval_ms")
        w.double(Double(c.interval) * 1.25)
        w.key("latency")
        w.int(c.latency)
        w.key("timeout_ms")
        w.int(Int(c.supervisionTimeout) * 10)
    }

    /// `text` for a note that is text, `data` for one that is not; user logging adds ident and priority.
    static func writeNote(_ note: Note, _ w: inout JSONWriter) {
        if let source = note.sourceName {
            w.key("source")
            w.literal(source)
        }
        if let ident = note.ident {
            w.key("ident")
            w.string(ident)
        }
        if let priority = note.priority {
            w.key("priority")
            w.int(priority)
            if let name = Note.priorityName(priority) {
                w.key("priority_name")
                w.literal(name)
            }
        }
        if let text = note.text {
            w.key("text")
            w.string(text)
        }
        if let data = note.data {
            w.key("data")
            w.hex(data)
        }
    }
}

import ByteReading
