/// A JSON number as the exact decimal it spells: `25`, `25.0`, `2.5e1` and `250e-1` are one value,
/// without going through a Double (which would make 9007199254740993 and 9007199254740992 equal).
///
/// The value is sign × digits × 10^exponent with no leading or trailing zero in `digits`; zero
/// has no digits and no sign. The exponent is kept as decimal text when it is too large for an
/// Int, so that even `1e99999999999999999999` compares exactly.
struct ExactNumber: Equatable {
    var negative: Bool
    /// Significant digits as ASCII, first and last non-zero; empty for zero.
    var digits: [UInt8]
    var exponent: Exponent

    /// A power of ten: an Int when it fits, otherwise its decimal text (sign, then digits with no
    /// leading zero), which is never a value that fits.
    enum Exponent: Equatable {
        case small(Int)
        case large(negative: Bool, digits: [UInt8])
    }

    /// Reads the text of a JSON number (as the parser keeps it); nil when it is not one.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { Self.isDigit($0) }
        bytes = bytes.dropFirst(integer.count)
        guard !integer.isEmpty else { return nil }
        var fraction = ArraySlice<UInt8>()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix { Self.isDigit($0) }
            bytes = bytes.dropFirst(fraction.count)
            guard !fraction.isEmpty else { return nil }
        }
        var written = Exponent.small(0)
        if let e = bytes.first, e | 0x20 == UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix { Self.isDigit($0) }
            bytes = bytes.dropFirst(exponentDigits.count)
            guard !exponentDigits.isEmpty else { return nil }
            written = Exponent(negative: exponentNegative, digits: exponentDigits)
        }
        guard bytes.isEmpty else { return nil }

        var all = Array(integer) + Array(fraction)
        // Each fraction digit is a power of ten down; each trailing zero dropped, one up.
        var shift = -fraction.count
        while all.last == UInt8(ascii: "0") {
            all.removeLast()
            shift += 1
        }
        let leading = all.prefix { $0 == UInt8(ascii: "0") }.count
        digits = Array(all.dropFirst(leading))
        if digits.isEmpty {
            negative = false
            exponent = .small(0)
        } else {
            exponent = written.adding(shift)
        }
    }

    /// The value as an Int64 when it is a whole number in range (`3`, `3.0`, `3e0`, `30e-1`).
    var int64: Int64? {
        if digits.isEmpty { return 0 }
        guard case .small(let power) = exponent, power >= 0, digits.count + power <= 19 else { return nil }
        // Accumulated negative, so that Int64.min is reachable.
        var value: Int64 = 0
        for digit in digits + [UInt8](repeating: UInt8(ascii: "0"), count: power) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

extension ExactNumber.Exponent {
    /// Up to 18 digits fit an Int; more never do once leading zeros are gone.
    init(negative: Bool, digits: some Collection<UInt8>) {
        let significant = Array(digits.drop { $0 == UInt8(ascii: "0") })
        if significant.count <= 18 {
            var value = 0
            for digit in significant { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
            self = .small(negative ? -value : value)
        } else {
            self = .large(negative: negative, digits: significant)
        }
    }

    /// This power plus `shift`, which is small (bounded by the length of a number's text).
    func adding(_ shift: Int) -> Self {
        switch self {
        case .small(let value):
            let (sum, overflow) = value.addingReportingOverflow(shift)
            if !overflow, sum.magnitude < 1_000_000_000_000_000_000 { return .small(sum) }
            // Past 18 digits: redo the sum in decimal text.
            let text = Array(String(value.magnitude).utf8)
            return Self.large(negative: value < 0, digits: text).adding(shift)
        case .large(let negative, let digits):
            // |value| ≥ 10^18 > |shift|: the sign stays, and the magnitude grows or shrinks by |shift|.
            let grows = (shift >= 0) != negative
            var result = [UInt8](repeating: UInt8(ascii: "0"), count: 20) + digits
            var amount = Int(shift.magnitude)
            var carry = 0
            var position = result.count - 1
            while amount != 0 || carry != 0 {
                var digit = Int(result[position] - UInt8(ascii: "0"))
                digit += grows ? amount % 10 + carry : -(amount % 10) - carry
                amount /= 10
                carry = 0
                if digit >= 10 {
                    digit -= 10
                    carry = 1
                } else if digit < 0 {
                    digit += 10
                    carry = 1
                }
                result[position] = UInt8(ascii: "0") + UInt8(digit)
                position -= 1
            }
            return Self(negative: negative, digits: result)
        }
    }
}
