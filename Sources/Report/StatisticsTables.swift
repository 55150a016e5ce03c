import BluetoothPackets
import BluetoothTracking
import Layouts
import Statistics

/// The `stats` tables as HTML.
enum StatisticsTables {
    /// Rows listed per table; the rest are counted below it.
    static let maximumRows = 500

    static func summary(_ s: CaptureStatistics, readings: Int, plots: Int, into out: inout HTMLWriter) {
        var rows: [(String, String)] = [("capture", s.info.path)]
        var format = s.info.format
        if let datalink = s.info.datalink { format += ", datalink \(datalink) (\(s.info.datalinkName))" }
        rows.append(("format", format))
        rows.append(("records", "\(s.info.records) records, \(s.events.events) events"))
        if let first = s.events.firstTimestamp, let last = s.events.lastTimestamp {
            rows.append(("span", "\(Formatting.duration(micros: last - first)): \(Formatting.utc(micros: first)) – \(Formatting.utc(micros: last))"))
        }
        let adverts = s.events.devices.reduce(0) { $0 + $1.adverts } + s.events.otherDeviceAdverts
        rows.append(("devices", "\(plural(s.events.devices.count + s.events.otherDevices, "device")), \(plural(adverts, "advert"))"))
        rows.append(("connections", "\(s.events.connections.count + s.events.connectionsNotListed)"))
        let decoders = s.readings.decoders.map { "\($0.id) \($0.readings)" }.joined(separator: ", ")
        rows.append(("readings", "\(readings)" + (decoders.isEmpty ? "" : " (\(decoders))") + ", \(plots) plots"))
        var parts: [String] = []
        if s.events.damagedRecords > 0 { parts.append(plural(s.events.damagedRecords, "damaged record")) }
        if s.events.truncated { parts.append("cut short inside its last record") }
        let damage = parts.isEmpty ? (s.info.problems.isEmpty ? "none" : "see below") : parts.joined(separator: ", ")
        rows.append(("damage", damage))
        out.raw("<table class=\"summary\">")
        for (label, value) in rows {
            out.raw("<tr><th>")
            out.text(label)
            out.raw("</th><td>")
            out.text(value)
            out.raw("</td></tr>")
        }
        out.raw("</table>")
        if !s.info.problems.isEmpty {
            out.raw("<ul class=\"problems\">")
            for problem in s.info.problems.prefix(20) { out.element("li", problem) }
            out.raw("</ul>")
        }
    }

    static func devices(_ s: CaptureStatistics, into out: inout HTMLWriter) {
        guard !s.events.devices.isEmpty else { return }
        let start = s.events.firstTimestamp ?? 0
        header(
            "Devices",
            ["address", "names", "adverts", "interval ms (p5 · median · p95)", "RSSI dBm (min · median · max)", "companies",
             "services", "decoders", "seen"],
            numeric: [], into: &out)
        for d in s.events.devices.prefix(maximumRows) {
            let kinds = d.advertsByKind.enumerated().filter { $0.element > 0 }.map { "\(Formatting.pdu($0.offset)) \($0.element)" }
            let interval = d.interval.count > 0
                ? [d.interval.quantile(0.05), d.interval.median, d.interval.quantile(0.95)].map { Formatting.milliseconds($0 ?? 0) }
                    .joined(separator: " · ")
                : ""
            var rssi = ""
            if let low = d.rssi.minimum, let median = d.rssi.median, let high = d.rssi.maximum {
                rssi = "\(low) · \(Formatting.short(median)) · \(high)"
            }
            let decoders = s.readings.decoders(of: d.address).map { "\($0.id) \($0.readings)" }.joined(separator: ", ")
            row(
                [
                    d.address.description + (d.addressType.map { " (\($0.name))" } ?? ""),
                    d.names.joined(separator: ", "), "\(d.adverts)" + (kinds.isEmpty ? "" : ": " + kinds.joined(separator: ", ")),
                    interval, rssi, d.companies.map(Formatting.company).joined(separator: ", "),
                    d.serviceUUIDs.map(Formatting.uuid).joined(separator: ", "), decoders,
                    "\(Formatting.duration(micros: d.firstSeen - start)) – \(Formatting.duration(micros: d.lastSeen - start))",
                ], numeric: [], into: &out)
        }
        footer(notListed: max(0, s.events.devices.count - maximumRows) + s.events.otherDevices, "devices", into: &out)
    }

    static func connections(_ s: CaptureStatistics, into out: inout HTMLWriter) {
        guard !s.events.connections.isEmpty else { return }
        let start = s.events.firstTimestamp ?? 0
        header(
            "Connections",
            ["conn", "peer", "time", "parameters", "link", "ATT PDUs", "values / s", "value bytes / s (sent · received)",
             "response ms (median · p95 · max)", "ATT errors", "disconnect"],
            numeric: [], into: &out)
        for c in s.events.connections.prefix(maximumRows) {
            let from = c.start.map { Formatting.duration(micros: $0 - start) } ?? "before the capture"
            let to = c.end.map { Formatting.duration(micros: $0 - start) } ?? "end"
            var parameters = c.initialParameters.map(Self.parameters) ?? ""
            if c.updateCount > 0 {
                parameters += "; \(c.updateCount) update\(c.updateCount == 1 ? "" : "s")"
                if let last = c.updates.last { parameters += ", last " + Self.parameters(last) }
            }
            var link: [String] = []
            if let tx = c.txPHY, let rx = c.rxPHY { link.append("PHY \(Formatting.phy(tx)) / \(Formatting.phy(rx))") }
            if let tx = c.maxTxOctets, let rx = c.maxRxOctets { link.append("DL \(tx) / \(rx)") }
            if let mtu = c.mtu { link.append("MTU \(mtu)") }
            link.append(c.encrypted ? "encrypted" + (c.keySize.map { " (\($0))" } ?? "") : "plain")
            let pdus = c.opcodes.values.reduce(0, +)
            let seconds = Double(c.duration) / 1e6
            let rates = seconds > 0
                ? "\(Formatting.short(Double(c.notifications) / seconds, significant: 3)) notify, "
                    + "\(Formatting.short(Double(c.indications) / seconds, significant: 3)) indicate"
                : ""
            let bytes = seconds > 0
                ? "\(Formatting.short(Double(c.bytesSent) / seconds, significant: 3)) · "
                    + "\(Formatting.short(Double(c.bytesReceived) / seconds, significant: 3))" : ""
            let latency = c.latency.count > 0
                ? [c.latency.median, c.latency.quantile(0.95), c.latency.maximum].map { Formatting.milliseconds($0 ?? 0) }
                    .joined(separator: " · ") : ""
            let errors = errorSummary(c.errors)
            row(
                [
                    "\(c.handle)" + (s.events.adapters.count > 1 ? " (hci\(c.adapter))" : ""),
                    (c.peer?.description ?? "") + (c.role.map { ", as \($0)" } ?? ""),
                    "\(from) – \(to) (\(Formatting.duration(micros: c.duration)))", parameters, link.joined(separator: ", "),
                    "\(pdus)", rates, bytes, latency, errors, c.disconnectReason.map(HCINamesText.error) ?? "",
                ], numeric: [], into: &out)
        }
        footer(notListed: max(0, s.events.connections.count - maximumRows) + s.events.connectionsNotListed, "connections", into: &out)

        // Attributes per connection.
        let withAttributes = s.events.connections.filter { !$0.attributes.isEmpty }
        guard !withAttributes.isEmpty else { return }
        header("Attributes per connection", ["conn", "attribute", "reads", "writes", "notifications", "indications", "bytes"], numeric: [2, 3, 4, 5, 6], into: &out)
        var rows = 0
        for c in withAttributes {
            for (key, counts) in c.attributes.sorted(by: { $0.key < $1.key }) where rows < maximumRows {
                rows += 1
                row(
                    ["\(c.handle)", Formatting.attribute(key), "\(counts.reads)", "\(counts.writes)", "\(counts.notifications)",
                     "\(counts.indications)", "\(counts.bytes)"], numeric: [2, 3, 4, 5, 6], into: &out)
            }
        }
        footer(notListed: 0, "", into: &out)
    }

    static func adapters(_ s: CaptureStatistics, into out: inout HTMLWriter) {
        guard !s.events.adapters.isEmpty else { return }
        header("Adapters", ["adapter", "HCI commands", "HCI events", "events by type", "command → answer ms (median · p95 · max)"], numeric: [], into: &out)
        for a in s.events.adapters {
            let commands = a.commands.sorted { $0.key < $1.key }.map { "\(HCINames.command($0.key)) \($0.value)" }.joined(separator: ", ")
            let events = a.hciEvents.sorted { $0.key < $1.key }.map { "\(Formatting.hciEvent($0.key)) \($0.value)" }.joined(separator: ", ")
            let types = EventType.allCases.filter { a.eventTypes[$0.ordinal] > 0 }.map { "\($0.rawValue) \(a.eventTypes[$0.ordinal])" }
                .joined(separator: ", ")
            let latency = a.commandLatency.count > 0
                ? [a.commandLatency.median, a.commandLatency.quantile(0.95), a.commandLatency.maximum]
                    .map { Formatting.milliseconds($0 ?? 0) }.joined(separator: " · ") + (a.failedCommands > 0 ? "; \(a.failedCommands) failed" : "")
                : ""
            row([a.adapter == 0xFFFF ? "system" : "hci\(a.adapter)", commands, events, types, latency], numeric: [], into: &out)
        }
        footer(notListed: 0, "", into: &out)
    }

    static func decoders(_ s: CaptureStatistics, into out: inout HTMLWriter) {
        guard !s.readings.decoders.isEmpty else { return }
        header("Readings per decoder", ["decoder", "field", "values", "min", "median", "max"], numeric: [2, 3, 4, 5], into: &out)
        for d in s.readings.decoders {
            var title = "\(d.readings) readings"
            if d.payloads != d.readings { title += " (\(d.payloads) payloads)" }
            title += ", \(plural(d.errors, "decode error")), \(plural(d.devices, "device"))"
            out.raw("<tr class=\"group\"><td>")
            out.text(d.id)
            out.raw("</td><td colspan=\"5\">")
            out.text(title)
            out.raw("</td></tr>")
            for field in d.fields where field.values.count > 0 {
                let v = field.values
                row(
                    ["", field.name, "\(v.count)", Formatting.short(v.minimum, significant: 7),
                     (v.median.map { Formatting.short($0, significant: 7) } ?? "") + (v.isExact ? "" : " ±0.4%"),
                     Formatting.short(v.maximum, significant: 7)], numeric: [2, 3, 4, 5], into: &out)
            }
        }
        footer(notListed: 0, "", into: &out)
        let rules = s.readings.decoders.flatMap { d in d.rules.map { (d.id, $0) } }
        guard !rules.isEmpty else { return }
        header("Layout rules", ["decoder", "rule", "checked", "violations", "first at frame"], numeric: [2, 3, 4], into: &out)
        for (id, entry) in rules {
            row(
                [id, "\(entry.rule.name) \(entry.rule)", "\(entry.checked)", "\(entry.violations)", entry.firstFrame.map(String.init) ?? ""],
                numeric: [2, 3, 4], into: &out, highlight: entry.violations > 0)
        }
        footer(notListed: 0, "", into: &out)
    }

    static func violations(_ track: ReadingTrack, into out: inout HTMLWriter) {
        guard track.violationCount > 0 else { return }
        header("Rule violations", ["frame", "device", "decoder", "field", "rule", "what"], numeric: [0], into: &out)
        for v in track.violations {
            row(["\(v.frame)", v.device, v.decoder, v.field ?? "", v.rule, v.message], numeric: [0], into: &out)
        }
        footer(notListed: track.violationCount - track.violations.count, "violations", into: &out)
    }

    static func golden(_ track: ReadingTrack, into out: inout HTMLWriter) {
        guard track.differenceCount > 0 else { return }
        header("Differences from the golden", ["frame", "device", "decoder", "kind", "fields"], numeric: [0], into: &out)
        for d in track.differences {
            let kind =
                switch d.kind {
                case .changed: "changed"
                case .added: "not in the golden"
                case .missing: "in the golden only"
                }
            row(
                ["\(d.frame)", d.address ?? "", d.decoder, kind, d.fields.map { "\($0.name): \($0.text)" }.joined(separator: "; ")],
                numeric: [0], into: &out)
        }
        footer(notListed: track.differenceCount - track.differences.count, "differences", into: &out)
    }

    /// A connection's ATT errors, most frequent first; equal counts in opcode and code order, not
    /// the dictionary's (which changes from run to run).
    static func errorSummary(_ errors: [ConnectionStatistics.ATTError: Int]) -> String {
        errors.sorted {
            ($1.value, $0.key.requestOpcode, $0.key.code) < ($0.value, $1.key.requestOpcode, $1.key.code)
        }.map {
            "\(ATTOpcode.name($0.key.requestOpcode)): \(ATTErrorNames.name($0.key.code)) \($0.value)"
        }.joined(separator: ", ")
    }

    static func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func parameters(_ p: ConnectionStatistics.Parameters) -> String {
        "\(Formatting.short(p.intervalMilliseconds)) ms, latency \(p.latency), timeout \(p.timeoutMilliseconds) ms"
    }

    // MARK: Table markup

    static func header(_ title: String, _ columns: [String], numeric: Set<Int>, into out: inout HTMLWriter) {
        out.raw("<h4>")
        out.text(title)
        out.raw("</h4><div class=\"table\"><table><thead><tr>")
        for (i, column) in columns.enumerated() { out.element("th", column, class: numeric.contains(i) ? "n" : nil) }
        out.raw("</tr></thead><tbody>")
    }

    static func row(_ cells: [String], numeric: Set<Int>, into out: inout HTMLWriter, highlight: Bool = false) {
        out.raw(highlight ? "<tr class=\"bad\">" : "<tr>")
        for (i, cell) in cells.enumerated() { out.element("td", cell, class: numeric.contains(i) ? "n" : nil) }
        out.raw("</tr>")
    }

    static func footer(notListed: Int, _ noun: String, into out: inout HTMLWriter) {
        out.raw("</tbody></table></div>")
        if notListed > 0 {
            out.raw("<p class=\"muted\">")
            out.text("\(notListed) more \(noun) are not listed.")
            out.raw("</p>")
        }
    }
}
