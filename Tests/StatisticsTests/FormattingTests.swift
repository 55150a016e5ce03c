import Statistics
import Testing

/// Fixed decimals as a person writes them, from the digits of an integer count of hundredths or
/// thousandths (not from the code under test).
struct FormattingTests {
    static func expected(_ units: Int, decimals: Int) -> String {
        var power = 1
        for _ in 0..<decimals { power *= 10 }
        let magnitude = units.magnitude
        let fraction = String(magnitude % UInt(power))
        let text = "\(magnitude / UInt(power))"
            + (decimals > 0 ? "." + String(repeating: "0", count: decimals - fraction.count) + fraction : "")
        return (units < 0 ? "-" : "") + text
    }

    @Test func `fixed writes exactly the decimals asked for, with their leading zeros`() {
        #expect(Formatting.fixed(0.35, 2) == "0.35")
        #expect(Formatting.fixed(1, 2) == "1.00")
        #expect(Formatting.fixed(12.5, 0) == "13")
        #expect(Formatting.fixed(-0.004, 2) == "0.00")
        #expect(Formatting.fixed(-0.006, 2) == "-0.01")
        #expect(Formatting.fixed(.nan, 2) == "nan")
        #expect(Formatting.fixed(2e16, 2) == "2e+16")
        for decimals in 0...3 {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            for units in -20_000...20_000 {
                let value = Double(units) / scale
                #expect(Formatting.fixed(value, decimals) == Self.expected(units, decimals: decimals), "\(value)")
            }
        }
    }

    @Test func `appended, the text is the same`() {
        var bytes = Array("x=".utf8)
        Formatting.appendFixed(0.705, 2, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x=" + Formatting.fixed(0.705, 2))
    }
}
