import JSON
import Layouts
import PayloadDecoders
import Testing

/// Numbers as the device meant them (layouts/README.md): values at the resolution their inputs carry.
struct RoundingTests {
    @Test func `DecimalRounding gives the Double nearest the decimal, and leaves exact values alone`() {
        #expect(0.35 * -3 == -1.0499999999999998)
        #expect(DecimalRounding.rounded(0.35 * -3, decimals: 2) == -1.05)
        #expect(3.3 * -14 == -46.199999999999996)
        #expect(DecimalRounding.rounded(3.3 * -14, decimals: 4) == -46.2)
        #expect(DecimalRounding.rounded(853.0 / 1024, decimals: 10) == 0.8330078125)
        #expect(DecimalRounding.rounded(-0.0000001, decimals: 2) == 0)
        #expect(DecimalRounding.rounded(.infinity, decimals: 2) == .infinity)
        #expect(DecimalRounding.rounded(1e300, decimals: 4) == 1e300)
        #expect(DecimalRounding.rounded(1.0 / 3, decimals: 16) == 1.0 / 3)
    }

    @Test func `the display rounding is half away from zero on the decimal, as printf shows the app's Double`() {
        // payloads.md §A.3 rounding edge: 1.01 V × 0.50 mA; the app prints "%.2f" → "0.51".
        let product = Double(101) / 100 * (Double(50) / 100)
        #expect(DecimalRounding.displayed(product, resolution: 4, decimals: 2) == 0.51)
        #expect(DecimalRounding.displayed(-product, resolution: 4, decimals: 2) == -0.51)
        #expect(DecimalRounding.displayed(0.504, resolution: 4, decimals: 2) == 0.5)
        #expect(DecimalRounding.displayed(2.5, resolution: nil, decimals: 0) == 3)
    }

    @Test func `the resolution of sums, products and quotients`() {
        #expect(DecimalRounding.sum(2, 1) == 2)
        #expect(DecimalRounding.product(2, 2) == 4)
        #expect(DecimalRounding.quotient(2, byConstant: 5) == 3)
        #expect(DecimalRounding.quotient(2, byConstant: 0.25) == 2)
        #expect(DecimalRounding.quotient(2, byConstant: 3) == nil)
        #expect(DecimalRounding.reciprocal(1024) == 10)
        #expect(DecimalRounding.reciprocal(20) == 2)
        #expect(DecimalRounding.reciprocal(3) == nil)
        #expect(DecimalRounding.decimals(of: 0.35) == 2)
        #expect(DecimalRounding.decimals(of: 32) == 0)
        #expect(DecimalRounding.decimals(of: 1.5e-7) == 8)
        #expect(DecimalRounding.sum(nil, 2) == nil)
    }

    func decode(_ fields: String, _ bytes: String) throws -> Fields? {
        let l = try layout(#"{"id": "t", "match": {"company": 1}, "fields": [\#(fields)]}"#)
        return LayoutsTests.fields(l.decode(bytes: hex(bytes)))
    }

    @Test func `a scale that is not 1 over N is rounded to its decimals`() throws {
        #expect(try decode(#"{"name": "x", "type": "i8", "scale": 0.35}"#, "fd")?["x"] == .double(-1.05))
        #expect(try decode(#"{"name": "x", "type": "u8", "scale": 0.35, "add": 0.001}"#, "03")?["x"] == .double(1.051))
        // 1/1024 is exact in binary: left as the division gives it.
        #expect(try decode(#"{"name": "x", "type": "u16", "scale": "1/1024"}"#, "55 03")?["x"] == .double(0.8330078125))
    }

    @Test func `computed fields carry the resolution of their inputs, and a display precision when asked`() throws {
        let power = #"{"name": "v", "type": "u16", "scale": 0.01}, {"name": "i", "type": "i32", "scale": 0.01}"#
        // 3.30 V × -14.00 mA.
        #expect(
            try decode(power + #", {"name": "p", "compute": "v * i"}"#, "4a 01 88 fa ff ff")?["p"] == .double(-46.2))
        // 1.01 V × 0.50 mA: 0.505 at its resolution, 0.51 as the app shows it at two decimals.
        #expect(try decode(power + #", {"name": "p", "compute": "v * i"}"#, "65 00 32 00 00 00")?["p"] == .double(0.505))
        #expect(
            try decode(power + #", {"name": "p", "compute": "v * i", "decimals": 2}"#, "65 00 32 00 00 00")?["p"]
                == .double(0.51))
        // A unit conversion: 23.45 °C is 74.21 °F (÷ 5 adds one decimal).
        let fahrenheit = #"{"name": "t", "type": "i16", "scale": 0.01}, {"name": "f", "compute": "t * 9 / 5 + 32"}"#
        #expect(try decode(fahrenheit, "29 09")?["f"] == .double(74.21))
        // ÷ 3 has no finite resolution: the quotient is left as Double gives it.
        #expect(
            try decode(#"{"name": "a", "type": "u8"}, {"name": "q", "compute": "a / 3"}"#, "01")?["q"]
                == .double(1.0 / 3))
    }

    @Test func `decimals is checked, and only computed fields take it`() throws {
        let bad = LayoutLinterCheck.issues(#"{"name": "p", "compute": "1 + 1", "decimals": 99}"#)
        #expect(bad.contains { $0.contains("decimals is a whole number of places, 0…15") })
        let wrong = LayoutLinterCheck.issues(#"{"name": "a", "type": "u8", "decimals": 2}"#)
        #expect(wrong.contains { $0.contains("'decimals' does not apply to a u8 field") })
    }
}

enum LayoutLinterCheck {
    static func issues(_ fields: String) -> [String] {
        let json = #"{"id": "t", "match": {"company": 1}, "fields": [\#(fields)]}"#
        return Layouts.LayoutLinter.lint(bytes: Array(json.utf8), name: "t.json", builtInIDs: []).map(\.description)
    }
}
