/// Numbers as JSON: integers from a literal of digit pairs, doubles in their shortest round-trip
/// form (the common sensor values without a call to `description`).
extension JSONWriter {
    @inlinable
    public mutating func appendInteger<T: BinaryInteger>(_ value: T) {
        if value >= 0, value < 10 {
            raw(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value))
            return
        }
        reserve(21)
        var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
        if value < 0 {
            base[used] = UInt8(ascii: "-")
            used += 1
        }
        // Digits go straight to their places, two at a time from the last: counted first, they
        // need no scratch area to be moved from (a copy the compiler made a call to memcpy).
        let count = Self.decimalDigitCount(magnitude)
        let out = UnsafeMutableRawPointer(base + used)
        let pairs = UnsafeRawPointer(Self.decimalPairs.utf8Start)
        var end = count
        while magnitude >= 100 {
            end -= 2
            out.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: Int(magnitude % 100) * 2, as: UInt16.self), toByteOffset: end,
                as: UInt16.self)
            magnitude /= 100
        }
        if magnitude >= 10 {
            out.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: Int(magnitude) * 2, as: UInt16.self), toByteOffset: 0,
                as: UInt16.self)
        } else {
            out.storeBytes(of: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude), as: UInt8.self)
        }
        used += count
    }

    /// How many decimal digits `value` has (1 for 0).
    @inlinable @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        // Frame numbers, times and field values mostly have up to ten digits: one or two steps.
        while rest >= 10_000 {
            rest /= 10_000
            count += 4
        }
        if rest >= 100 { return count + (rest >= 1_000 ? 3 : 2) }
        return count + (rest >= 10 ? 1 : 0)
    }

    /// "00" … "99", two bytes each. A literal, not a table built on first use: reading it needs
    /// no check that it has been made.
    @inlinable static var decimalPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    @inlinable
    public mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        // Integral (the same test as `value == value.rounded()`, without a call to libm).
        if abs(value) < 1e15, let integer = Int64(exactly: value) {
            appendInteger(integer)
            return
        }
        if appendShortDecimal(value) { return }
        raw(string: value.description)
    }

    /// Sensor values (21.5, -3.25, 1013.2) the fast way: the fewest decimals `k` for which
    /// `round(value·10^k) / 10^k` gives `value` back. With at most 15 significant digits that
    /// integer is unique and exact, so the text is what `description` prints (the shortest form
    /// that reads back as the same Double); anything else goes through `description`.
    @inlinable
    mutating func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 0.001, magnitude < 1e15 else { return false }
        var scale = 1.0
        for decimals in 1...15 {
            scale *= 10
            let product = magnitude * scale
            guard product < 1e15 else { return false }
            // Rounded half away from zero, as `rounded()`, without a call into libm: below 2^53
            // the part after the point is exact. Signed conversions: one instruction each.
            var digits = Int64(product)
            if product - Double(digits) >= 0.5 { digits &+= 1 }
            let scaled = Double(digits)
            guard scaled < 1e15 else { return false }
            guard scaled / scale == magnitude else { continue }
            appendDecimal(UInt64(digits), decimals: decimals, negative: value < 0)
            return true
        }
        return false
    }

    /// `digits` with a point before its last `decimals` digits (zeros before them as needed:
    /// 5 with 2 decimals is 0.05), written from the last digit back. (Split at the point by a
    /// division by a power of ten, the integer part and the fraction took two divisions by a
    /// number the compiler does not know, and a call each.)
    @inlinable @inline(__always)
    mutating func appendDecimal(_ digits: UInt64, decimals: Int, negative: Bool) {
        let count = max(Self.decimalDigitCount(digits), decimals + 1)
        reserve(count + 2)
        if negative {
            base[used] = UInt8(ascii: "-")
            used += 1
        }
        let out = base + used
        var rest = digits
        var place = count
        for _ in 0..<decimals {
            out[place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            place -= 1
        }
        out[place] = UInt8(ascii: ".")
        while place > 0 {
            place -= 1
            out[place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        used += count + 1
    }
}
