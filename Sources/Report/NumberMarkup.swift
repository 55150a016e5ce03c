import JSON
import Statistics

/// The numbers of a page's markup, written alike by both of its writers: `HTMLWriter`, and a
/// `JSONWriter` used as a plain byte buffer for a series' long runs of numbers (its times,
/// values and path), where an array's checks for every byte cost more than the digits.
protocol NumberMarkup: ~Copyable {
    mutating func byte(_ ascii: UInt8)
    mutating func integer(_ value: Int64)
    /// Text written as it is (ASCII: digits, a sign, a point).
    mutating func append(ascii text: String)
    /// `value` as `description` writes it when that is a short decimal of at most `longest`
    /// characters (`JSONWriter.writeShortDecimal`); false, with nothing written, otherwise.
    mutating func shortDecimal(_ value: Double, longest: Int) -> Bool
}

extension NumberMarkup where Self: ~Copyable {
    /// A coordinate with one decimal, no trailing ".0" ("12.5", "40", "-0.5"), written without
    /// making a string (a chart has thousands).
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            byte(UInt8(ascii: "0"))
            return
        }
        let tenths = roundedToInteger(value * 10)
        let whole = tenths / 10
        let fraction = abs(tenths % 10)
        if tenths < 0, whole == 0 { byte(UInt8(ascii: "-")) }
        integer(Int64(whole))
        if fraction != 0 {
            byte(UInt8(ascii: "."))
            byte(UInt8(ascii: "0") + UInt8(fraction))
        }
    }

    /// A value for the hover: integers exactly (the usual case), others as short as they
    /// round-trip, or to 7 significant digits when that is long (a product such as
    /// 46.199999999999996); most of them short decimals, written without making `description`.
    mutating func hoverValue(_ value: Double) {
        if value.magnitude < 1e15, let integer = Int64(exactly: value) {
            self.integer(integer)
            return
        }
        if shortDecimal(value, longest: 9) { return }
        let text = value.description
        let short = text.utf8.count <= 9 && !text.utf8.contains(UInt8(ascii: "e"))
        append(ascii: short ? text : Formatting.short(value, significant: 7))
    }
}

/// `Int(value.rounded())`, half away from zero, without a call into libm where the part after
/// the point is exact (below 2^52).
@inline(__always)
func roundedToInteger(_ value: Double) -> Int {
    guard value.magnitude < 0x1p52 else { return Int(value.rounded()) }
    var whole = Int(value)
    let rest = value - Double(whole)
    if rest >= 0.5 { whole += 1 } else if rest <= -0.5 { whole -= 1 }
    return whole
}

extension JSONWriter: NumberMarkup {
    mutating func byte(_ ascii: UInt8) { raw(ascii) }

    mutating func integer(_ value: Int64) { appendInteger(value) }

    mutating func append(ascii text: String) { raw(string: text) }

    mutating func shortDecimal(_ value: Double, longest: Int) -> Bool {
        var written = false
        rawWrite(upTo: JSONWriter.shortDecimalRoom) { text in
            guard let count = JSONWriter.writeShortDecimal(value, to: text), count <= longest else { return 0 }
            written = true
            return count
        }
        return written
    }
}
