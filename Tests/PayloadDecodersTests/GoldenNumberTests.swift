import JSON
import TestSupport
import Testing

/// Numbers as the device meant them (issue 13): every number in the fields of every golden that
/// ships in captures/ is one a decoder's inputs can carry, not binary floating-point noise.
///
/// The rule, for a number written with a fraction or an exponent (integers are exact), on its
/// shortest round-trip form, which is how readings are written:
///
/// - at most 15 significant digits. A Double that is the nearest one to a decimal of 15 digits or
///   fewer prints as that decimal; one that is off by a rounding (3.3 × −14 in Double) is the
///   nearest to no short decimal and needs 16 or 17 digits: −46.199999999999996, 0.30000000000000004;
/// - at most 10 digits after the point. The finest step any decoder's inputs have is 1/1024 s
///   (RR intervals), and a multiple of it needs 10: 853/1024 = 0.8330078125.
enum NumberNoise {
    /// Why `literal` looks like noise; nil when it is a number a decoder could mean.
    static func problem(_ literal: String) -> String? {
        let lower = literal.lowercased()
        guard lower.contains(".") || lower.contains("e") else { return nil }
        var mantissa = Substring(lower)
        var exponent = 0
        if let e = lower.firstIndex(of: "e") {
            mantissa = lower[..<e]
            exponent = Int(lower[lower.index(after: e)...]) ?? 0
        }
        let unsigned = mantissa.drop { $0 == "-" || $0 == "+" }
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? ""
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let digits = (whole + fraction).drop { $0 == "0" }.reversed().drop { $0 == "0" }
        if digits.count > 15 { return "\(digits.count) significant digits" }
        let decimals = max(0, fraction.reversed().drop { $0 == "0" }.count - exponent)
        if decimals > 10 { return "\(decimals) decimals" }
        return nil
    }
}

struct GoldenNumberTests {
    @Test func `the rule tells noise from numbers a decoder means`() {
        #expect(NumberNoise.problem("-46.199999999999996") == "17 significant digits")
        #expect(NumberNoise.problem("0.30000000000000004") == "17 significant digits")
        #expect(NumberNoise.problem("0.7999999999999999") == "16 significant digits")
        #expect(NumberNoise.problem("0.8330078125") == nil)  // 853/1024, exact
        #expect(NumberNoise.problem("0.00048828125") == "11 decimals")  // 1/2048: finer than any input
        for exact in ["-46.2", "0.505", "389.55", "-14073534087.168", "1e-06", "1.000001", "2.5e-05", "25", "-3"] {
            #expect(NumberNoise.problem(exact) == nil, "\(exact)")
        }
    }

    @Test func `no golden in captures holds a noisy number`() throws {
        let goldens = TestPaths.list(TestPaths.captures).filter { $0.hasSuffix(".golden.jsonl") }
        #expect(goldens.count >= 5)
        var numbers = 0
        var fractional = 0
        for name in goldens {
            let text = try #require(TestPaths.readText(TestPaths.captures + "/" + name))
            for (index, line) in text.split(separator: "\n").enumerated() {
                let reading = try JSONValue.parse(String(line))
                guard let fields = reading.object?["fields"] else { continue }
                for literal in Self.numbers(in: fields) {
                    numbers += 1
                    if literal.contains(".") { fractional += 1 }
                    if let problem = NumberNoise.problem(literal) {
                        Issue.record("\(name) line \(index + 1): \(literal) has \(problem)")
                    }
                }
            }
        }
        // The scan saw the goldens' numbers, scaled ones among them.
        #expect(numbers > 1000)
        #expect(fractional > 500)
    }

    static func numbers(in value: JSONValue) -> [String] {
        switch value {
        case .number(let literal): [literal]
        case .array(let items): items.flatMap(numbers)
        case .object(let object): object.entries.flatMap { numbers(in: $0.value) }
        default: []
        }
    }
}
