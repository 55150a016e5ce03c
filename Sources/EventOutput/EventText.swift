import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureModel
import JSON

/// Writes events for people, in the spirit of btmon: one header line per event with frame, time
/// (as `--time` says), direction and type, then indented details. Everything that
/// comes from the capture is escaped: no control byte reaches the terminal.
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
        if event.truncated { header += " (truncated)" }
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

    static func name(_ uuid: BluetoothUUID) -> String {
        AssignedNames.uuid(uuid).map { "\($0) (\(uuid))" } ?? uuid.description
    }

    static func hex4(_ value: UInt16) -> String { HCINames.hex(UInt64(value), 4) }

    /// `label hex` for up to 16 bytes; longer, `label (N bytes)` and the bytes in btmon's 16-byte rows.
    static func hexLines(
        _ label: String, _ bytes: [UInt8], suffix: String = "", indent: String = "", _ d: inout [String]
    ) {
        let head = indent + label + (label.isEmpty || bytes.isEmpty ? "" : " ")
        guard bytes.count > 16 else {
            d.append(head + Hex.encode(bytes) + suffix)
            return
        }
        d.append(head + "(\(bytes.count) bytes)" + suffix)
        for row in PrintableText.hexRows(bytes) { d.append(indent + "  " + row) }
    }

    private func describe(_ event: Event, _ d: inout [String]) -> (String, String) {
        switch event.body {
        case .advertisement(let a):
            var summary = "\(a.address) (\(a.addressType.name)) \(a.pdu.name)"
            if let rssi = a.rssi { summary += " rssi \(rssi)" }
            if let channel = a.channel { summary += " ch \(channel)" }
            if a.truncated { summary += " truncated" }
            a.data.withUnsafeBytes { Self.adDetails($0, &d) }
            return ("recv", summary)
        case .connect(let c):
            return ("recv", connect(c, &d))
        case .disconnect(let x):
            return ("recv", "conn \(x.connection)\(x.address.map { " \($0)" } ?? "") reason: \(HCINames.errorLabel(x.reason))")
        case .att(let a):
            return ("\(a.direction.name)", attribute(a, &d))
        case .mtu(let m):
            var summary = "conn \(m.connection) mtu \(m.mtu)"
            if m.channel != L2CAPChannel.attribute { summary += " \(m.bearer.name) cid \(Self.hex4(m.channel))" }
            return ("", summary)
        case .smp(let s):
            var summary = "\(s.op) conn \(s.connection)"
            if let method = s.method { summary += " method \(method)" }
            if s.secureConnections == true { summary += " (LE Secure Connections)" }
            if let reason = s.reason { summary += " reason \(SMP.failure(reason))" }
            return ("\(s.direction.name)", summary)
        case .connectionUpdate(let u):
            if u.status != 0 { return ("recv", "conn \(u.connection) failed: \(HCINames.errorLabel(u.status))") }
            return ("recv", "conn \(u.connection) interval \(Double(u.interval) * 1.25) ms, latency \(u.latency), timeout \(Int(u.supervisionTimeout) * 10) ms")
        case .dataLength(let x):
            return ("recv", "conn \(x.connection) tx \(x.maxTxOctets) rx \(x.maxRxOctets) octets")
        case .phy(let p):
            if p.status != 0 { return ("recv", "conn \(p.connection) failed: \(HCINames.errorLabel(p.status))") }
            return ("recv", "conn \(p.connection) tx \(HCINames.phy(p.txPHY)) rx \(HCINames.phy(p.rxPHY))")
        case .encryption(let e):
            return ("recv", "conn \(e.connection) \(e.status == 0 ? (e.enabled ? "on" : "off") : "failed: \(HCINames.errorLabel(e.status))")")
        case .signal(let s):
            if let parameters = EventL2CAPText.parameters(s.command) { d.append(parameters) }
            Self.hexLines("data", s.data, &d)
            return ("\(s.direction.name)", "\(SignalingPacket.name(s.code)) conn \(s.connection) id \(s.identifier)")
        case .l2cap(let l):
            Self.hexLines("data", l.data, &d)
            var summary = "conn \(l.connection) cid \(Self.hex4(l.channel))"
            if let psm = l.psm { summary += " " + EventL2CAPText.psm(psm) }
            summary += " \(l.data.count) bytes\(l.sdu ? " (sdu)" : "")"
            return ("\(l.direction.name)", summary)
        case .hci(let h):
            return (h.kind == .command ? "sent" : "recv", HCIText.describe(h, &d))
        case .linkLayer(let l):
            if !l.data.isEmpty { Self.hexLines("data", l.data, &d) }
            return ("\(l.direction.name)", l.op + (l.connection.map { " conn \($0)" } ?? "") + (l.address.map { " \($0)" } ?? ""))
        case .note(let note):
            return ("", Self.note(note, &d))
        case .diagnostic(let x):
            return ("", "\(x.id): \(PrintableText.escape(x.reason))")
        }
    }

    /// A connection; a failed one says why, and shows no address, role or interval it never had.
    private func connect(_ c: Connect, _ d: inout [String]) -> String {
        guard c.status == 0 else {
            var summary = "failed: \(HCINames.errorLabel(c.status))"
            if c.address.value != 0 { summary += " peer \(c.address) (\(c.addressType.name))" }
            return summary
        }
        var summary = "conn \(c.connection) \(c.address) (\(c.addressType.name))"
        if let role = c.role { summary += " as \(role)" }
        d.append("interval \(Double(c.interval) * 1.25) ms, latency \(c.latency), timeout \(Int(c.supervisionTimeout) * 10) ms")
        if let initiator = c.initiator { d.append("central \(initiator)") }
        return summary
    }

    /// User logging as btmon shows it, `= ident: message`; other notes as their text, or their bytes.
    static func note(_ note: Note, _ d: inout [String]) -> String {
        if let priority = note.priority {
            d.append("priority \(priority)\(Note.priorityName(priority).map { " (\($0))" } ?? "")")
        }
        let kind = note.sourceName.map { "\($0)" }
        if let text = note.text {
            if let ident = note.ident { return "= \(PrintableText.escape(ident)): \(PrintableText.escape(text))" }
            return PrintableText.escape(text)
        }
        let bytes = note.data ?? []
        let label = (note.ident.map { "= \(PrintableText.escape($0)): " } ?? "") + (kind ?? "data")
        guard bytes.count > 16 else { return "\(label) \(Hex.encode(bytes))" }
        for row in PrintableText.hexRows(bytes) { d.append(row) }
        return "\(label) (\(bytes.count) bytes)"
    }
}
