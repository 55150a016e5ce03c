/// Numbers as the device meant them.
///
/// A device sends integers; its documentation turns them into decimals (raw × 0.35, V × I with V
/// and I in 0.01 steps). Done in binary floating point, such a value picks up noise in its last
/// digits (`0.35 × -3 = -1.0499999999999998`). The rule: a value is rounded to the decimals its
/// inputs carry — a scale's decimals, the sum of a product's, the larger of a sum's — and then it
/// is the Double nearest that decimal, which prints as the decimal (`-1.05`). Values that are
/// exact already (853/1024 = `0.8330078125`) are left alone: only a resolution that is known and
/// finite is ever applied. An app's display precision is a second, explicit rounding, half away
/// from zero on the decimal value (1.01 × 0.50 = 0.505, shown as 0.51 at two decimals).
///
/// Pure functions on Double, shared by the built-in decoders and the layouts.
public enum DecimalRounding {
    /// The most decimals a resolution may have; past that a Double cannot tell them apart anyway.
    public static let maximumDecimals = 15

    /// `value` rounded to `decimals` places: the Double nearest the decimal. Values that are not
    /// finite, decimals outside 0…15 and values too large to hold that many decimals exactly
    /// (beyond 2^53 once scaled) come back unchanged.
    @inline(__always)
    public static func rounded(_ value: Double, decimals: Int) -> Double {
        guard decimals >= 0, decimals <= maximumDecimals, value.isFinite else { return value }
        let scale = powerOfTen(decimals)
        let scaled = value * scale
        guard scaled.magnitude < 9_007_199_254_740_992 else { return value }
        let result = scaled.rounded(.toNearestOrAwayFromZero) / scale
        return result == 0 ? 0 : result  // no "-0" in a reading
    }

    /// `value` as an app shows it with `decimals` places: first taken at its own resolution (when
    /// known), so that binary noise cannot move it across a half, then rounded half away from
    /// zero on that decimal: 0.505 (0.50499999999999989 in binary) at 2 decimals is 0.51.
    public static func displayed(_ value: Double, resolution: Int?, decimals: Int) -> Double {
        guard let resolution, resolution > decimals, resolution <= maximumDecimals, value.isFinite else {
            return rounded(value, decimals: decimals)
        }
        let exact = value * powerOfTen(resolution)
        guard exact.magnitude < 9_007_199_254_740_992 else { return rounded(value, decimals: decimals) }
        let units = Int64(exact.rounded(.toNearestOrAwayFromZero))
        let step = Int64(powerOfTen(resolution - decimals))
        let magnitude = (units.magnitude + UInt64(step / 2)) / UInt64(step)
        let whole = units < 0 ? -Int64(magnitude) : Int64(magnitude)
        let result = Double(whole) / powerOfTen(decimals)
        return result == 0 ? 0 : result
    }

    // MARK: - The resolution of a result

    /// The decimals of a sum or difference: the larger of its operands'. Nil (unknown) stays nil.
    public static func sum(_ a: Int?, _ b: Int?) -> Int? {
        guard let a, let b else { return nil }
        return max(a, b)
    }

    /// The decimals of a product: the sum of its operands'.
    public static func product(_ a: Int?, _ b: Int?) -> Int? {
        guard let a, let b else { return nil }
        return a + b
    }

    /// The decimals of `a / divisor` when the divisor is a known constant: finite only when the
    /// divisor's digits are a product of 2s and 5s (÷ 5 adds one decimal, ÷ 0.25 none); nil for
    /// any other divisor (÷ 3 has no finite resolution), which leaves the quotient unrounded.
    public static func quotient(_ a: Int?, byConstant divisor: Double) -> Int? {
        guard let a, divisor != 0, let (digits, decimals) = decimalDigits(divisor), let d = reciprocal(digits) else {
            return nil
        }
        return max(0, a + d - decimals)
    }

    /// The decimals of 1/n for a whole n: max(x, y) when n = 2^x · 5^y, nil otherwise.
    public static func reciprocal(_ n: Int64) -> Int? {
        guard n != 0 else { return nil }
        var rest = n.magnitude
        var twos = 0
        var fives = 0
        while rest % 2 == 0 {
            rest /= 2
            twos += 1
        }
        while rest % 5 == 0 {
            rest /= 5
            fives += 1
        }
        return rest == 1 ? max(twos, fives) : nil
    }

    /// The decimals a constant is written with: 0.35 → 2, 32 → 0, 1.5e-7 → 8.
    public static func decimals(of value: Double) -> Int? {
        decimalDigits(value)?.decimals
    }

    /// A finite Double as digits × 10^-decimals, from its shortest text (the one that reads back
    /// as the same Double): 0.35 → (35, 2). Nil past 18 digits.
    static func decimalDigits(_ value: Double) -> (digits: Int64, decimals: Int)? {
        guard value.isFinite else { return nil }
        let text = value.magnitude.description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            guard let parsed = Int(text[text.index(after: e)...]) else { return nil }
            exponent = parsed
        }
        var digits = ""
        var decimals = 0
        var afterPoint = false
        for c in mantissa {
            if c == "." {
                afterPoint = true
            } else {
                digits.append(c)
                if afterPoint { decimals += 1 }
            }
        }
        while decimals > 0, digits.last == "0" {
            digits.removeLast()
            decimals -= 1
        }
        decimals -= exponent
        guard digits.count <= 18, var number = Int64(digits) else { return nil }
        while decimals < 0 {
            let (m, overflow) = number.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            number = m
            decimals += 1
        }
        return (number, decimals)
    }

    @inline(__always)
    static func powerOfTen(_ n: Int) -> Double { powersOfTen[n] }

    /// 10^0 … 10^15: all exact in a Double.
    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]
}
