import BluetoothPackets
import BluetoothTracking

/// `stats` for people: a block per device, connection, adapter and decoder. Times are offsets
/// from the first event of the capture.
public enum StatisticsText {
    public static func render(_ s: CaptureStatistics) -> String {
        var out = TextBlock()
        let start = s.events.firstTimestamp ?? 0
        func at(_ micros: Int64) -> String { Formatting.duration(micros: micros - start) }

        out.line(s.info.path)
        var format = s.info.format
        if let datalink = s.info.datalink { format += ", datalink \(datalink) (\(s.info.datalinkName))" }
        out.row("format", format)
        out.row("records", "\(s.info.records), \(s.events.events) events")
        if let first = s.events.firstTimestamp, let last = s.events.lastTimestamp {
            out.row("span", "\(Formatting.duration(micros: last - first)), from \(Formatting.utc(micros: first))")
        }
        var parts: [String] = []
        if s.events.damagedRecords > 0 { parts.append("\(s.events.damagedRecords) damaged records") }
        if s.events.truncated { parts.append("cut short inside its last record") }
        let damage = parts.isEmpty ? "none" : parts.joined(separator: ", ")
        out.row("damage", damage)
        if !s.events.diagnostics.isEmpty {
            out.row("diagnostics", s.events.diagnostics.map { "\($0.id) \($0.count)" }.joined(separator: ", "))
        }

        for d in s.events.devices {
            out.line("")
            out.line("device \(d.address)" + (d.addressType.map { " (\($0.name))" } ?? ""))
            if d.adverts > 0 {
                let kinds = d.advertsByKind.enumerated().filter { $0.element > 0 }
                    .map { "\(Formatting.pdu($0.offset)) \($0.element)" }
                out.row("adverts", "\(d.adverts): " + kinds.joined(separator: ", "))
            }
            if d.interval.count > 0 {
                out.row("interval", quantiles(d.interval, unit: "ms", scale: 1e-3) + " (\(d.interval.count) intervals)")
            }
            if let low = d.rssi.minimum, let median = d.rssi.median, let high = d.rssi.maximum {
                out.row("rssi", "min \(low), median \(Formatting.short(median)), max \(high) dBm")
            }
            if !d.names.isEmpty { out.row("names", d.names.map { quoted($0) }.joined(separator: ", ")) }
            if !d.companies.isEmpty { out.row("companies", d.companies.map(Formatting.company).joined(separator: ", ")) }
            if !d.serviceUUIDs.isEmpty { out.row("services", d.serviceUUIDs.map(Formatting.uuid).joined(separator: ", ")) }
            let decoders = s.readings.decoders(of: d.address)
            if !decoders.isEmpty { out.row("decoders", decoders.map { "\($0.id) \($0.readings)" }.joined(separator: ", ")) }
            if d.connections + d.failedConnections > 0 {
                out.row("connections", "\(d.connections)" + (d.failedConnections > 0 ? ", \(d.failedConnections) failed" : ""))
            }
            out.row("seen", "\(at(d.firstSeen)) – \(at(d.lastSeen)) (frames \(d.firstFrame)–\(d.lastFrame))")
        }
        if s.events.otherDevices > 0 {
            out.line("")
            out.line("\(s.events.otherDevices) more devices (\(s.events.otherDeviceAdverts) adverts) are not listed")
        }

        for c in s.events.connections {
            out.line("")
            var title = "connection \(c.handle)"
            if s.events.adapters.count > 1 { title += " on hci\(c.adapter)" }
            if let peer = c.peer { title += ": \(peer)" }
            if let role = c.role { title += ", as \(role)" }
            out.line(title)
            let from = c.start.map(at) ?? "before the capture"
            let to = c.end.map(at) ?? "end of capture"
            var time = "\(from) – \(to) (\(Formatting.duration(micros: c.duration)))"
            if let reason = c.disconnectReason {
                time += "; disconnect: \(HCINames.error(reason)) (0x\(Formatting.hex(UInt64(reason), 2)))"
            }
            out.row("time", time)
            if let p = c.initialParameters {
                var text = parameters(p)
                if c.updateCount > 0 {
                    text += "; \(c.updateCount) update\(c.updateCount == 1 ? "" : "s"): "
                        + c.updates.map { parameters($0) + " at " + at($0.timestamp) }.joined(separator: "; ")
                }
                out.row("parameters", text)
            }
            var link: [String] = []
            if let tx = c.txPHY, let rx = c.rxPHY { link.append("PHY \(Formatting.phy(tx)) / \(Formatting.phy(rx))") }
            if let tx = c.maxTxOctets, let rx = c.maxRxOctets { link.append("data length \(tx) / \(rx)") }
            if let mtu = c.mtu { link.append("MTU \(mtu)") }
            link.append(c.encrypted ? "encrypted" + (c.keySize.map { " (key size \($0))" } ?? "") : "not encrypted")
            out.row("link", link.joined(separator: ", "))
            let pdus = c.opcodes.values.reduce(0, +)
            if pdus > 0 {
                out.row(
                    "att",
                    "\(pdus) PDUs: "
                        + c.opcodes.sorted { $0.key < $1.key }.map { "\(ATTOpcode.name($0.key)) \($0.value)" }
                        .joined(separator: ", "))
            }
            for (key, counts) in c.attributes.sorted(by: { $0.key < $1.key }) {
                let uses = [
                    ("reads", counts.reads), ("writes", counts.writes), ("notifications", counts.notifications),
                    ("indications", counts.indications),
                ].filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
                out.row("attribute", "\(Formatting.attribute(key)): \(uses.joined(separator: ", ")), \(counts.bytes) bytes")
            }
            let seconds = Double(c.duration) / 1e6
            if seconds > 0, c.notifications + c.indications + c.bytesSent + c.bytesReceived > 0 {
                out.row(
                    "rates",
                    "\(Formatting.short(Double(c.notifications) / seconds, significant: 3)) notifications/s, "
                        + "\(Formatting.short(Double(c.indications) / seconds, significant: 3)) indications/s; value bytes/s "
                        + "sent \(Formatting.short(Double(c.bytesSent) / seconds, significant: 3)), "
                        + "received \(Formatting.short(Double(c.bytesReceived) / seconds, significant: 3))")
            }
            if c.latency.count > 0 {
                out.row("latency", quantiles(c.latency, unit: "ms", scale: 1e-3, p5: false) + " (\(c.latency.count) responses)")
            }
            if !c.errors.isEmpty {
                out.row(
                    "att errors",
                    c.errors.sorted { ($0.key.requestOpcode, $0.key.code) < ($1.key.requestOpcode, $1.key.code) }
                        .map { "\(ATTOpcode.name($0.key.requestOpcode)): \(ATTErrorNames.name($0.key.code)) \($0.value)" }
                        .joined(separator: ", "))
            }
        }
        if s.events.connectionsNotListed > 0 {
            out.line("")
            out.line("\(s.events.connectionsNotListed) more connections are not listed")
        }

        for a in s.events.adapters {
            out.line("")
            out.line(a.adapter == 0xFFFF ? "adapter (system)" : "adapter hci\(a.adapter)")
            let commands = a.commands.values.reduce(0, +)
            if commands > 0 {
                out.row(
                    "commands",
                    "\(commands): " + a.commands.sorted { $0.key < $1.key }.map { "\(HCINames.command($0.key)) \($0.value)" }
                        .joined(separator: ", "))
            }
            let events = a.hciEvents.values.reduce(0, +)
            if events > 0 {
                out.row(
                    "hci events",
                    "\(events): " + a.hciEvents.sorted { $0.key < $1.key }.map { "\(Formatting.hciEvent($0.key)) \($0.value)" }
                        .joined(separator: ", "))
            }
            out.row(
                "events",
                EventType.allCases.filter { a.eventTypes[$0.ordinal] > 0 }.map { "\($0.rawValue) \(a.eventTypes[$0.ordinal])" }
                    .joined(separator: ", "))
            if a.commandLatency.count > 0 {
                out.row(
                    "latency",
                    "command → complete or status: " + quantiles(a.commandLatency, unit: "ms", scale: 1e-3, p5: false)
                        + (a.failedCommands > 0 ? "; \(a.failedCommands) failed" : ""))
            }
        }

        for d in s.readings.decoders {
            out.line("")
            var title = "decoder \(d.id): \(d.readings) readings"
            if d.payloads != d.readings { title += " (\(d.payloads) payloads)" }
            title += ", \(d.errors) decode error\(d.errors == 1 ? "" : "s"), \(d.devices) device\(d.devices == 1 ? "" : "s")"
            out.line(title)
            let numeric = d.fields.filter { $0.values.count > 0 }
            if !numeric.isEmpty {
                let width = max(12, numeric.map(\.name.count).max() ?? 0) + 2
                out.line("  " + pad("field", width) + pad("count", 9) + pad("min", 12) + pad("median", 12) + "max")
                for field in numeric {
                    let v = field.values
                    out.line(
                        "  " + pad(field.name, width) + pad("\(v.count)", 9) + pad(Formatting.short(v.minimum, significant: 7), 12)
                            + pad(v.median.map { Formatting.short($0, significant: 7) } ?? "", 12)
                            + Formatting.short(v.maximum, significant: 7) + (v.isExact ? "" : "  (median ±0.4%)"))
                }
            }
            for entry in d.rules {
                let status =
                    entry.violations == 0
                    ? "ok" : "\(entry.violations) violations (first at frame \(entry.firstFrame ?? 0))"
                out.row("rule", "\(entry.rule.name) \(entry.rule): \(entry.checked) checked, \(status)")
            }
        }
        if s.readings.undecoded > 0 {
            out.line("")
            out.line("\(s.readings.undecoded) payloads no decoder matched")
        }
        return out.text
    }

    static func quantiles(_ q: QuantileSketch, unit: String, scale: Double, p5: Bool = true) -> String {
        func value(_ v: Double?) -> String { v.map { Formatting.short($0 * scale, significant: 5) } ?? "-" }
        var parts: [String] = []
        if p5 { parts.append("p5 \(value(q.quantile(0.05)))") }
        parts.append("median \(value(q.median))")
        parts.append("p95 \(value(q.quantile(0.95)))")
        parts.append("max \(value(q.maximum))")
        return parts.joined(separator: ", ") + " \(unit)" + (q.isExact ? "" : " (±0.4%)")
    }

    static func parameters(_ p: ConnectionStatistics.Parameters) -> String {
        "interval \(Formatting.short(p.intervalMilliseconds)) ms, latency \(p.latency), timeout \(p.timeoutMilliseconds) ms"
    }

    /// A name as it came over the air, in quotes, with control characters shown as escapes.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0..<0x20, 0x7F..<0xA0: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}

/// Lines of text with labelled rows ("  label       value").
struct TextBlock {
    private(set) var text = ""

    mutating func line(_ s: String) { text += s + "\n" }

    mutating func row(_ label: String, _ value: String) {
        line("  " + label + String(repeating: " ", count: max(1, 13 - label.count)) + value)
    }
}
