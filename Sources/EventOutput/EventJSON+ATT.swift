import BluetoothPackets
import BluetoothTracking
import JSON

extension EventJSON {
    /// An `att` event. Through `cache`, its members up to the attribute come from the last event
    /// with the same connection, operation and attribute (a connection's notifications on one
    /// handle differ only in their value); the rest is written each time.
    static func writeATT(_ att: ATTEvent, _ w: inout JSONWriter, _ cache: EventJSONCache?) {
        if let cache {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: attHeadKeyCapacity) { key in
                let count = attHeadKey(att, into: key.baseAddress!)
                cache.write(UnsafeRawBufferPointer(start: key.baseAddress!, count: count), as: .attHead, to: &w) {
                    _, w in writeATTHead(att, &w)
                }
            }
        } else {
            writeATTHead(att, &w)
        }
        writeATTRest(att, &w)
    }

    /// conn, addr, dir, opcode, op, the bearer's, the exchanged MTU, handle, server and the
    /// attribute: what `attHeadKey` holds.
    private static func writeATTHead(_ att: ATTEvent, _ w: inout JSONWriter) {
        w.key("conn")
        w.int(att.connection)
        if let peer = att.peer { address(peer, &w) }
        direction(att.direction, &w)
        w.key("opcode")
        w.int(att.opcode)
        w.key("op")
        if let op = att.staticOp { w.literal(op) } else { w.string(att.op) }
        bearer(channel: att.channel, att.bearer, &w)
        if let mtu = att.exchangedMTU {
            w.key(att.opcode == ATTOpcode.exchangeMTURequest ? "client_mtu" : "server_mtu")
            w.int(mtu)
        }
        if let handle = att.handle {
            w.key("handle")
            w.int(handle)
            if att.localServer {
                w.key("server")
                w.string("local")
            }
            w.key("uuid")
            if let attribute = att.attribute {
                uuid(attribute.uuid, &w)
                if let service = attribute.service {
                    w.key("service")
                    uuid(service, &w)
                }
                if let characteristic = attribute.characteristic {
                    w.key("characteristic")
                    uuid(characteristic, &w)
                }
                w.key("uuid_from")
                w.literal(attribute.source.name)
                if let frame = attribute.frame {
                    w.key("uuid_frame")
                    w.int(frame)
                }
            } else {
                w.null()
            }
        }
    }

    private static func writeATTRest(_ att: ATTEvent, _ w: inout JSONWriter) {
        if let range = att.range {
            w.key("start_handle")
            w.int(range.lowerBound)
            w.key("end_handle")
            w.int(range.upperBound)
        }
        if let handles = att.handles {
            w.key("handles")
            w.beginArray()
            for h in handles { w.int(h) }
            w.endArray()
        }
        if let type = att.attributeType {
            w.key("attribute_type")
            uuid(type, &w)
        }
        if let offset = att.offset {
            w.key("offset")
            w.int(offset)
        }
        if let request = att.requestOpcode {
            w.key("request")
            w.string(ATTOpcode.name(request))
        }
        if let code = att.errorCode {
            w.key("error")
            w.int(code)
            w.key("error_name")
            w.string(ATTErrorNames.name(code))
        }
        if let frame = att.requestFrame {
            w.key("request_frame")
            w.int(frame)
        }
        if let discovered = att.discovered {
            w.key("discovered")
            w.beginArray()
            for entry in discovered {
                w.beginObject()
                w.key("handle")
                w.int(entry.handle)
                w.key("uuid")
                uuid(entry.uuid, &w)
                if let end = entry.endOrValueHandle {
                    if entry.properties == nil { w.key("end") } else { w.key("value_handle") }
                    w.int(end)
                }
                if let properties = entry.properties {
                    w.key("properties")
                    w.int(properties)
                    w.key("property_names")
                    w.beginArray()
                    for name in GATTWords.properties(properties) { w.literal(name) }
                    w.endArray()
                }
                w.endObject()
            }
            w.endArray()
        }
        if let value = att.value {
            w.key("value")
            w.hex(value)
            writeValueMeaning(att, value, &w)
        }
        if att.partial {
            w.key("partial")
            w.bool(true)
        }
    }

    /// A CCCD's value as `cccd` (["notify", "indicate"]), an Appearance characteristic's as `appearance`.
    static func writeValueMeaning(_ att: ATTEvent, _ value: [UInt8], _ w: inout JSONWriter) {
        guard let uuid = att.attribute?.uuid.shortValue, value.count == 2, !att.partial else { return }
        let word = UInt16(value[0]) | UInt16(value[1]) << 8
        switch uuid {
        case 0x2902:
            w.key("cccd")
            w.beginArray()
            for name in GATTWords.clientConfiguration(word) { w.literal(name) }
            w.endArray()
        case 0x2A01: appearance(word, &w)
        default: break
        }
    }

    /// Room for the longest head key.
    static let attHeadKeyCapacity = 80

    /// Every field `writeATTHead` reads, as bytes: presence flags, connection, peer, direction,
    /// opcode, kind, channel, bearer, exchanged MTU, handle, then the attribute's UUIDs, source
    /// and frame. Returns the key's length.
    static func attHeadKey(_ att: ATTEvent, into key: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        func put<Value>(_ value: Value) {
            UnsafeMutableRawPointer(key + count).storeBytes(of: value, as: Value.self)
            count += MemoryLayout<Value>.size
        }
        let attribute = att.attribute
        var flags: UInt8 = att.localServer ? 1 : 0
        if att.peer != nil { flags |= 2 }
        if att.exchangedMTU != nil { flags |= 4 }
        if att.handle != nil { flags |= 8 }
        if attribute != nil { flags |= 16 }
        if attribute?.service != nil { flags |= 32 }
        if attribute?.characteristic != nil { flags |= 64 }
        if attribute?.frame != nil { flags |= 128 }
        put(flags)
        put(att.connection)
        put(att.peer?.value ?? 0)
        put(att.direction.rawValue)
        put(att.opcode)
        let kind: UInt8 = switch att.kind {
        case .pdu: 0
        case .readLong: 1
        case .writeLong: 2
        }
        put(kind)
        put(att.channel)
        put(att.bearer.rawValue)
        put(att.exchangedMTU ?? 0)
        put(att.handle ?? 0)
        if let attribute {
            let source: UInt8 = switch attribute.source {
            case .discovery: 0
            case .cache: 1
            case .map: 2
            }
            put(source)
            put(attribute.frame ?? 0)
            put(attribute.uuid.high)
            put(attribute.uuid.low)
            if let service = attribute.service {
                put(service.high)
                put(service.low)
            }
            if let characteristic = attribute.characteristic {
                put(characteristic.high)
                put(characteristic.low)
            }
        }
        return count
    }
}
