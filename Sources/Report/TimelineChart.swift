#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import BluetoothPackets
import Statistics

/// The connections of each device as a Gantt strip over capture time, its adverts as ticks above.
struct TimelineChart {
    static let maximumRows = 48

    var devices: [EventTrack.DeviceTrack]
    var start: Int64

    func render(_ axis: TimeAxis, into out: inout HTMLWriter) {
        let rows = Array(devices.prefix(Self.maximumRows))
        guard !rows.isEmpty else { return }
        let rowHeight = 22.0
        var frame = PlotFrame(width: 1000, height: 0, left: 230, right: 14, top: 6, bottom: 36)
        frame.height = frame.top + frame.bottom + rowHeight * Double(rows.count)
        out.raw("<figure class=\"timeline\"><svg viewBox=\"0 0 \(Int(frame.width)) \(Int(frame.height))\" role=\"img\" aria-label=\"connections and adverts per device\">")
        for (row, device) in rows.enumerated() {
            let top = frame.top + Double(row) * rowHeight
            if row % 2 == 1 {
                out.raw("<rect x=\"0\" y=\"\(HTMLWriter.coordinate(top))\" width=\"\(Int(frame.width))\" height=\"\(Int(rowHeight))\" fill=\"#f6f7f9\"/>")
            }
            out.raw("<text x=\"6\" y=\"\(HTMLWriter.coordinate(top + rowHeight / 2))\" dominant-baseline=\"middle\" class=\"mono\">")
            out.text(device.address.description)
            out.raw("</text>")
            if let name = device.name {
                out.raw("<text x=\"134\" y=\"\(HTMLWriter.coordinate(top + rowHeight / 2))\" dominant-baseline=\"middle\">")
                out.text(name.count > 14 ? String(name.prefix(13)) + "…" : name)
                out.raw("</text>")
            }
            // Adverts: one tick per column with any, darker for more.
            let columns = device.advertTimes.columns(shift: axis.shift)
            if !columns.isEmpty {
                let most = Double(columns.map(\.cell.count).max() ?? 1)
                out.raw("<g class=\"adverts\" stroke=\"\(Palette.advert)\" stroke-width=\"1.2\">")
                // Written piece by piece: a busy capture has tens of thousands of these.
                let ys = "\" y1=\"\(HTMLWriter.coordinate(top + 3))\" y2=\"\(HTMLWriter.coordinate(top + 10))\" stroke-opacity=\""
                let logMost = log(1 + most)
                for (index, cell) in columns {
                    let x = axis.x(index << Int64(axis.shift), frame) + 0.5
                    let opacity = 0.35 + 0.65 * log(1 + Double(cell.count)) / logMost
                    out.raw("<line x1=\"")
                    out.number(x)
                    out.raw("\" x2=\"")
                    out.number(x)
                    out.raw(ys)
                    out.fixed(opacity, 2)
                    out.raw("\"/>")
                }
                out.raw("</g>")
            }
            for span in device.spans {
                let from = span.start ?? span.firstSeen
                let to = span.end ?? span.lastSeen
                let x0 = axis.x(from, frame)
                let width = max(axis.x(to, frame) - x0, 1.5)
                out.raw("<rect class=\"connection\" x=\"\(HTMLWriter.coordinate(x0))\" y=\"\(HTMLWriter.coordinate(top + 12))\" width=\"\(HTMLWriter.coordinate(width))\" height=\"7\" rx=\"1.5\" fill=\"\(Palette.connection)\"><title>")
                var text = "connection \(span.handle): "
                text += span.start.map { Formatting.duration(micros: $0 - start) } ?? "before the capture"
                text += " – " + (span.end.map { Formatting.duration(micros: $0 - start) } ?? "end of capture")
                text += " (\(Formatting.duration(micros: to - from)))"
                if let reason = span.reason { text += ", disconnect: \(HCINamesText.error(reason))" }
                if span.merged > 0 { text += ", and \(span.merged) later connections drawn as one bar" }
                out.text(text)
                out.raw("</title></rect>")
            }
        }
        Axes.timeAxis(axis, frame, into: &out)
        out.raw("</svg>")
        out.raw("<ul class=\"legend\"><li><span class=\"tick\" style=\"background:\(Palette.advert)\"></span>adverts (one tick per column, darker for more)</li>")
        out.raw("<li><span class=\"swatch\" style=\"background:\(Palette.connection)\"></span>connected</li></ul>")
        if devices.count > rows.count {
            out.raw("<p class=\"muted\">")
            out.text("\(devices.count - rows.count) more devices are not drawn here; the tables list them.")
            out.raw("</p>")
        }
        out.raw("</figure>\n")
    }
}

/// HCI error names for tooltips.
enum HCINamesText {
    static func error(_ code: UInt8) -> String { "\(HCINames.error(code)) (0x\(Formatting.hex(UInt64(code), 2)))" }
}
