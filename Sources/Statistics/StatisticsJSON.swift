import BluetoothPackets
import BluetoothTracking
import JSON

/// `stats --json`: one JSON object per capture, on one line. Times are Unix seconds with six
/// decimals like the event stream's `ts`; durations and intervals are in milliseconds.
public enum StatisticsJSON {
    public static func write(_ s: CaptureStatistics, to w: inout JSONWriter) {
        w.beginObject()
        w.key("file")
        w.string(s.info.path)
        w.key("format")
        w.string(s.info.format)
        if let datalink = s.info.datalink {
            w.key("datalink")
            w.int(datalink)
        }
        w.key("records")
        w.int(s.info.records)
        w.key("events")
        w.int(s.events.events)
        if let first = s.events.firstTimestamp, let last = s.events.lastTimestamp {
            w.key("first_ts")
            w.timestamp(micros: first)
            w.key("last_ts")
            w.timestamp(micros: last)
            w.key("duration_ms")
            w.double(Double(last - first) / 1000)
        }
        w.key("damaged_records")
        w.int(s.events.damagedRecords)
        w.key("truncated")
        w.bool(s.events.truncated)
        w.key("diagnostics")
        w.beginObject()
        for (id, count) in s.events.diagnostics {
            w.key(escaping: id)
            w.int(count)
        }
        w.endObject()
        w.key("devices")
        w.beginArray()
        for device in s.events.devices { write(device, s.readings, &w) }
        w.endArray()
        if s.events.otherDevices > 0 {
            w.key("devices_not_listed")
            w.int(s.events.otherDevices)
            w.key("adverts_not_listed")
            w.int(s.events.otherDeviceAdverts)
        }
        w.key("connections")
        w.beginArray()
        for connection in s.events.connections { write(connection, &w) }
        w.endArray()
        if s.events.connectionsNotListed > 0 {
            w.key("connections_not_listed")
            w.int(s.events.connectionsNotListed)
        }
        w.key("adapters")
        w.beginArray()
        for adapter in s.events.adapters { write(adapter, &w) }
        w.endArray()
        w.key("decoders")
        w.beginArray()
        for decoder in s.readings.decoders { write(decoder, &w) }
        w.endArray()
        if s.readings.undecoded > 0 {
            w.key("undecoded")
            w.int(s.readings.undecoded)
        }
        w.endObject()
        w.newline()
    }

    static func write(_ d: DeviceStatistics, _ readings: ReadingStatistics, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("addr")
        w.string(d.address.description)
        if let type = d.addressType {
            w.key("addr_type")
            w.string(type.name)
        }
        w.key("adverts")
        w.int(d.adverts)
        w.key("adverts_by_pdu")
        w.beginObject()
        for (kind, count) in d.advertsByKind.enumerated() where count > 0 {
            w.key(escaping: Formatting.pdu(kind))
            w.int(count)
        }
        w.endObject()
        w.key("interval_ms")
        summary(d.interval, divisor: 1000, &w)
        w.key("rssi")
        w.beginObject()
        w.key("count")
        w.int(d.rssi.count)
        if let minimum = d.rssi.minimum, let median = d.rssi.median, let maximum = d.rssi.maximum {
            w.key("min")
            w.int(minimum)
            w.key("median")
            w.double(median)
            w.key("max")
            w.int(maximum)
        }
        w.endObject()
        w.key("names")
        w.beginArray()
        for name in d.names { w.string(name) }
        w.endArray()
        w.key("companies")
        w.beginArray()
        for company in d.companies {
            w.beginObject()
            w.key("id")
            w.int(company)
            if let name = AssignedNames.company(company) {
                w.key("name")
                w.string(name)
            }
            w.endObject()
        }
        w.endArray()
        w.key("service_uuids")
        w.beginArray()
        for uuid in d.serviceUUIDs { w.string(uuid.description) }
        w.endArray()
        w.key("decoders")
        w.beginObject()
        for (id, count) in readings.decoders(of: d.address) {
            w.key(escaping: id)
            w.int(count)
        }
        w.endObject()
        w.key("connections")
        w.int(d.connections)
        if d.failedConnections > 0 {
            w.key("failed_connections")
            w.int(d.failedConnections)
        }
        w.key("first_ts")
        w.timestamp(micros: d.firstSeen)
        w.key("last_ts")
        w.timestamp(micros: d.lastSeen)
        w.key("first_frame")
        w.int(d.firstFrame)
        w.key("last_frame")
        w.int(d.lastFrame)
        w.endObject()
    }

    static func write(_ c: ConnectionStatistics, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("adapter")
        w.int(c.adapter)
        w.key("conn")
        w.int(c.handle)
        if let peer = c.peer {
            w.key("peer")
            w.string(peer.description)
        }
        if let role = c.role {
            w.key("role")
            w.string(role)
        }
        w.key("start_ts")
        if let start = c.start { w.timestamp(micros: start) } else { w.null() }
        w.key("end_ts")
        if let end = c.end { w.timestamp(micros: end) } else { w.null() }
        if let frame = c.startFrame {
            w.key("start_frame")
            w.int(frame)
        }
        if let frame = c.endFrame {
            w.key("end_frame")
            w.int(frame)
        }
        w.key("duration_ms")
        w.double(Double(c.duration) / 1000)
        if let p = c.initialParameters {
            w.key("parameters")
            parameters(p, &w)
        }
        w.key("updates")
        w.int(c.updateCount)
        if !c.updates.isEmpty {
            w.key("parameter_updates")
            w.beginArray()
            for update in c.updates { parameters(update, &w) }
            w.endArray()
        }
        if let tx = c.txPHY, let rx = c.rxPHY {
            w.key("phy")
            w.beginObject()
            w.key("tx")
            w.string(Formatting.phy(tx))
            w.key("rx")
            w.string(Formatting.phy(rx))
            w.endObject()
        }
        if let tx = c.maxTxOctets, let rx = c.maxRxOctets {
            w.key("data_length")
            w.beginObject()
            w.key("max_tx_octets")
            w.int(tx)
            w.key("max_rx_octets")
            w.int(rx)
            w.endObject()
        }
        if let mtu = c.mtu {
            w.key("mtu")
            w.int(mtu)
        }
        w.key("encrypted")
        w.bool(c.encrypted)
        if let size = c.keySize {
            w.key("key_size")
            w.int(size)
        }
        w.key("att_opcodes")
        w.beginObject()
        for (opcode, count) in c.opcodes.sorted(by: { $0.key < $1.key }) {
            w.key(escaping: ATTOpcode.name(opcode))
            w.int(count)
        }
        w.endObject()
        w.key("attributes")
        w.beginArray()
        for (key, counts) in c.attributes.sorted(by: { $0.key < $1.key }) {
            w.beginObject()
            switch key {
            case .uuid(let uuid):
                w.key("uuid")
                w.string(uuid.description)
                if let name = AssignedNames.uuid(uuid) {
                    w.key("name")
                    w.string(name)
                }
            case .handle(let handle):
                w.key("handle")
                w.int(handle)
            case .other:
                w.key("other")
                w.bool(true)
            }
            for (name, value) in [
                ("reads", counts.reads), ("writes", counts.writes), ("notifications", counts.notifications),
                ("indications", counts.indications), ("bytes", counts.bytes),
            ] where value > 0 {
                w.key(escaping: name)
                w.int(value)
            }
            w.endObject()
        }
        w.endArray()
        w.key("notifications")
        w.int(c.notifications)
        w.key("indications")
        w.int(c.indications)
        let seconds = Double(c.duration) / 1e6
        if seconds > 0 {
            w.key("notifications_per_s")
            w.double(rounded(Double(c.notifications) / seconds))
            w.key("indications_per_s")
            w.double(rounded(Double(c.indications) / seconds))
            w.key("bytes_per_s_sent")
            w.double(rounded(Double(c.bytesSent) / seconds))
            w.key("bytes_per_s_received")
            w.double(rounded(Double(c.bytesReceived) / seconds))
        }
        w.key("bytes_sent")
        w.int(c.bytesSent)
        w.key("bytes_received")
        w.int(c.bytesReceived)
        w.key("response_latency_ms")
        summary(c.latency, divisor: 1000, &w)
        w.key("att_errors")
        w.beginArray()
        for (error, count) in c.errors.sorted(by: { ($0.key.requestOpcode, $0.key.code) < ($1.key.requestOpcode, $1.key.code) }) {
            w.beginObject()
            w.key("request")
            w.string(ATTOpcode.name(error.requestOpcode))
            w.key("code")
            w.int(error.code)
            w.key("name")
            w.string(ATTErrorNames.name(error.code))
            w.key("count")
            w.int(count)
            w.endObject()
        }
        w.endArray()
        if let reason = c.disconnectReason {
            w.key("disconnect_reason")
            w.int(reason)
            w.key("disconnect_reason_name")
            w.string(HCINames.error(reason))
        }
        w.endObject()
    }

    static func parameters(_ p: ConnectionStatistics.Parameters, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("ts")
        w.timestamp(micros: p.timestamp)
        w.key("interval_ms")
        w.double(p.intervalMilliseconds)
        w.key("latency")
        w.int(p.latency)
        w.key("timeout_ms")
        w.int(p.timeoutMilliseconds)
        w.endObject()
    }

    static func write(_ a: AdapterStatistics, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("adapter")
        w.int(a.adapter)
        w.key("hci_commands")
        w.beginObject()
        for (opcode, count) in a.commands.sorted(by: { $0.key < $1.key }) {
            w.key(escaping: HCINames.command(opcode))
            w.int(count)
        }
        w.endObject()
        w.key("hci_events")
        w.beginObject()
        for (code, count) in a.hciEvents.sorted(by: { $0.key < $1.key }) {
            w.key(escaping: Formatting.hciEvent(code))
            w.int(count)
        }
        w.endObject()
        w.key("event_types")
        w.beginObject()
        for type in EventType.allCases where a.eventTypes[type.ordinal] > 0 {
            w.key(escaping: type.rawValue)
            w.int(a.eventTypes[type.ordinal])
        }
        w.endObject()
        w.key("command_latency_ms")
        summary(a.commandLatency, divisor: 1000, &w)
        w.key("failed_commands")
        w.int(a.failedCommands)
        w.endObject()
    }

    static func write(_ d: ReadingStatistics.DecoderStatistics, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("decoder")
        w.string(d.id)
        w.key("readings")
        w.int(d.readings)
        w.key("payloads")
        w.int(d.payloads)
        w.key("errors")
        w.int(d.errors)
        w.key("devices")
        w.int(d.devices)
        w.key("fields")
        w.beginObject()
        for field in d.fields where field.values.count > 0 {
            w.key(escaping: field.name)
            summary(field.values, divisor: 1, &w)
        }
        w.endObject()
        if !d.rules.isEmpty {
            w.key("rules")
            w.beginArray()
            for entry in d.rules {
                w.beginObject()
                w.key("rule")
                w.string(entry.rule.name)
                if let field = entry.rule.field {
                    w.key("field")
                    w.string(field)
                }
                w.key("text")
                w.string(entry.rule.description)
                w.key("checked")
                w.int(entry.checked)
                w.key("violations")
                w.int(entry.violations)
                if let frame = entry.firstFrame {
                    w.key("first_frame")
                    w.int(frame)
                }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
    }

    /// count, min, p5, median, p95, max of a sketch, divided by `divisor` (1000: µs to ms);
    /// "approximate" once the sketch has left its exact mode.
    static func summary(_ sketch: QuantileSketch, divisor: Double, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("count")
        w.int(sketch.count)
        if sketch.count > 0 {
            let values: [(StaticString, Double?)] = [
                ("min", sketch.minimum), ("p5", sketch.quantile(0.05)), ("median", sketch.median),
                ("p95", sketch.quantile(0.95)), ("max", sketch.maximum),
            ]
            for (name, value) in values {
                w.key(name)
                if let value { w.double(value / divisor) } else { w.null() }
            }
            if !sketch.isExact {
                w.key("approximate")
                w.bool(true)
            }
        }
        w.endObject()
    }

    /// Milliseconds and rates to the microsecond: what the timestamps hold, no float noise.
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite, value.magnitude < 1e12 else { return value }
        return (value * 1000).rounded() / 1000
    }
}
