import PayloadDecoders
import Testing

struct DecimalRoundingTests {
    /// payloads.md §A: EnvSensor's worked example multiplies 3.3 V by -14 mA.
    @Test func `a product of two 0.01-step values keeps four decimals at most`() {
        #expect(3.3 * -14.0 == -46.199999999999996)
        #expect(DecimalRounding.rounded(3.3 * -14.0, decimals: 4) == -46.2)
        #expect("\(DecimalRounding.rounded(3.3 * -14.0, decimals: 4))" == "-46.2")
        #expect(DecimalRounding.rounded(1.01 * 0.5, decimals: 4) == 0.505)
    }

    @Test func `a scale times a raw value keeps the scale's decimals`() {
        #expect(0.35 * -3 == -1.0499999999999998)
        #expect(DecimalRounding.rounded(0.35 * -3, decimals: DecimalRounding.decimals(of: 0.35)!) == -1.05)
    }

    @Test func `exact values stay exact`() {
        // A heart-rate RR interval: 853/1024 s has ten decimals, all of them real.
        #expect(DecimalRounding.rounded(853.0 / 1024, decimals: 10) == 0.8330078125)
        #expect(DecimalRounding.rounded(2.5, decimals: 0) == 3)
        #expect(DecimalRounding.rounded(-2.5, decimals: 0) == -3)
        #expect(DecimalRounding.rounded(1e300, decimals: 4) == 1e300)
        #expect(DecimalRounding.rounded(.infinity, decimals: 2) == .infinity)
    }

    @Test(arguments: [(0.01, 2), (0.35, 2), (0.05, 2), (0.1, 1), (2.0, 0), (100.0, 0), (1e-5, 5), (0.000125, 6), (1.5e-7, 8)])
    func `the decimal places of a step`(step: Double, places: Int) {
        #expect(DecimalRounding.decimals(of: step) == places)
    }
}
