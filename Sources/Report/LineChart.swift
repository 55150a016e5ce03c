import JSON
import Statistics

/// Colours: the Okabe–Ito palette, told apart with the common colour-vision deficiencies and
/// readable on white. Markers use colours the series do not.
enum Palette {
    static let series = ["#0072B2", "#009E73", "#E69F00", "#56B4E9", "#444444", "#CC79A7"]
    static let violation = "#D55E00"
    static let golden = "#7B3294"
    static let grid = "#e6e6e6"
    static let axis = "#888888"
    static let text = "#333333"
    static let advert = "#56B4E9"
    static let connection = "#0072B2"

    static func series(_ i: Int) -> String { series[i % series.count] }
}

/// A plot's frame: the SVG's size and where its data area is, in SVG units (pixels at 100%).
struct PlotFrame: Equatable {
    var width = 640.0
    var height = 210.0
    var left = 64.0
    var right = 14.0
    var top = 10.0
    var bottom = 36.0

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }
}

/// The time axis every plot of a capture shares: its range, aligned on columns 2^shift µs wide,
/// and where elapsed time is counted from.
struct TimeAxis {
    var start: Int64
    var low: Int64
    var high: Int64
    var shift: Int

    /// Columns of 2^shift µs covering [first, last].
    init(first: Int64, last: Int64, shift: Int) {
        start = first
        self.shift = shift
        low = (first >> Int64(shift)) << Int64(shift)
        high = ((last >> Int64(shift)) + 1) << Int64(shift)
    }

    func x(_ time: Int64, _ frame: PlotFrame) -> Double {
        frame.left + Double(time - low) / Double(max(high - low, 1)) * frame.plotWidth
    }

    /// Milliseconds from the capture start.
    func milliseconds(_ time: Int64) -> Int64 { (time - start).floorDivided(by: 1000) }
}

/// One line of a plot.
struct LineSeries {
    var name: String
    var colour: String
    var grid: ColumnGrid<MinMaxCell>
    var minimum: Double
    var maximum: Double
    var count: Int
    /// µs between two values beyond which the line breaks.
    var gap: Int64
    var markers: [ColumnGrid<MarkerCell>] = []
    var markerCounts: [Int] = []
}

/// A line chart of values over capture time: the series downsampled per pixel column, markers
/// on the curve, nice ticks on both axes, the data for the hover as attributes.
struct LineChart {
    var kind: String
    var device: String
    var field: String
    var title: String
    var unit: String?
    var series: [LineSeries]
    var frame = PlotFrame()

    /// Points drawn at this column width.
    func points(_ axis: TimeAxis) -> [[Downsample.Point]] {
        series.map { Downsample.points($0.grid, shift: axis.shift, gap: $0.gap) }
    }

    /// `timeAxis`: the markup of `Axes.timeAxis` for `axis` in a default frame, when the caller
    /// has it: every chart of a capture shares its axis, and writing it took a tenth of the page.
    func render(_ axis: TimeAxis, timeAxis: HTMLWriter? = nil, into out: inout HTMLWriter) {
        let drawn = points(axis)
        var low = series.map(\.minimum).min() ?? 0
        var high = series.map(\.maximum).max() ?? 1
        var markerCells: [[[(index: Int64, cell: MarkerCell)]]] = []
        for s in series {
            let cells = s.markers.map { $0.columns(shift: axis.shift) }
            for kind in cells { for (_, cell) in kind { low = min(low, cell.first.value); high = max(high, cell.first.value) } }
            markerCells.append(cells)
        }
        let yTicks = Ticks.linear(low, high, target: max(2, Int(frame.plotHeight / 40)), extend: true)
        func y(_ value: Double) -> Double {
            frame.top + (1 - (value - yTicks.low) / max(yTicks.high - yTicks.low, .leastNonzeroMagnitude)) * frame.plotHeight
        }

        out.raw("<figure class=\"plot \(kind)\"")
        out.attribute("data-device", device)
        out.attribute("data-field", field)
        out.raw("><figcaption>")
        out.text(title)
        if let unit { out.raw(" <span class=\"unit\">("); out.text(unit); out.raw(")</span>") }
        out.raw("</figcaption>")
        out.raw("<svg viewBox=\"0 0 \(Int(frame.width)) \(Int(frame.height))\" role=\"img\"")
        out.attribute("aria-label", title)
        out.raw(" data-box=\"\(HTMLWriter.coordinate(frame.left)) \(HTMLWriter.coordinate(frame.top)) ")
        out.raw("\(HTMLWriter.coordinate(frame.plotWidth)) \(HTMLWriter.coordinate(frame.plotHeight))\"")
        out.raw(" data-x=\"\(axis.milliseconds(axis.low)) \(axis.milliseconds(axis.high))\"")
        out.raw(" data-y=\"\(yTicks.low) \(yTicks.high)\"")
        if let unit { out.attribute("data-unit", unit) }
        out.raw(">")
        Axes.valueAxis(yTicks, y: y, frame, into: &out)
        if let timeAxis, frame == PlotFrame() { out.raw(timeAxis) } else { Axes.timeAxis(axis, frame, into: &out) }
        if let unit { Axes.valueTitle(unit, frame, into: &out) }

        for (i, s) in series.enumerated() {
            Self.line(drawn[i], s, axis, frame, y, into: &out)
        }
        for (i, s) in series.enumerated() {
            for (kind, cells) in markerCells[i].enumerated() {
                for (_, cell) in cells {
                    Self.marker(Marker.Kind(rawValue: kind)!, cell, s.name, axis, frame, y, into: &out)
                }
            }
        }
        out.raw("</svg>")
        legend(into: &out)
        out.raw("</figure>\n")
    }

    /// The series as a polyline broken at gaps, dots where values are sparse or alone, and the
    /// hover's data: times (ms from the capture start), values and frames, delta-encoded.
    static func line(
        _ drawn: [Downsample.Point], _ s: LineSeries, _ axis: TimeAxis, _ frame: PlotFrame, _ y: (Double) -> Double,
        into out: inout HTMLWriter
    ) {
        let points = drawn.map(\.value)
        out.raw("<g class=\"series\"")
        out.attribute("data-name", s.name)
        out.raw(" data-points=\"\(points.count)\" data-count=\"\(s.count)\" stroke=\"\(s.colour)\" fill=\"\(s.colour)\"")
        var times = JSONWriter(capacity: points.count * 4)
        var values = JSONWriter(capacity: points.count * 6)
        var frames = JSONWriter(capacity: points.count * 4)
        var lastTime: Int64 = 0
        var lastFrame = 0
        for (i, p) in points.enumerated() {
            if i > 0 {
                times.byte(UInt8(ascii: ","))
                values.byte(UInt8(ascii: ","))
                frames.byte(UInt8(ascii: ","))
            }
            let ms = axis.milliseconds(p.time)
            times.integer(ms - lastTime)
            lastTime = ms
            values.hoverValue(p.value)
            frames.integer(Int64(p.frame - lastFrame))
            lastFrame = p.frame
        }
        out.raw(" data-t=\"")
        out.raw(times)
        out.raw("\" data-v=\"")
        out.raw(values)
        out.raw("\" data-f=\"")
        out.raw(frames)
        out.raw("\">")
        var path = JSONWriter(capacity: points.count * 12)
        var dots = JSONWriter(capacity: 1 << 12)
        let xs = points.map { axis.x($0.time, frame) }
        for (i, p) in points.enumerated() {
            let x = xs[i]
            let yy = y(p.value)
            let breakBefore = drawn[i].breakBefore
            let breakAfter = i == points.count - 1 || drawn[i + 1].breakBefore
            path.byte(breakBefore ? UInt8(ascii: "M") : UInt8(ascii: "L"))
            path.number(x)
            path.byte(UInt8(ascii: " "))
            path.number(yy)
            // A dot where values stand apart, and where one stands alone between gaps.
            let room = min(i > 0 ? x - xs[i - 1] : .infinity, i < xs.count - 1 ? xs[i + 1] - x : .infinity)
            if (breakBefore && breakAfter) || room >= 6 {
                dots.raw("<circle cx=\"")
                dots.number(x)
                dots.raw("\" cy=\"")
                dots.number(yy)
                dots.raw("\" r=\"2.5\"/>")
            }
        }
        if !points.isEmpty {
            out.raw("<path class=\"line\" fill=\"none\" stroke-width=\"1.5\" stroke-linejoin=\"round\" d=\"")
            out.raw(path)
            out.raw("\"/>")
        }
        out.raw(dots)
        out.raw("</g>")
    }

    static func marker(
        _ kind: Marker.Kind, _ cell: MarkerCell, _ series: String, _ axis: TimeAxis, _ frame: PlotFrame,
        _ y: (Double) -> Double, into out: inout HTMLWriter
    ) {
        let x = axis.x(cell.first.time, frame)
        let yy = y(cell.first.value)
        let cx = HTMLWriter.coordinate(x)
        let cy = HTMLWriter.coordinate(yy)
        switch kind {
        case .violation:
            out.raw("<path class=\"marker violation\" fill=\"\(Palette.violation)\" d=\"M\(cx) \(HTMLWriter.coordinate(yy - 6))l5 9h-10z\">")
        case .goldenChanged:
            out.raw("<path class=\"marker golden\" fill=\"\(Palette.golden)\" d=\"M\(cx) \(HTMLWriter.coordinate(yy - 5))l5 5-5 5-5-5z\">")
        case .goldenAdded:
            out.raw("<path class=\"marker golden\" stroke=\"\(Palette.golden)\" stroke-width=\"2\" fill=\"none\" d=\"M\(HTMLWriter.coordinate(x - 5)) \(cy)h10M\(cx) \(HTMLWriter.coordinate(yy - 5))v10\">")
        case .goldenMissing:
            out.raw("<circle class=\"marker golden\" stroke=\"\(Palette.golden)\" stroke-width=\"1.5\" fill=\"white\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"4\">")
        }
        out.raw("<title>")
        out.text("frame \(cell.first.frame), \(series): \(cell.first.text)")
        if cell.count > 1 { out.text(" (and \(cell.count - 1) more in this column)") }
        out.raw("</title>")
        out.raw(kind == .goldenMissing ? "</circle>" : "</path>")
    }

    func legend(into out: inout HTMLWriter) {
        out.raw("<ul class=\"legend\">")
        for s in series {
            out.raw("<li><span class=\"swatch\" style=\"background:\(s.colour)\"></span>")
            out.text(s.name)
            out.raw(" <span class=\"muted\">")
            out.text("\(s.count) value\(s.count == 1 ? "" : "s")")
            out.raw("</span></li>")
        }
        let totals = Marker.Kind.allCases.map { kind in series.reduce(0) { $0 + ($1.markerCounts.isEmpty ? 0 : $1.markerCounts[kind.rawValue]) } }
        let names: [(Marker.Kind, String, String)] = [
            (.violation, "<span class=\"sym\" style=\"color:\(Palette.violation)\">▲</span>", "rule violations"),
            (.goldenChanged, "<span class=\"sym\" style=\"color:\(Palette.golden)\">◆</span>", "differs from the golden"),
            (.goldenAdded, "<span class=\"sym\" style=\"color:\(Palette.golden)\">+</span>", "not in the golden"),
            (.goldenMissing, "<span class=\"sym\" style=\"color:\(Palette.golden)\">○</span>", "in the golden only"),
        ]
        for (kind, symbol, text) in names where totals[kind.rawValue] > 0 {
            out.raw("<li>\(symbol)")
            out.text("\(text) (\(totals[kind.rawValue]))")
            out.raw("</li>")
        }
        out.raw("</ul>")
    }
}
