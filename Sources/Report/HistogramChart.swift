#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Statistics

/// A histogram of intervals on a logarithmic time axis: the bins of a `LogHistogram` as bars.
struct HistogramChart {
    var kind: String
    var device: String
    var title: String
    var histogram: LogHistogram
    var colour: String
    var frame = PlotFrame(width: 480, height: 190, left: 56, right: 14, top: 10, bottom: 36)

    func render(into out: inout HTMLWriter) {
        let bins = histogram.bins
        guard let first = bins.first, let last = bins.last else { return }
        // At least a factor of ten wide, so a tight distribution still shows its neighbourhood.
        var low = first.low
        var high = last.high
        if high / low < 10 {
            let middle = (log10(low) + log10(high)) / 2
            low = pow(10, middle - 0.5)
            high = pow(10, middle + 0.5)
        }
        let ticks = Ticks.logarithmic(low, high, format: Self.durationLabel)
        let peak = bins.map(\.count).max() ?? 1
        let yTicks = Ticks.linear(0, Double(max(peak, 1)), target: 4, extend: true)
        let x: (Double) -> Double = { value in
            frame.left + (log10(value) - log10(low)) / (log10(high) - log10(low)) * frame.plotWidth
        }
        let y: (Double) -> Double = { value in frame.top + (1 - value / max(yTicks.high, 1)) * frame.plotHeight }

        out.raw("<figure class=\"histogram \(kind)\"")
        out.attribute("data-device", device)
        out.raw("><figcaption>")
        out.text(title)
        out.raw("</figcaption><svg viewBox=\"0 0 \(Int(frame.width)) \(Int(frame.height))\" role=\"img\"")
        out.attribute("aria-label", title)
        out.raw(">")
        Axes.valueAxis(yTicks, y: y, frame, into: &out)
        let bottom = frame.top + frame.plotHeight
        out.raw("<g class=\"bars\" fill=\"\(colour)\">")
        for bin in bins where bin.count > 0 {
            let x0 = x(bin.low)
            let width = max(x(bin.high) - x0 - 0.5, 1)
            let top = y(Double(bin.count))
            out.raw("<rect x=\"\(HTMLWriter.coordinate(x0))\" y=\"\(HTMLWriter.coordinate(top))\" width=\"\(HTMLWriter.coordinate(width))\" height=\"\(HTMLWriter.coordinate(bottom - top))\">")
            out.raw("<title>")
            out.text("\(Self.durationLabel(bin.low))–\(Self.durationLabel(bin.high)): \(bin.count)")
            out.raw("</title></rect>")
        }
        out.raw("</g><g class=\"axis x\">")
        out.raw("<line x1=\"\(HTMLWriter.coordinate(frame.left))\" x2=\"\(HTMLWriter.coordinate(frame.width - frame.right))\" y1=\"\(HTMLWriter.coordinate(bottom))\" y2=\"\(HTMLWriter.coordinate(bottom))\" stroke=\"\(Palette.axis)\"/>")
        // Labels at least 44 px apart; the ticks between stay unlabelled.
        var lastLabel = -Double.infinity
        for (value, label) in zip(ticks.values, ticks.labels) {
            let px = x(value)
            out.raw("<line x1=\"\(HTMLWriter.coordinate(px))\" x2=\"\(HTMLWriter.coordinate(px))\" y1=\"\(HTMLWriter.coordinate(bottom))\" y2=\"\(HTMLWriter.coordinate(bottom + 4))\" stroke=\"\(Palette.axis)\"/>")
            guard px - lastLabel >= 44 else { continue }
            lastLabel = px
            out.raw("<text x=\"\(HTMLWriter.coordinate(px))\" y=\"\(HTMLWriter.coordinate(bottom + 15))\" text-anchor=\"middle\">")
            out.text(label)
            out.raw("</text>")
        }
        out.raw("<text class=\"axis-title\" x=\"\(HTMLWriter.coordinate(frame.width - frame.right))\" y=\"\(HTMLWriter.coordinate(frame.height - 3))\" text-anchor=\"end\">interval (log scale)</text>")
        out.raw("</g>")
        Axes.valueTitle("count", frame, into: &out)
        out.raw("</svg></figure>\n")
    }

    /// "500 µs", "20 ms", "1.5 s", "2 min" for a tick of a log time axis (µs).
    static func durationLabel(_ micros: Double) -> String {
        switch micros {
        case ..<1000: Formatting.short(micros, significant: 2) + " µs"
        case ..<1_000_000: Formatting.short(micros / 1000, significant: 2) + " ms"
        case ..<60_000_000: Formatting.short(micros / 1e6, significant: 2) + " s"
        case ..<3_600_000_000: Formatting.short(micros / 60e6, significant: 2) + " min"
        default: Formatting.short(micros / 3600e6, significant: 2) + " h"
        }
    }
}
