/// Decoder names seen so far, numbered. Lines name a handful of decoders over and over, so a
/// name is found by comparing bytes with the last match and then the few known names.
struct DecoderNames {
    private(set) var names: [String] = []
    private var spellings: [[UInt8]] = []
    private var last = -1

    mutating func number(_ lines: ReadingLines, _ range: Range<Int>, escaped: Bool) -> Int {
        let found: Int? = lines.bytes.withUnsafeBufferPointer { buffer in
            let candidate = UnsafeBufferPointer(rebasing: buffer[range])
            if last >= 0, spellings[last].elementsEqual(candidate) { return last }
            return spellings.firstIndex { $0.elementsEqual(candidate) }
        }
        if let found {
            last = found
            return found
        }
        spellings.append(Array(lines.bytes[range]))
        names.append(lines.string(range, escaped: escaped))
        last = names.count - 1
        return last
    }
}

/// Addresses as numbers: a Bluetooth address (`C2:6B:30:F9:0E:C7`) is its own 48-bit value; any
/// other text is numbered above that range as it is first seen.
struct AddressNumbers {
    private var others: [String: Int] = [:]

    mutating func number(_ lines: ReadingLines, _ range: Range<Int>, escaped: Bool) -> Int {
        if !escaped, let value = Self.bluetoothAddress(lines, range) { return value }
        let text = lines.string(range, escaped: escaped)
        if let known = others[text] { return known }
        let number = 1 << 48 + others.count
        others[text] = number
        return number
    }

    /// Six hex bytes separated by colons, read without building a string.
    static func bluetoothAddress(_ lines: ReadingLines, _ range: Range<Int>) -> Int? {
        guard range.count == 17 else { return nil }
        return lines.bytes.withUnsafeBufferPointer { buffer -> Int? in
            var value = 0
            for (offset, byte) in buffer[range].enumerated() {
                if offset % 3 == 2 {
                    guard byte == UInt8(ascii: ":") else { return nil }
                    continue
                }
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                value = value << 4 | Int(digit)
            }
            return value
        }
    }
}
