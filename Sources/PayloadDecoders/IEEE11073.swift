/// IEEE 11073-20601 "medical float" numbers used by GATT health characteristics (payloads.md §D.2):
/// value = mantissa × 10^exponent, both two's complement.
///
///     SFLOAT  16 bits: exponent 4 bits (high), mantissa 12 bits
///     FLOAT   32 bits: exponent 8 bits (high), mantissa 24 bits
///
/// Five whole-word patterns (exponent 0) are not numbers; they decode as the strings "+INF", "NaN",
/// "NRes", "reserved" and "-INF" (Nordic's table; bluetooth-sig-python's FLOAT table differs).
public enum IEEE11073 {
    struct Format {
        var mantissaBits: Int
        var exponentBits: Int
        /// Special words by name; they sit just above the largest positive mantissa.
        var specials: [(word: UInt32, name: String)]

        /// The largest mantissa with exponent 0; the next words up are the special values.
        var largestMantissa: Int64 { (1 << Int64(mantissaBits - 1)) - 3 }
        var mantissaRange: ClosedRange<Int64> { -(1 << Int64(mantissaBits - 1))...((1 << Int64(mantissaBits - 1)) - 1) }
        var exponentRange: ClosedRange<Int64> { -(1 << Int64(exponentBits - 1))...((1 << Int64(exponentBits - 1)) - 1) }

        /// Whether the mantissa can be written with this exponent without making a special word.
        func holds(_ mantissa: Int64, _ exponent: Int64) -> Bool {
            mantissaRange.contains(mantissa) && (exponent != 0 || abs(mantissa) <= largestMantissa)
        }
    }

    static let sfloatFormat = Format(
        mantissaBits: 12, exponentBits: 4,
        specials: [(0x07FE, "+INF"), (0x07FF, "NaN"), (0x0800, "NRes"), (0x0801, "reserved"), (0x0802, "-INF")])
    static let floatFormat = Format(
        mantissaBits: 24, exponentBits: 8,
        specials: [
            (0x007F_FFFE, "+INF"), (0x007F_FFFF, "NaN"), (0x0080_0000, "NRes"), (0x0080_0001, "reserved"),
            (0x0080_0002, "-INF"),
        ])

    public static func sfloat(_ word: UInt16) -> FieldValue { value(UInt32(word), sfloatFormat) }
    public static func float(_ word: UInt32) -> FieldValue { value(word, floatFormat) }

    /// The SFLOAT word for a number (rounded to 12 significant bits of mantissa) or a special name.
    public static func sfloatWord(_ value: FieldValue, field: String) throws(EncodeError) -> UInt16 {
        UInt16(try word(value, sfloatFormat, field))
    }

    /// The FLOAT word for a number (rounded to the 24-bit mantissa) or a special name.
    public static func floatWord(_ value: FieldValue, field: String) throws(EncodeError) -> UInt32 {
        try word(value, floatFormat, field)
    }

    static func value(_ word: UInt32, _ format: Format) -> FieldValue {
        if let special = format.specials.first(where: { $0.word == word }) { return .string(special.name) }
        let mantissa = signExtend(word, bits: format.mantissaBits)
        let exponent = signExtend(word >> UInt32(format.mantissaBits), bits: format.exponentBits)
        // Parsing "m e x" rounds once, so 364 × 10^-1 is exactly the Double nearest 36.4.
        return Double("\(mantissa)e\(exponent)").map(FieldValue.double) ?? .null
    }

    static func signExtend(_ word: UInt32, bits: Int) -> Int64 {
        let shift = 64 - bits
        return Int64(bitPattern: UInt64(word) << UInt64(shift)) >> Int64(shift)
    }

    static func word(_ value: FieldValue, _ format: Format, _ field: String) throws(EncodeError) -> UInt32 {
        let text: String
        switch value {
        case .string(let name):
            guard let special = format.specials.first(where: { $0.name == name }) else {
                throw EncodeError(.outOfRange("a number or one of +INF, NaN, NRes, reserved, -INF"), field: field)
            }
            return special.word
        case .int(let number): text = number.description
        case .double(let number) where number.isFinite: text = number.description
        default: throw EncodeError(.wrongType(expected: "number"), field: field)
        }
        guard var (mantissa, exponent) = decimalParts(text) else {
            throw EncodeError(.wrongType(expected: "number"), field: field)
        }
        // Fewer significant digits until the mantissa fits, then move the exponent into range.
        while !format.holds(mantissa, exponent) || exponent < format.exponentRange.lowerBound {
            mantissa = dividedByTenRounded(mantissa)
            exponent += 1
        }
        while exponent > format.exponentRange.upperBound, format.mantissaRange.contains(mantissa * 10) {
            mantissa *= 10
            exponent -= 1
        }
        guard format.exponentRange.contains(exponent) else {
            throw EncodeError(.outOfRange("too large for the format"), field: field)
        }
        let mantissaMask = UInt32(1 << format.mantissaBits) - 1
        let exponentMask = UInt32(1 << format.exponentBits) - 1
        return (UInt32(truncatingIfNeeded: exponent) & exponentMask) << UInt32(format.mantissaBits)
            | UInt32(truncatingIfNeeded: mantissa) & mantissaMask
    }

    /// "36.4" → (364, −1); "1e-05" → (1, −5); "370.0" → (37, 1). Trailing zeros go into the exponent.
    static func decimalParts(_ text: String) -> (mantissa: Int64, exponent: Int64)? {
        let parts = text.lowercased().split(separator: "e", maxSplits: 1)
        guard let number = parts.first else { return nil }
        var exponent = parts.count == 2 ? Int64(parts[1]) ?? 0 : 0
        let negative = number.hasPrefix("-")
        let unsigned = number.drop { $0 == "-" || $0 == "+" }
        let pieces = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var digits = Substring(pieces[0])
        if pieces.count == 2 {
            digits += pieces[1]
            exponent -= Int64(pieces[1].count)
        }
        digits = digits.drop { $0 == "0" }
        while digits.count > 18 {  // more digits than any format keeps; Int64 holds 18 safely
            digits.removeLast()
            exponent += 1
        }
        guard digits.allSatisfy(\.isASCII), var mantissa = digits.isEmpty ? 0 : Int64(digits) else { return nil }
        if mantissa == 0 { return (0, 0) }
        while mantissa % 10 == 0 {
            mantissa /= 10
            exponent += 1
        }
        return (negative ? -mantissa : mantissa, exponent)
    }

    /// Rounds half away from zero.
    static func dividedByTenRounded(_ value: Int64) -> Int64 {
        value >= 0 ? (value + 5) / 10 : (value - 5) / 10
    }
}
