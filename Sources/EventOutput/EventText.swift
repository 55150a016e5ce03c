import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureModel
import JSON

/// Writes events for people, in the spirit of btmon: one header line per event with frame, time,
/// direction and type, then indented details.
public struct EventText {
    /// How the time column counts.
    public enum TimeMode: String, Sendable, CaseIterable {
        /// Seconds since the capture's first record, whatever is filtered out: pasted into
        /// `--since`, it finds the same event.
        case relative
        /// The UTC date and time, ISO 8601 (also accepted by `--since`).
        case absolute
        /// Seconds since the event shown before.
        case delta
    }

    public var mode: TimeMode
    /// The capture's first record's time, which relative times count from; until it is set, the
    /// first event's.
    public var timeBase: Int64?
    private var previous: Int64?

    public init(mode: TimeMode = .relative) {
        self.mode = mode
    }

    public mutating func write(_ event: Event, to w: inout JSONWriter) {
        if timeBase == nil { timeBase = event.timestamp }
        var header = "#\(event.frame)"
        header += pad(header, 8) + timeColumn(event.timestamp)
        var details: [String] = []
        let (direction, summary) = describe(event, &details)
        header += "  " + direction + pad(direction, 5) + " " + event.type.rawValue + pad(event.type.rawValue, 11) + summary
        append(header, &w)
        for line in details { append("        " + line, &w) }
    }

    private func append(_ line: String, _ w: inout JSONWriter) {
        w.raw(string: line)
        w.newline()
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(1, width - text.count))
    }

    private mutating func timeColumn(_ timestamp: Int64) -> String {
        defer { previous = timestamp }
        if mode == .absolute { return CivilTime.isoText(micros: timestamp) }
        let start = mode == .delta ? previous ?? timestamp : timeBase ?? timestamp
        // A damaged capture's timestamps can lie anywhere in Int64: the difference saturates.
        let (elapsed, overflow) = timestamp.subtractingReportingOverflow(start)
        var writer = JSONWriter(capacity: 20)
        writer.timestamp(micros: overflow ? (timestamp < start ? .min : .max) : elapsed)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        return String(repeating: " ", count: max(0, 12 - text.count)) + text
    }

    private func name(_ uuid: BluetoothUUID) -> String {
        AssignedNames.uuid(uuid).map { "\($0) (\(uuid))" } ?? uuid.description
    }

    private func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    private func describe(_ event: Event, _ d: inout [String]) -> (String, String) {
        switch event.body {
        case .advertisement(let a):
            var summary = "\(a.address) (\(a.addressType.name)) \(a.pdu.name)"
            if let rssi = a.rssi { summary += " rssi \(rssi)" }
            if let channel = a.channel { summary += " ch \(channel)" }
            if a.truncated { summary += " truncated" }
            adDetails(a.data, &d)
            return ("recv", summary)
        case .connect(let c):
            var summary = "conn \(c.connection) \(c.address) (\(c.addressType.name))"
            if let role = c.role { summary += " as \(role)" }
            if c.status != 0 { summary += " failed: \(HCINames.error(c.status))" }
            d.append("interval \(Double(c.interval) * 1.25) ms, latency \(c.latency), timeout \(Int(c.supervisionTimeout) * 10) ms")
            if let initiator = c.initiator { d.append("central \(initiator)") }
            return ("recv", summary)
        case .disconnect(let x):
            return ("recv", "conn \(x.connection)\(x.address.map { " \($0)" } ?? "") reason: \(HCINames.error(x.reason))")
        case .att(let a):
            var summary = "\(a.op) conn \(a.connection)"
            if let mtu = a.exchangedMTU {
                summary += a.opcode == ATTOpcode.exchangeMTURequest ? " client mtu \(mtu)" : " server mtu \(mtu)"
            }
            if a.channel != L2CAPChannel.attribute { summary += " \(a.bearer.name) cid \(hex4(a.channel))" }
            if let handle = a.handle {
                summary += " handle \(hex4(handle))"
                if let attribute = a.attribute {
                    summary += " \(name(attribute.uuid))"
                    var from = "uuid from \(attribute.source.rawValue)"
                    if a.localServer { from += ", on our own GATT server" }
                    if let frame = attribute.frame { from += " (frame \(frame))" }
                    if let service = attribute.service { d.append("service \(name(service))") }
                    if let characteristic = attribute.characteristic { d.append("characteristic \(name(characteristic))") }
                    d.append(from)
                } else {
                    summary += " (unknown)"
                }
            }
            if let range = a.range { summary += " handles \(hex4(range.lowerBound))–\(hex4(range.upperBound))" }
            if let type = a.attributeType { d.append("type \(name(type))") }
            if let code = a.errorCode, let request = a.requestOpcode {
                d.append("\(ATTOpcode.name(request)) failed: \(ATTErrorNames.name(code))")
            }
            if let offset = a.offset { d.append("offset \(offset)") }
            if let frame = a.requestFrame { d.append("answers frame \(frame)") }
            for entry in a.discovered ?? [] {
                var line = "\(hex4(entry.handle)) \(name(entry.uuid))"
                if let other = entry.endOrValueHandle { line += entry.properties == nil ? " to \(hex4(other))" : " value \(hex4(other))" }
                d.append(line)
            }
            if let value = a.value { d.append("value \(Hex.encode(value))\(a.partial ? " (part)" : "")\(printable(value))") }
            return ("\(a.direction.name)", summary)
        case .mtu(let m):
            var summary = "conn \(m.connection) mtu \(m.mtu)"
            if m.channel != L2CAPChannel.attribute { summary += " \(m.bearer.name) cid \(hex4(m.channel))" }
            return ("", summary)
        case .smp(let s):
            var summary = "\(s.op) conn \(s.connection)"
            if let method = s.method { summary += " method \(method)" }
            if s.secureConnections == true { summary += " (LE Secure Connections)" }
            if let reason = s.reason { summary += " reason \(SMP.failure(reason))" }
            return ("\(s.direction.name)", summary)
        case .connectionUpdate(let u):
            return ("recv", "conn \(u.connection) interval \(Double(u.interval) * 1.25) ms, latency \(u.latency), timeout \(Int(u.supervisionTimeout) * 10) ms")
        case .dataLength(let x):
            return ("recv", "conn \(x.connection) tx \(x.maxTxOctets) rx \(x.maxRxOctets) octets")
        case .phy(let p):
            return ("recv", "conn \(p.connection) tx phy \(p.txPHY) rx phy \(p.rxPHY)")
        case .encryption(let e):
            return ("recv", "conn \(e.connection) \(e.status == 0 ? (e.enabled ? "on" : "off") : "failed: \(HCINames.error(e.status))")")
        case .signal(let s):
            if let parameters = EventL2CAPText.parameters(s.command) { d.append(parameters) }
            d.append("data \(Hex.encode(s.data))")
            return ("\(s.direction.name)", "\(SignalingPacket.name(s.code)) conn \(s.connection) id \(s.identifier)")
        case .l2cap(let l):
            d.append("data \(Hex.encode(l.data))")
            var summary = "conn \(l.connection) cid \(hex4(l.channel))"
            if let psm = l.psm { summary += " " + EventL2CAPText.psm(psm) }
            summary += " \(l.data.count) bytes\(l.sdu ? " (sdu)" : "")"
            return ("\(l.direction.name)", summary)
        case .hci(let h):
            if h.kind == .command {
                if !h.parameters.isEmpty { d.append(Hex.encode(h.parameters)) }
                return ("sent", HCINames.command(h.code))
            }
            var summary = h.subevent.map(HCINames.leSubevent) ?? HCINames.event(UInt8(truncatingIfNeeded: h.code))
            if let opcode = h.commandOpcode { summary += ": \(HCINames.command(opcode))" }
            if let status = h.status, status != 0 { summary += " (\(HCINames.error(status)))" }
            return ("recv", summary)
        case .linkLayer(let l):
            if !l.data.isEmpty { d.append("data \(Hex.encode(l.data))") }
            return ("\(l.direction.name)", l.op + (l.connection.map { " conn \($0)" } ?? "") + (l.address.map { " \($0)" } ?? ""))
        case .note(let text):
            return ("", text)
        case .diagnostic(let x):
            return ("", "\(x.id): \(x.reason)")
        }
    }

    /// The value as text too, when it is printable ASCII.
    private func printable(_ value: [UInt8]) -> String {
        guard value.count >= 2, value.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "" }
        return " \"\(String(decoding: value, as: UTF8.self))\""
    }

    private func adDetails(_ data: AdvertisingData, _ d: inout [String]) {
        let error = data.forEach { s in
            var text: String
            switch s.type {
            case ADType.flags: text = "flags \(Hex.encode(s.data))"
            case ADType.completeName, ADType.shortenedName:
                text = "name \"\(String(decoding: s.data, as: UTF8.self))\"\(s.type == ADType.shortenedName ? " (short)" : "")"
            case ADType.txPower where s.data.count == 1: text = "tx power \(Int8(bitPattern: s.data[0])) dBm"
            case ADType.manufacturerData where s.data.count >= 2:
                let company = UInt16(s.data[0]) | UInt16(s.data[1]) << 8
                text = "company \(hex4(company))\(AssignedNames.company(company).map { " (\($0))" } ?? "") "
                    + Hex.encode(s.data.dropFirst(2))
            case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
                let size = ADType.uuidSize(s.type) ?? 2
                var r = ByteReader(s.data)
                if let uuid = try? BluetoothUUID(reading: &r, size: size) {
                    text = "service data \(name(uuid)) \(Hex.encode(r.unread))"
                } else {
                    text = "service data (short) \(Hex.encode(s.data))"
                }
            case ADType.incomplete16...ADType.complete128:
                text = "uuids " + AdvertisingData([UInt8(s.data.count + 1), s.type] + Array(s.data)).serviceUUIDs
                    .map { name($0) }.joined(separator: ", ")
            default:
                text = "ad 0x\(String(s.type, radix: 16)) \(Hex.encode(s.data))"
            }
            d.append(text)
        }
        if let error { d.append("malformed: \(error)") }
    }
}
