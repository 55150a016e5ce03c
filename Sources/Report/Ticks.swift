#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Statistics

/// Axis ticks: where they go and what they say.
public struct Ticks: Sendable, Equatable {
    public var values: [Double]
    public var labels: [String]
    /// The distance between ticks (linear axes).
    public var step: Double
    /// The axis range, widened to whole steps where the axis asked for it.
    public var low: Double
    public var high: Double

    /// Ticks 1, 2 or 5 × 10^k apart, about `target` of them over [low, high]. With `extend`, the
    /// range widens to the ticks just outside it (a value axis); without, the ticks stay inside
    /// it. A range of one value is widened around it.
    public static func linear(_ low: Double, _ high: Double, target: Int = 5, extend: Bool = true) -> Ticks {
        var low = low
        var high = high
        if !low.isFinite || !high.isFinite {
            low = 0
            high = 1
        }
        if high < low { swap(&low, &high) }
        if high == low {
            let pad = low == 0 ? 1 : low.magnitude * 0.1
            low -= pad
            high += pad
        }
        let step = niceStep((high - low) / Double(max(1, target)))
        let first = extend ? (low / step).rounded(.down) : (low / step).rounded(.up)
        let last = extend ? (high / step).rounded(.up) : (high / step).rounded(.down)
        let decimals = max(0, -Int((log10(step)).rounded(.down)))
        var values: [Double] = []
        var k = first
        while k <= last, values.count < 1000 {
            values.append(k * step)
            k += 1
        }
        let labels = values.map { label($0, decimals: decimals) }
        // Rounding can put a tick a hair inside the range it was to cover: the range stays whole.
        return Ticks(
            values: values, labels: labels, step: step, low: extend ? min(first * step, low) : low,
            high: extend ? max(last * step, high) : high)
    }

    /// The smallest of 1, 2, 5 × 10^k that is at least `raw`.
    public static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let residual = raw / magnitude
        // Guard against log10 rounding just below a power of ten.
        for factor in [1.0, 2, 5, 10] where residual <= factor * (1 + 1e-9) {
            return factor * magnitude
        }
        return 10 * magnitude
    }

    static func label(_ value: Double, decimals: Int) -> String {
        let text = Formatting.fixed(value, decimals)
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
        return text
    }

    // MARK: Time

    /// A unit a time axis is labelled in.
    public enum TimeUnit: String, Sendable {
        case ms, s, min, h, d

        public var micros: Double {
            switch self {
            case .ms: 1e3
            case .s: 1e6
            case .min: 60e6
            case .h: 3600e6
            case .d: 86400e6
            }
        }
    }

    /// Steps a time axis may use, in microseconds: 1-2-5 below a second, then what clocks use.
    static let timeSteps: [Int64] = {
        var steps: [Int64] = []
        var decade: Int64 = 1
        while decade < 1_000_000 {
            steps += [decade, 2 * decade, 5 * decade]
            decade *= 10
        }
        let second: Int64 = 1_000_000
        steps += [1, 2, 5, 10, 15, 30].map { $0 * second }
        steps += [1, 2, 5, 10, 15, 30].map { $0 * 60 * second }
        steps += [1, 2, 3, 6, 12].map { $0 * 3600 * second }
        steps += [1, 2, 7, 14, 28].map { $0 * 86400 * second }
        return steps
    }()

    /// Ticks for elapsed time over [low, high] µs from a start, at steps clocks use (…, 0.5 s,
    /// 1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1 min, …, 1 h, 2 h, 3 h, 6 h, …), labelled in the unit
    /// the step is a whole number of: ms, s, min, h or days. The ticks stay inside the range.
    public static func time(_ low: Int64, _ high: Int64, target: Int = 6) -> (ticks: Ticks, unit: TimeUnit) {
        let span = max(high - low, 1)
        let raw = span / Int64(max(1, target))
        let step = timeSteps.first { $0 >= raw } ?? timeSteps[timeSteps.count - 1] * ((raw / timeSteps.last!) + 1)
        let unit: TimeUnit =
            step < 100_000 ? .ms : step < 60_000_000 ? .s : step < 3_600_000_000 ? .min : step < 86_400_000_000 ? .h : .d
        let stepInUnit = Double(step) / unit.micros
        let decimals = stepInUnit >= 1 && stepInUnit == stepInUnit.rounded() ? 0 : max(0, -Int(log10(stepInUnit).rounded(.down)))
        var values: [Double] = []
        var t = (low + step - 1).floorDivided(by: step) * step
        while t <= high, values.count < 1000 {
            values.append(Double(t))
            t += step
        }
        let labels = values.map { label($0 / unit.micros, decimals: decimals) }
        return (Ticks(values: values, labels: labels, step: Double(step), low: Double(low), high: Double(high)), unit)
    }

    // MARK: Logarithmic

    /// Ticks for a log axis over [low, high] (both > 0): 1, 2 and 5 in each decade when the range
    /// spans few decades, powers of ten only when it spans many. `format` writes a label.
    public static func logarithmic(_ low: Double, _ high: Double, format: (Double) -> String) -> Ticks {
        let low = max(low, 1e-12)
        let high = max(high, low * 10)
        let firstDecade = Int(log10(low).rounded(.down))
        let lastDecade = Int(log10(high).rounded(.up))
        let factors: [Double] = lastDecade - firstDecade <= 3 ? [1, 2, 5] : [1]
        var values: [Double] = []
        for decade in firstDecade...lastDecade {
            for factor in factors {
                let value = factor * pow(10, Double(decade))
                if value >= low * (1 - 1e-9), value <= high * (1 + 1e-9) { values.append(value) }
            }
        }
        return Ticks(values: values, labels: values.map(format), step: 0, low: low, high: high)
    }
}

extension Int64 {
    /// Division rounding towards minus infinity.
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
