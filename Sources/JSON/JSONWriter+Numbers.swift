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

    /// Sensor values (21.5, -3.25, 1013.2) the fast way (`writeShortDecimal`); false, with
    /// nothing written, for the others.
    @inlinable
    mutating func appendShortDecimal(_ value: Double) -> Bool {
        reserve(Self.shortDecimalRoom)
        guard let count = Self.writeShortDecimal(value, to: base + used) else { return false }
        used += count
        return true
    }

    /// The most bytes `writeShortDecimal` writes: a sign, 16 digits and a point.
    @inlinable public static var shortDecimalRoom: Int { 24 }

    /// Writes `value` at `out` (room for `shortDecimalRoom` bytes) as `description` would and
    /// gives its length, when it is a decimal of at most 15 significant digits from 0.001 up to
    /// 10^15; nil, with nothing written, otherwise. The text has the fewest decimals `k` for
    /// which `round(value·10^k) / 10^k` gives `value` back: with at most 15 significant digits
    /// that integer is unique and exact, so the text is the shortest that reads back as the
    /// same Double, which is what `description` prints.
    @inlinable
    public static func writeShortDecimal(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let magnitude = abs(value)
        guard magnitude >= 0.001, magnitude < 1e15 else { return nil }
        // A binary fraction of f bits after the point (812/1024 = 0.79296875) has exactly f
        // decimals, most often also its fewest: f is tried first, and f - 1 then must fail.
        // Decimals that give the value back for some k give it back for every k after (while
        // the integer stays below 10^15), so that failure means no k below f works either, and
        // the loop would have come to f. RR intervals in 1/1024 s took ten rounds of it.
        let fractionBits = Self.fractionBits(magnitude)
        if fractionBits >= 3, fractionBits <= 15,
            let digits = Self.digits(magnitude, scale: Self.powerOfTen(fractionBits)),
            Self.digits(magnitude, scale: Self.powerOfTen(fractionBits - 1)) == nil
        {
            return writeDecimal(UInt64(digits), decimals: fractionBits, negative: value < 0, to: out)
        }
        var scale = 1.0
        for decimals in 1...15 {
            scale *= 10
            // Past 10^15 the integer is no longer sure to be unique: `description` decides.
            guard magnitude * scale < 1e15 else { return nil }
            if let digits = Self.digits(magnitude, scale: scale) {
                return writeDecimal(UInt64(digits), decimals: decimals, negative: value < 0, to: out)
            }
        }
        return nil
    }

    /// Bits after the binary point of a normal, positive double (negative when it is a whole
    /// number): `significandWidth - exponent`, from the bits (those two are calls each).
    @inlinable @inline(__always)
    static func fractionBits(_ magnitude: Double) -> Int {
        let bits = magnitude.bitPattern
        let exponent = Int(bits >> 52 & 0x7FF) - 1023
        let significand = bits & (1 << 52 - 1)
        let width = significand == 0 ? 0 : 52 - significand.trailingZeroBitCount
        return width - exponent
    }

    /// `round(magnitude·scale)` (`scale` 10^k) when it is below 10^15 and gives `magnitude` back
    /// divided by `scale`, else nil.
    /// Rounded half away from zero, as `rounded()`, without a call into libm: below 2^53 the
    /// part after the point is exact. Signed conversions: one instruction each.
    @inlinable @inline(__always)
    static func digits(_ magnitude: Double, scale: Double) -> Int64? {
        let product = magnitude * scale
        guard product < 1e15 else { return nil }
        var digits = Int64(product)
        if product - Double(digits) >= 0.5 { digits &+= 1 }
        let scaled = Double(digits)
        guard scaled < 1e15, scaled / scale == magnitude else { return nil }
        return digits
    }

    /// 10^n for n from 1 to 15, exact: a load from a table the compiler makes of the cases, not
    /// a chain of n multiplications (nor a tuple copied to the stack for every number).
    @inlinable @inline(__always)
    static func powerOfTen(_ n: Int) -> Double {
        switch n {
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    /// `digits` with a point before its last `decimals` digits (zeros before them as needed:
    /// 5 with 2 decimals is 0.05), after a sign when `negative`, written at `target` from the
    /// last digit back, two at a time from the pairs literal where the point does not fall
    /// between them; gives the length written. (Split at the point by a division by a power of
    /// ten, the integer part and the fraction took two divisions by a number the compiler does
    /// not know, and a call each.)
    @inlinable @inline(__always)
    static func writeDecimal(
        _ digits: UInt64, decimals: Int, negative: Bool, to target: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let count = max(decimalDigitCount(digits), decimals + 1)
        let sign = negative ? 1 : 0
        // Stored either way (a digit takes its place when there is no sign): no branch.
        target.pointee = UInt8(ascii: "-")
        let out = UnsafeMutableRawPointer(target + sign)
        let pairs = UnsafeRawPointer(decimalPairs.utf8Start)
        var rest = digits
        // The text is `count` digits and the point: the last at `place`, the point at `count - decimals`.
        var place = count
        var fraction = decimals
        if fraction & 1 == 1 {
            let digit = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            out.storeBytes(of: digit, toByteOffset: place, as: UInt8.self)
            rest /= 10
            place -= 1
            fraction -= 1
        }
        while fraction > 0 {
            out.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: Int(rest % 100) * 2, as: UInt16.self), toByteOffset: place - 1,
                as: UInt16.self)
            rest /= 100
            place -= 2
            fraction -= 2
        }
        out.storeBytes(of: UInt8(ascii: "."), toByteOffset: place, as: UInt8.self)
        while place >= 2 {
            out.storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: Int(rest % 100) * 2, as: UInt16.self), toByteOffset: place - 2,
                as: UInt16.self)
            rest /= 100
            place -= 2
        }
        if place == 1 {
            out.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest), as: UInt8.self)
        }
        return sign + count + 1
    }
}
