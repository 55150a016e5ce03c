/// Text and bytes from a capture, made safe and readable for a terminal.
///
/// Names, notes and logged messages come from devices and files anyone can craft: printed as they
/// are, an escape sequence in one would drive the reader's terminal. Every control character (C0,
/// DEL and C1) is written as `\xNN` instead, so that nothing from a capture reaches a terminal raw.
public enum PrintableText {
    /// `text` with its control characters escaped: "Bell\x07", "line\x0aline".
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\x" + hexByte(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// UTF-8 bytes as escaped text (invalid sequences become U+FFFD).
    public static func escape(utf8 bytes: some Collection<UInt8>) -> String {
        escape(String(decoding: bytes, as: UTF8.self))
    }

    /// The bytes as btmon dumps them: rows of 16, hex then the printable ASCII ("." for the rest).
    public static func hexRows(_ bytes: some Collection<UInt8>) -> [String] {
        let all = Array(bytes)
        var rows: [String] = []
        var start = 0
        while start < all.count {
            let row = all[start..<min(start + 16, all.count)]
            var hex = row.map(hexByte).joined(separator: " ")
            hex += String(repeating: " ", count: 16 * 3 - 1 - hex.count)
            let ascii = String(row.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
            rows.append(hex + "  " + ascii)
            start += 16
        }
        return rows
    }

    /// C0 controls, DEL and C1 controls: what a terminal may act on.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func hexByte(_ byte: UInt8) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
