/// Text from bytes that must be UTF-8: the answer `String(validating:as:)` gives, without its
/// generic path. Bytes from the air are often binary, and text decoders are asked about each.
public enum UTF8Text {
    /// The text, or nil when the bytes are not well-formed UTF-8.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> String? {
        isWellFormed(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether the bytes are well-formed UTF-8 (Unicode §3.9, table 3-7): no stray continuation
    /// bytes, no overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut short.
    public static func isWellFormed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var i = 0
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The allowed range of the second byte depends on the lead; later bytes are 80…BF.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF:
                length = 3
                if lead == 0xE0 { low = 0xA0 }
                if lead == 0xED { high = 0x9F }
            case 0xF0...0xF4:
                length = 4
                if lead == 0xF0 { low = 0x90 }
                if lead == 0xF4 { high = 0x8F }
            default: return false
            }
            guard count - i >= length, (low...high).contains(bytes[i + 1]) else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
