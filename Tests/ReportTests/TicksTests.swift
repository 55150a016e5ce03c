import Report
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct TicksTests {
    /// Whether a step is 1, 2 or 5 times a power of ten.
    static func isOneTwoFive(_ step: Double) -> Bool {
        let magnitude = pow(10, (log10(step)).rounded(.down))
        let factor = (step / magnitude * 1000).rounded() / 1000
        return [1, 2, 5, 10].contains(factor)
    }

    @Test(arguments: [
        (0.0, 10.0), (22.5, 24.0), (1011.0, 1015.0), (-14.97, -10.01), (3.28, 3.3), (0.0123, 0.0871), (-72, -59),
        (4660, 4719), (0, 1e9), (-1e-6, 1e-6),
    ])
    func `linear ticks are 1-2-5 steps that cover the values`(low: Double, high: Double) {
        let ticks = Ticks.linear(low, high, target: 5)
        #expect(Self.isOneTwoFive(ticks.step), "step \(ticks.step)")
        #expect(ticks.low <= low && ticks.high >= high)
        #expect(ticks.values.count >= 3 && ticks.values.count <= 12, "\(ticks.values)")
        for (a, b) in zip(ticks.values, ticks.values.dropFirst()) {
            #expect(abs(b - a - ticks.step) < ticks.step * 1e-9)
        }
        // Every value a whole number of steps, and labels distinct.
        for v in ticks.values { #expect(abs(v / ticks.step - (v / ticks.step).rounded()) < 1e-6) }
        #expect(Set(ticks.labels).count == ticks.labels.count, "\(ticks.labels)")
    }

    @Test func `linear ticks of known ranges`() {
        let a = Ticks.linear(0, 10, target: 5)
        #expect(a.values == [0, 2, 4, 6, 8, 10])
        #expect(a.labels == ["0", "2", "4", "6", "8", "10"])
        let b = Ticks.linear(22.5, 24, target: 4)
        #expect(b.step == 0.5)
        #expect(b.labels == ["22.5", "23.0", "23.5", "24.0"])
        let c = Ticks.linear(-72, -59, target: 4)
        #expect(c.step == 5)
        #expect(c.labels == ["-75", "-70", "-65", "-60", "-55"])
        // One value: widened around it, and 0 is never "-0".
        let d = Ticks.linear(5, 5, target: 4)
        #expect(d.low < 5 && d.high > 5)
        let e = Ticks.linear(-0.1, 0.1, target: 4)
        #expect(e.labels.contains("0.0") || e.labels.contains("0.00"))
        #expect(!e.labels.contains("-0.0") && !e.labels.contains("-0.00"))
    }

    @Test func `time ticks use clock steps and say their unit`() {
        let second: Int64 = 1_000_000
        var (ticks, unit) = Ticks.time(0, 30 * second, target: 6)
        #expect(unit == .s)
        #expect(ticks.labels == ["0", "5", "10", "15", "20", "25", "30"])
        (ticks, unit) = Ticks.time(0, 10 * 60 * second, target: 6)
        #expect(unit == .min)
        #expect(ticks.labels == ["0", "2", "4", "6", "8", "10"])
        (ticks, unit) = Ticks.time(0, 20_000 * second, target: 6)
        #expect(unit == .h)
        #expect(ticks.step == Double(3600 * second))
        #expect(ticks.labels == ["0", "1", "2", "3", "4", "5"])
        (ticks, unit) = Ticks.time(0, 300_000, target: 6)
        #expect(unit == .ms)
        #expect(ticks.labels == ["0", "50", "100", "150", "200", "250", "300"])
        (ticks, unit) = Ticks.time(0, 4 * second, target: 6)
        #expect(unit == .s)
        #expect(ticks.labels == ["0", "1", "2", "3", "4"])
        (ticks, unit) = Ticks.time(0, 2 * second, target: 6)
        #expect(unit == .s)
        #expect(ticks.labels == ["0.0", "0.5", "1.0", "1.5", "2.0"])
        (ticks, unit) = Ticks.time(0, 3 * 86400 * second, target: 6)
        #expect(unit == .h)
        #expect(ticks.step == Double(12 * 3600 * second))
        // Ticks stay inside a range that does not start at a step.
        (ticks, unit) = Ticks.time(-27_000, 29_923_000, target: 6)
        #expect(ticks.values.first == 0 && ticks.values.last == 25 * Double(second))
    }

    @Test func `log ticks are 1, 2 and 5 per decade, or decades alone over a wide range`() {
        let narrow = Ticks.logarithmic(20_000, 2_000_000) { "\($0)" }
        #expect(narrow.values == [20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000])
        let wide = Ticks.logarithmic(1, 1e8) { "\($0)" }
        #expect(wide.values == [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8])
    }
}
