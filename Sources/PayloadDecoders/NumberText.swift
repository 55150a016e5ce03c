// Numbers written as text in field values and error messages.

/// Upper-case hex digits, zero-padded on the left to `width` (serial "1000ABCD").
func hexDigits(_ value: UInt64, _ width: Int) -> String {
    String(unsafeUninitializedCapacity: hexDigitCount(value, width)) { writeHexDigits(value, width, to: $0.baseAddress!) }
}

/// How many digits `hexDigits` writes.
func hexDigitCount(_ value: UInt64, _ width: Int) -> Int { max(width, (64 - value.leadingZeroBitCount + 3) / 4, 1) }

/// `hexDigits` written where `text` points (room for `hexDigitCount`); answers how many.
func writeHexDigits(_ value: UInt64, _ width: Int, to text: UnsafeMutablePointer<UInt8>) -> Int {
    let count = hexDigitCount(value, width)
    let digits: StaticString = "0123456789ABCDEF"
    for i in 0..<count {
        let shift = 4 * (count - 1 - i)
        text[i] = shift < 64 ? digits.utf8Start[Int((value >> UInt64(shift)) & 0xF)] : UInt8(ascii: "0")
    }
    return count
}

/// Two hex digits, as codes are quoted in the specs ("0x0D").
func hex2(_ byte: UInt8) -> String { hexDigits(UInt64(byte), 2) }

/// Decimal digits, zero-padded on the left to `width` ("2024-11-20 09:05:00").
func zeroPadded(_ number: Int, _ width: Int) -> String { padded(String(number), width) }

private func padded(_ digits: String, _ width: Int) -> String {
    String(repeating: "0", count: max(0, width - digits.count)) + digits
}
