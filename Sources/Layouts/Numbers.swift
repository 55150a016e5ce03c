import PayloadDecoders

/// How a raw integer becomes the field's value.
///
/// The rule (shared with the built-in decoders, so both print the same numbers): a scale of 1/N
/// with an offset whose N-fold is whole is computed as `Double(raw + add·N) / N`, one rounding, so
/// 2345 at scale 0.01 is 23.45 and never 23.450000000000003. Any other scale is
/// `Double(raw) * scale + add`. Unscaled whole values stay integers.
enum Conversion: Sendable, Hashable {
    /// No scale: `.int(raw + add)`.
    case identity(add: Int64)
    /// Scale 1/n: `.double(Double(raw + addN) / Double(n))`.
    case reciprocal(n: Int64, addN: Int64)
    /// Anything else: `.double(Double(raw) * scale + add)`, rounded to `decimals` (those of the
    /// scale and add as written; nil when they have no finite resolution worth keeping).
    case linear(scale: Double, add: Double, decimals: Int?)

    static let unscaled = Conversion.identity(add: 0)

    var isIdentity: Bool { if case .identity = self { true } else { false } }

    /// The value as a number (for expressions and rules).
    @inline(__always)
    func number(_ raw: Int64) -> Double {
        switch self {
        case .identity(let add): Double(raw) + Double(add)
        case .reciprocal(let n, let addN): Double(raw &+ addN) / Double(n)
        case .linear(let scale, let add, let decimals): Self.round(Double(raw) * scale + add, decimals)
        }
    }

    /// The decimals every value of this conversion carries: 0 unscaled, those of 1/N (nil when
    /// 1/N does not end, as 1/3), those of a linear scale and add.
    var resolution: Int? {
        switch self {
        case .identity: 0
        case .reciprocal(let n, _): DecimalRounding.reciprocal(n)
        case .linear(_, _, let decimals): decimals
        }
    }

    @inline(__always)
    static func round(_ value: Double, _ decimals: Int?) -> Double {
        guard let decimals else { return value }
        return DecimalRounding.rounded(value, decimals: decimals)
    }

    @inline(__always)
    func value(_ raw: Int64) -> FieldValue {
        switch self {
        case .identity(let add):
            let (sum, overflow) = raw.addingReportingOverflow(add)
            return overflow ? .double(Double(raw) + Double(add)) : .int(sum)
        case .reciprocal(let n, let addN):
            let (sum, overflow) = raw.addingReportingOverflow(addN)
            return .double(overflow ? Double(raw) / Double(n) + Double(addN) / Double(n) : Double(sum) / Double(n))
        case .linear(let scale, let add, let decimals):
            return .double(Self.round(Double(raw) * scale + add, decimals))
        }
    }

    /// A raw u64 above Int64.max: written as decimal text when unscaled, since no Int64 holds it.
    func value(unsigned raw: UInt64) -> FieldValue {
        if let small = Int64(exactly: raw) { return value(small) }
        switch self {
        case .identity(let add) where add == 0: return .string(String(raw))
        case .identity(let add): return .double(Double(raw) + Double(add))
        case .reciprocal(let n, let addN): return .double(Double(raw) / Double(n) + Double(addN) / Double(n))
        case .linear(let scale, let add, let decimals): return .double(Self.round(Double(raw) * scale + add, decimals))
        }
    }

    /// The raw integer whose value is `number`, if one is exactly that value (or, with
    /// `nearest`, the closest one). Nil when no raw integer is near.
    func raw(for number: Double, nearest: Bool = false) -> Int64? {
        guard number.isFinite else { return nil }
        let estimate: Double
        switch self {
        case .identity(let add): estimate = number - Double(add)
        case .reciprocal(let n, let addN): estimate = number * Double(n) - Double(addN)
        case .linear(let scale, let add, _): estimate = (number - add) / scale
        }
        guard estimate.magnitude < 9.2e18 else { return nil }
        let center = Int64(estimate.rounded())
        if nearest { return center }
        for candidate in [center, center - 1, center + 1] where self.number(candidate) == number {
            return candidate
        }
        return nil
    }
}

/// A decimal number written in a layout file, kept exact: `significand × 10^exponent`.
struct ExactDecimal: Hashable {
    var significand: Int64
    var exponent: Int

    /// Parses JSON number text ("0.01", "-40", "2.5e-3"); nil when it does not fit 18 digits.
    init?(_ text: String) {
        var digits = ""
        var exponent = 0
        var negative = false
        var seenPoint = false
        var utf8 = Substring(text)
        if utf8.first == "-" {
            negative = true
            utf8 = utf8.dropFirst()
        }
        var mantissaPart = utf8
        var exponentPart: Substring = ""
        if let e = utf8.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissaPart = utf8[..<e]
            exponentPart = utf8[utf8.index(after: e)...]
        }
        for c in mantissaPart {
            if c == "." {
                seenPoint = true
            } else if c.isASCII, c.isNumber {
                digits.append(c)
                if seenPoint { exponent -= 1 }
            } else {
                return nil
            }
        }
        if !exponentPart.isEmpty {
            guard let e = Int(exponentPart.hasPrefix("+") ? exponentPart.dropFirst() : exponentPart) else { return nil }
            exponent += e
        }
        while digits.count > 1, digits.first == "0" { digits.removeFirst() }
        while digits.count > 1, digits.last == "0" {
            digits.removeLast()
            exponent += 1
        }
        guard digits.count <= 18, let value = Int64(digits) else { return nil }
        significand = negative ? -value : value
        self.exponent = value == 0 ? 0 : exponent
    }

    init(significand: Int64, exponent: Int) {
        self.significand = significand
        self.exponent = exponent
    }

    /// The value as a reduced fraction p/q (q > 0), when it fits 64 bits.
    var fraction: (p: Int64, q: Int64)? {
        if exponent >= 0 {
            var p = significand
            for _ in 0..<exponent {
                let (m, o) = p.multipliedReportingOverflow(by: 10)
                if o { return nil }
                p = m
            }
            return (p, 1)
        }
        guard -exponent <= 18 else { return nil }
        let q = powersOfTenInt[-exponent]
        let g = gcd(significand.magnitude, UInt64(q))
        return (significand / Int64(g), q / Int64(g))
    }

    /// The value times an integer, when that is a whole number that fits.
    func times(_ n: Int64) -> Int64? {
        guard let (p, q) = fraction else { return nil }
        let (product, overflow) = p.multipliedReportingOverflow(by: n)
        guard !overflow, product % q == 0 else { return nil }
        return product / q
    }

    var isInteger: Bool { fraction?.q == 1 }
}

func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a == 0 ? 1 : a
}

let powersOfTenInt: [Int64] = {
    var table: [Int64] = [1]
    for _ in 1...18 { table.append(table.last! * 10) }
    return table
}()

/// 10^0 … 10^140, each the correctly rounded Double of the decimal.
let powersOfTen: [Double] = (0...140).map { Double("1e\($0)")! }

/// m × 10^e computed with one rounding where it can be: a negative exponent divides by the exact
/// power of ten, so 365 × 10^-1 is 36.5 (multiplying by 0.1 could give 36.500000000000004).
@inline(__always)
func decimalValue(_ mantissa: Int64, _ exponent: Int) -> Double {
    exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
}

/// IEEE-11073-20601 SFLOAT (16-bit) and FLOAT (32-bit), as used by GATT health characteristics.
enum MedicalFloat {
    /// SFLOAT: 4-bit exponent, 12-bit mantissa. NaN, NRes and Reserved read as null; ±INFINITY as ±∞.
    static func decode16(_ word: UInt16) -> FieldValue {
        switch word {
        case 0x07FE: return .double(.infinity)
        case 0x0802: return .double(-.infinity)
        case 0x07FF, 0x0800, 0x0801: return .null
        default: break
        }
        var mantissa = Int64(word & 0x0FFF)
        if mantissa >= 0x800 { mantissa -= 0x1000 }
        var exponent = Int(word >> 12)
        if exponent >= 8 { exponent -= 16 }
        return .double(decimalValue(mantissa, exponent))
    }

    /// FLOAT: 8-bit exponent, 24-bit mantissa.
    static func decode32(_ word: UInt32) -> FieldValue {
        switch word {
        case 0x007F_FFFE: return .double(.infinity)
        case 0x0080_0002: return .double(-.infinity)
        case 0x007F_FFFF, 0x0080_0000, 0x0080_0001: return .null
        default: break
        }
        var mantissa = Int64(word & 0x00FF_FFFF)
        if mantissa >= 0x80_0000 { mantissa -= 0x100_0000 }
        let exponent = Int(Int8(bitPattern: UInt8(word >> 24)))
        return .double(decimalValue(mantissa, exponent))
    }

    static func limits(wide: Bool) -> (mantissa: Int64, exponents: ClosedRange<Int>) {
        wide ? (8_388_605, -128...127) : (2045, -8...7)
    }

    /// The word for a value: exact, or nil when no mantissa and exponent give exactly `value`.
    static func encode(_ value: FieldValue, wide: Bool) -> UInt32? {
        let double: Double
        switch value {
        case .null: return wide ? 0x007F_FFFF : 0x07FF
        case .int(let i): double = Double(i)
        case .double(let d): double = d
        default: return nil
        }
        if double == .infinity { return wide ? 0x007F_FFFE : 0x07FE }
        if double == -.infinity { return wide ? 0x0080_0002 : 0x0802 }
        guard double.isFinite else { return wide ? 0x007F_FFFF : 0x07FF }
        let (limit, exponents) = limits(wide: wide)
        // Exponent 0 first, then finer decimals, then coarser: 370 is (370, 0), 36.5 is (365, -1).
        let order = Array((exponents.lowerBound...0).reversed()) + Array(1...exponents.upperBound)
        for exponent in order {
            let scaled = exponent < 0 ? double * powersOfTen[-exponent] : double / powersOfTen[exponent]
            guard scaled.magnitude <= Double(limit) + 1 else { continue }
            let mantissa = Int64(scaled.rounded())
            guard mantissa.magnitude <= UInt64(limit), decimalValue(mantissa, exponent) == double else { continue }
            if wide {
                return UInt32(UInt8(bitPattern: Int8(exponent))) << 24 | UInt32(truncatingIfNeeded: mantissa)
                    & 0x00FF_FFFF
            }
            return UInt32(UInt8(bitPattern: Int8(exponent)) & 0x0F) << 12 | UInt32(truncatingIfNeeded: mantissa)
                & 0x0FFF
        }
        return nil
    }
}

extension FieldValue {
    /// The value as a number, for rules and expressions; nil for text, lists and null.
    var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        case .bool(let b): b ? 1 : 0
        default: nil
        }
    }
}
