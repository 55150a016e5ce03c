import BluetoothPackets
import Statistics

/// What the report shows of one capture.
public struct CaptureReport: Sendable {
    public var statistics: CaptureStatistics
    public var events: EventTrack
    public var readings: ReadingTrack

    public init(statistics: CaptureStatistics, events: EventTrack, readings: ReadingTrack) {
        self.statistics = statistics
        self.events = events
        self.readings = readings
    }
}

/// The report: one self-contained HTML file (its style and script inline, nothing loaded from
/// anywhere) with a section per capture.
public enum ReportPage {
    /// The size the page aims to stay under: plots get fewer columns until it does.
    public static let sizeLimit = 4_800_000
    /// Column counts tried, finest first: a column is at least a pixel of the plots' data area.
    static let columnChoices = [512, 256, 128, 64, 32]
    /// Histograms drawn per kind and capture.
    static let maximumHistograms = 64
    /// RSSI plots drawn per capture.
    static let maximumRSSIPlots = 64

    /// The page. `generated` says what made it (shown in the header).
    public static func render(_ captures: [CaptureReport], generated: String, limit: Int = sizeLimit) -> [UInt8] {
        // Everything but the plots is the same at any column width: made once.
        var fixed: [(head: HTMLWriter, tail: HTMLWriter)] = []
        for (i, capture) in captures.enumerated() {
            var head = HTMLWriter()
            var tail = HTMLWriter()
            head.raw("<section class=\"capture\" id=\"capture-\(i + 1)\"")
            head.raw(" data-start=\"\((capture.statistics.events.firstTimestamp ?? 0) / 1000)\">")
            head.raw("<h2>")
            head.text(capture.statistics.info.path)
            head.raw("</h2>")
            StatisticsTables.summary(
                capture.statistics, readings: capture.readings.readings, plots: capture.readings.plots.count, into: &head)
            histograms(capture, into: &tail)
            StatisticsTables.violations(capture.readings, into: &tail)
            StatisticsTables.golden(capture.readings, into: &tail)
            tail.raw("<h3>Statistics</h3>")
            StatisticsTables.devices(capture.statistics, into: &tail)
            StatisticsTables.connections(capture.statistics, into: &tail)
            StatisticsTables.adapters(capture.statistics, into: &tail)
            StatisticsTables.decoders(capture.statistics, into: &tail)
            tail.raw("</section>\n")
            fixed.append((head, tail))
        }
        var page = HTMLWriter()
        for columns in columnChoices {
            page = HTMLWriter(capacity: 1 << 20)
            header(captures, generated: generated, into: &page)
            for (i, capture) in captures.enumerated() {
                page.raw(fixed[i].head)
                plots(capture, columns: columns, into: &page)
                page.raw(fixed[i].tail)
            }
            footer(into: &page)
            if page.count <= limit { break }
        }
        return page.bytes
    }

    static func header(_ captures: [CaptureReport], generated: String, into out: inout HTMLWriter) {
        let title =
            captures.count == 1
            ? "Bluetape report: \(captures[0].statistics.info.path)" : "Bluetape report: \(captures.count) captures"
        out.raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        // Nothing may load from anywhere: only the inline style and script run.
        out.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">")
        out.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>")
        out.text(title)
        out.raw("</title><style>\(PageAssets.style)</style></head><body><header><h1>")
        out.text(title)
        out.raw("</h1><p class=\"muted\">")
        out.text(generated)
        out.raw("</p>")
        if captures.count > 1 {
            out.raw("<nav><ol>")
            for (i, capture) in captures.enumerated() {
                out.raw("<li><a href=\"#capture-\(i + 1)\">")
                out.text(capture.statistics.info.path)
                out.raw("</a></li>")
            }
            out.raw("</ol></nav>")
        }
        out.raw("</header><main>\n")
    }

    static func footer(into out: inout HTMLWriter) {
        out.raw("</main><div id=\"tip\" hidden></div>")
        out.raw("<output id=\"self-check\" hidden></output>")
        out.raw("<script>\(PageAssets.script)</script></body></html>\n")
    }

    /// The timeline, the readings' plots and the RSSI plots, at `columns` columns per capture span.
    static func plots(_ capture: CaptureReport, columns: Int, into out: inout HTMLWriter) {
        guard let first = capture.statistics.events.firstTimestamp, let last = capture.statistics.events.lastTimestamp
        else { return }
        let shift = Downsample.columnShift(first...last, columns: columns)
        let axis = TimeAxis(first: first, last: last, shift: shift)
        // The line charts' time axis, the same in each: written once.
        var timeAxis = HTMLWriter(capacity: 4096)
        Axes.timeAxis(axis, PlotFrame(), into: &timeAxis)
        let devices = capture.events.devices.sorted { $0.firstSeen < $1.firstSeen }
        if !devices.isEmpty {
            out.raw("<h3>Timeline</h3>")
            TimelineChart(devices: devices, start: first).render(axis, into: &out)
        }
        let names = Dictionary(
            capture.statistics.events.devices.compactMap { d in d.names.first.map { (d.address, $0) } },
            uniquingKeysWith: { a, _ in a })

        if !capture.readings.plots.isEmpty {
            out.raw("<h3>Readings</h3>")
            if columns < columnChoices[0] { downsampleNote(axis, into: &out) }
            // Grouped by device, in the order the devices' readings first came.
            var order: [BluetoothAddress?] = []
            var byDevice: [BluetoothAddress?: [ReadingTrack.Plot]] = [:]
            for plot in capture.readings.plots {
                if byDevice[plot.device] == nil { order.append(plot.device) }
                byDevice[plot.device, default: []].append(plot)
            }
            for device in order {
                let plots = byDevice[device]!
                let address = device?.description ?? "no address"
                out.raw("<section class=\"device\"")
                out.attribute("data-device", address)
                out.raw("><h4>")
                out.text(address)
                if let device, let name = names[device] { out.raw(" <span class=\"name\">"); out.text(name); out.raw("</span>") }
                let decoders = Set(plots.flatMap { $0.seriesIndices.map { capture.readings.series[$0].decoder } }).sorted()
                out.raw(" <span class=\"muted\">")
                out.text(decoders.joined(separator: ", "))
                out.raw("</span></h4><div class=\"plots\">")
                for plot in plots {
                    let series = plot.seriesIndices.map { capture.readings.series[$0] }.enumerated().map { i, s in
                        LineSeries(
                            name: s.decoder, colour: Palette.series(i), grid: s.values, minimum: s.minimum, maximum: s.maximum,
                            count: s.count, gap: gap(s.spacing, shift: shift), markers: s.markers, markerCounts: s.markerCounts)
                    }
                    LineChart(
                        kind: "reading", device: address, field: plot.field, title: plot.field, unit: plot.unit, series: series
                    ).render(axis, timeAxis: timeAxis, into: &out)
                }
                out.raw("</div></section>\n")
            }
            if capture.readings.valuesNotDrawn > 0 {
                out.raw("<p class=\"muted\">")
                out.text("\(capture.readings.valuesNotDrawn) values of further fields are not drawn (at most \(ReadingTrack.maximumSeries) series per capture).")
                out.raw("</p>")
            }
        }

        let withRSSI = capture.events.devices.filter { !$0.rssi.isEmpty }.sorted { $0.adverts > $1.adverts }
        if !withRSSI.isEmpty {
            out.raw("<h3>RSSI</h3><div class=\"plots\">")
            for device in withRSSI.prefix(maximumRSSIPlots) {
                let values = capture.statistics.events.device(device.address)?.rssi
                let grid = device.rssi
                var title = device.address.description
                if let name = names[device.address] ?? device.name { title += " " + name }
                let series = LineSeries(
                    name: "RSSI", colour: Palette.series(0), grid: grid, minimum: Double(values?.minimum ?? -127),
                    maximum: Double(values?.maximum ?? 20), count: device.adverts,
                    gap: gap(capture.statistics.events.device(device.address)?.intervalHistogram ?? LogHistogram(), shift: shift))
                LineChart(kind: "rssi", device: device.address.description, field: "rssi", title: title, unit: "dBm", series: [series])
                    .render(axis, timeAxis: timeAxis, into: &out)
            }
            out.raw("</div>")
            if withRSSI.count > maximumRSSIPlots {
                out.raw("<p class=\"muted\">")
                out.text("\(withRSSI.count - maximumRSSIPlots) devices with fewer adverts have no RSSI plot here.")
                out.raw("</p>")
            }
        }
    }

    /// Where a line breaks: ten typical spacings without a value, and never within three columns.
    static func gap(_ spacing: LogHistogram, shift: Int) -> Int64 {
        let columns: Int64 = 3 << Int64(shift)
        guard let median = spacing.quantile(0.5) else { return .max }
        return max(columns, Int64(min(median * 10, 9e18)))
    }

    static func downsampleNote(_ axis: TimeAxis, into out: inout HTMLWriter) {
        out.raw("<p class=\"muted\">")
        out.text(
            "Downsampled to keep this file small: each column of a plot is \(Formatting.duration(micros: 1 << Int64(axis.shift))) wide, "
                + "and its lowest and highest values are drawn.")
        out.raw("</p>")
    }

    /// Advertising intervals per device, and notification intervals per connected device.
    static func histograms(_ capture: CaptureReport, into out: inout HTMLWriter) {
        let advertising = capture.statistics.events.devices.filter { $0.intervalHistogram.count > 0 }
        var notifications: [BluetoothAddress?: LogHistogram] = [:]
        var order: [BluetoothAddress?] = []
        for connection in capture.statistics.events.connections where connection.notificationIntervals.count > 0 {
            if notifications[connection.peer] == nil { order.append(connection.peer) }
            notifications[connection.peer, default: LogHistogram()].merge(connection.notificationIntervals)
        }
        guard !advertising.isEmpty || !order.isEmpty else { return }
        out.raw("<h3>Intervals</h3>")
        if !advertising.isEmpty {
            out.raw("<h4>Advertising interval per device</h4><div class=\"plots small\">")
            for device in advertising.prefix(maximumHistograms) {
                var title = device.address.description
                if let name = device.names.first { title += " " + name }
                if let median = device.interval.median { title += " · median \(Formatting.milliseconds(median)) ms" }
                HistogramChart(
                    kind: "advertising", device: device.address.description, title: title,
                    histogram: device.intervalHistogram, colour: Palette.series(0)
                ).render(into: &out)
            }
            out.raw("</div>")
        }
        if !order.isEmpty {
            out.raw("<h4>Notification and indication interval per device</h4><div class=\"plots small\">")
            for peer in order.prefix(maximumHistograms) {
                let histogram = notifications[peer]!
                var title = peer?.description ?? "unknown peer"
                if let median = histogram.quantile(0.5) { title += " · median ≈ \(Formatting.short(median / 1000, significant: 3)) ms" }
                HistogramChart(
                    kind: "notification", device: peer?.description ?? "", title: title, histogram: histogram,
                    colour: Palette.series(1)
                ).render(into: &out)
            }
            out.raw("</div>")
        }
    }
}
