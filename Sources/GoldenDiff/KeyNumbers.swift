/// Decoder names seen so far, numbered. Lines name a handful of decoders over and over, so a
/// name is found by comparing bytes with the last match and then the few known names. Names are
/// told apart by their value, not their spelling: `"\u0061cme"` is `acme`.
struct DecoderNames {
    /// nil for the readings of `"decoder": null`.
    private(set) var names: [String?] = []
    /// Each name's UTF-8 (unescaped, invalid bytes replaced as String does).
    private var spellings: [[UInt8]] = []
    private var last = -1
    private var null: Int?

    /// The number of the decoder whose string contents are `range` (nil: the decoder is null).
    mutating func number(_ lines: ReadingLines, _ range: Range<Int>?, escaped: Bool) -> Int {
        guard let range else { return number(nil) }
        if !escaped {
            let found: Int? = lines.bytes.withUnsafeBufferPointer { buffer in
                let candidate = UnsafeBufferPointer(rebasing: buffer[range])
                if last >= 0, Self.same(spellings[last], candidate) { return last }
                return spellings.indices.first { names[$0] != nil && Self.same(spellings[$0], candidate) }
            }
            if let found {
                last = found
                return found
            }
        }
        return number(lines.string(range, escaped: escaped))
    }

    private static func same(_ spelling: [UInt8], _ candidate: UnsafeBufferPointer<UInt8>) -> Bool {
        spelling.withUnsafeBytes { ReadingLines.sameBytes($0, UnsafeRawBufferPointer(candidate)) }
    }

    mutating func number(_ name: String?) -> Int {
        guard let name else {
            if let null { return null }
            names.append(nil)
            spellings.append([])  // never looked up: a name is never matched against this slot
            null = names.count - 1
            return null!
        }
        let spelling = Array(name.utf8)
        if let found = spellings.indices.first(where: { spellings[$0] == spelling && names[$0] != nil }) {
            last = found
            return found
        }
        names.append(name)
        spellings.append(spelling)
        last = names.count - 1
        return last
    }
}

/// Addresses as numbers: a Bluetooth address (`C2:6B:30:F9:0E:C7`) is its own 48-bit value; any
/// other text is numbered above that range as it is first seen.
struct AddressNumbers {
    private var others: [String: Int] = [:]

    mutating func number(_ lines: ReadingLines, _ range: Range<Int>, escaped: Bool) -> Int {
        if !escaped {
            let value = lines.bytes.withUnsafeBufferPointer {
                Self.bluetoothAddress(UnsafeBufferPointer(rebasing: $0[range]))
            }
            if let value { return value }
        }
        return number(lines.string(range, escaped: escaped))
    }

    mutating func number(_ text: String) -> Int {
        var text = text
        if let value = text.withUTF8({ Self.bluetoothAddress($0) }) { return value }
        if let known = others[text] { return known }
        let number = 1 << 48 + others.count
        others[text] = number
        return number
    }

    /// Six hex bytes separated by colons, read without building a string.
    static func bluetoothAddress(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 17 else { return nil }
        var value = 0
        for (offset, byte) in bytes.enumerated() {
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
