/// The axes of the plots: grid lines, ticks, labels and titles.
enum Axes {
    /// Horizontal grid lines with their values on the left.
    static func valueAxis(_ ticks: Ticks, y: (Double) -> Double, _ frame: PlotFrame, into out: inout HTMLWriter) {
        out.raw("<g class=\"axis y\">")
        for (value, label) in zip(ticks.values, ticks.labels) {
            let yy = HTMLWriter.coordinate(y(value))
            out.raw("<line x1=\"\(HTMLWriter.coordinate(frame.left))\" x2=\"\(HTMLWriter.coordinate(frame.width - frame.right))\" ")
            out.raw("y1=\"\(yy)\" y2=\"\(yy)\" stroke=\"\(Palette.grid)\"/>")
            out.raw("<text x=\"\(HTMLWriter.coordinate(frame.left - 6))\" y=\"\(yy)\" text-anchor=\"end\" dominant-baseline=\"middle\">")
            out.text(label)
            out.raw("</text>")
        }
        out.raw("</g>")
    }

    /// The unit, rotated, left of the value labels.
    static func valueTitle(_ unit: String, _ frame: PlotFrame, into out: inout HTMLWriter) {
        let middle = HTMLWriter.coordinate(frame.top + frame.plotHeight / 2)
        out.raw("<text class=\"axis-title\" transform=\"translate(12 \(middle)) rotate(-90)\" text-anchor=\"middle\">")
        out.text(unit)
        out.raw("</text>")
    }

    /// Ticks of elapsed time since the capture began along the bottom, with the unit.
    static func timeAxis(_ axis: TimeAxis, _ frame: PlotFrame, into out: inout HTMLWriter) {
        let (ticks, unit) = Ticks.time(
            axis.low - axis.start, axis.high - axis.start, target: max(2, Int(frame.plotWidth / 90)))
        let bottom = frame.top + frame.plotHeight
        out.raw("<g class=\"axis x\">")
        out.raw("<line x1=\"\(HTMLWriter.coordinate(frame.left))\" x2=\"\(HTMLWriter.coordinate(frame.width - frame.right))\" ")
        out.raw("y1=\"\(HTMLWriter.coordinate(bottom))\" y2=\"\(HTMLWriter.coordinate(bottom))\" stroke=\"\(Palette.axis)\"/>")
        for (value, label) in zip(ticks.values, ticks.labels) {
            let x = HTMLWriter.coordinate(axis.x(axis.start + Int64(value), frame))
            out.raw("<line x1=\"\(x)\" x2=\"\(x)\" y1=\"\(HTMLWriter.coordinate(bottom))\" y2=\"\(HTMLWriter.coordinate(bottom + 4))\" stroke=\"\(Palette.axis)\"/>")
            out.raw("<text x=\"\(x)\" y=\"\(HTMLWriter.coordinate(bottom + 15))\" text-anchor=\"middle\">")
            out.text(label)
            out.raw("</text>")
        }
        out.raw("<text class=\"axis-title\" x=\"\(HTMLWriter.coordinate(frame.width - frame.right))\" y=\"\(HTMLWriter.coordinate(frame.height - 3))\" text-anchor=\"end\">")
        out.text("time since capture start (\(unit.rawValue))")
        out.raw("</text></g>")
    }
}
