import JSON
import TestSupport
import Testing

/// What the writer prints for one number.
func written(_ value: Double) -> String {
    var w = JSONWriter()
    w.double(value)
    return String(decoding: w.bytes, as: UTF8.self)
}

struct NumberTests {
    /// Non-integral doubles must print exactly as Swift's `description` (the shortest text that
    /// reads back as the same Double), whichever path the writer takes.
    @Test(arguments: [1e-3, 1.0, 100.0, 1e6, 1e12, 1e15])
    func `fractions print as description does`(scale: Double) {
        var generator = TestRandom(seed: UInt64(scale.exponent + 2000))
        for _ in 0..<100_000 {
            let raw = Double(generator.next() % 2_000_000) / 1000 - 1000  // sensor-like, 3 decimals
            let wide = Double(bitPattern: 0x3FF0_0000_0000_0000 | generator.next() >> 12) * scale  // all 52 bits
            for value in [raw * scale / 1000, raw / 7, wide, -wide] where value != value.rounded() {
                #expect(written(value) == value.description, "bits \(value.bitPattern)")
            }
        }
    }

    /// Binary fractions (RR intervals in 1/1024 s, raw × 2^-n scales) take a shortcut: as many
    /// decimals as they have bits after the point. Every count of those bits, at every size up to
    /// where the digits pass 10^15 and the text is `description`'s own.
    @Test func `binary fractions print as description does`() {
        var generator = TestRandom(seed: 1024)
        for bits in 1...20 {
            let unit = Double(sign: .plus, exponent: -bits, significand: 1)
            for integerBits in [0, 4, 10, 20, 30, 40] {
                for _ in 0..<2_000 {
                    let integer = Double(generator.next() >> UInt64(64 - max(integerBits, 1)))
                    let odd = Double(generator.next() % (1 << UInt64(bits - 1)) * 2 + 1)
                    let value = integer + odd * unit
                    for signed in [value, -value] where signed != signed.rounded() {
                        #expect(written(signed) == signed.description, "bits \(signed.bitPattern)")
                    }
                }
            }
        }
        #expect(written(812.0 / 1024) == "0.79296875")
        #expect(written(-1.0 / 1024) == "-0.0009765625")
        #expect(written(1e9 + 0.03125) == "1000000000.03125")
    }

    @Test func `integral values print without a decimal point, non-finite as null`() {
        #expect(written(21) == "21")
        #expect(written(-3) == "-3")
        #expect(written(1e20) == "1e+20")
        #expect(written(.nan) == "null")
        #expect(written(.infinity) == "null")
        #expect(written(0.1) == "0.1")
        #expect(written(-1013.25) == "-1013.25")
        #expect(written(0.0001) == "0.0001")
        #expect(written(1.5e-7) == "1.5e-07")
    }

    @Test func `integers of every width and sign`() {
        for value: Int64 in [0, 9, 10, 99, 100, 12345, -1, -10, -99, -100, .max, .min + 1] {
            var w = JSONWriter()
            w.int(value)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(value))
        }
        var w = JSONWriter()
        w.int(Int64.min)
        #expect(String(decoding: w.bytes, as: UTF8.self) == String(Int64.min))
    }

    @Test func `every two-digit pair comes out as String prints it`() {
        // 0…19,999 passes every pair at every position of up to five digits; then values of
        // every length, both signs.
        var values = Array(Int64(0)..<20_000)
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Int64(bitPattern: x) >> (x % 60)
            values += [value, -value]
        }
        var w = JSONWriter()
        for value in values {
            w.reset()
            w.int(value)
            if String(decoding: w.bytes, as: UTF8.self) != String(value) {
                Issue.record("\(value) written as \(String(decoding: w.bytes, as: UTF8.self))")
                return
            }
        }
    }
}

struct StructureTests {
    @Test func `keys, literals, hex and commas`() {
        var w = JSONWriter(capacity: 8)  // small, so appends have to grow the buffer
        w.beginObject()
        w.key("frame")
        w.int(7)
        w.key("name")
        w.literal("adv_ind")
        w.key("data")
        w.hex([0x00, 0x0F, 0xA5, 0xFF])
        w.key(escaping: "quote\"d")
        w.string("line\nbreak\u{01}")
        w.key("list")
        w.beginArray()
        w.null()
        w.bool(true)
        w.timestamp(micros: -1_500_000)
        w.endArray()
        w.endObject()
        #expect(
            String(decoding: w.bytes, as: UTF8.self)
                == #"{"frame":7,"name":"adv_ind","data":"000fa5ff","quote\"d":"line\nbreak\u0001","list":[null,true,-1.500000]}"#)
    }
}

struct LiteralTests {
    @Test func `one-character literals and escapes`() {
        var w = JSONWriter()
        w.beginArray()
        w.literal("x")
        w.string("é\"\\\t\r")
        w.endArray()
        w.raw("z")
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"["x","é\"\\\t\r"]z"#)
    }
}

struct EscapingTests {
    /// Every byte value at every position of a 17-byte string (two words and a tail).
    @Test func `each special byte is escaped wherever it falls`() {
        for special: UInt8 in [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C] {
            for position in 0..<17 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
                bytes[position] = special
                let text = String(decoding: bytes, as: UTF8.self)
                var w = JSONWriter()
                w.string(text)
                var expected = "\""
                for b in bytes {
                    switch b {
                    case 0x22: expected += "\\\""
                    case 0x5C: expected += "\\\\"
                    case 0x0A: expected += "\\n"
                    case ..<0x20: expected += "\\u00" + (b < 0x10 ? "0" : "1") + String(b & 0xF, radix: 16)
                    default: expected += String(UnicodeScalar(b))
                    }
                }
                expected += "\""
                #expect(String(decoding: w.bytes, as: UTF8.self) == expected, "byte \(special) at \(position)")
            }
        }
        // Bytes that look close to the special ones pass through untouched.
        let near = String(decoding: [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x20, 0x21, 0x23], as: UTF8.self)
        var w = JSONWriter()
        w.string(near)
        #expect(String(decoding: w.bytes, as: UTF8.self) == "\"" + near + "\"")
    }
}

struct CommaPrefixedKeyTests {
    /// A key given as `,"name":` reads as `key(escaping:)` writes it: first in an object without
    /// its comma, after a member with it, at the lengths each copy path takes.
    @Test func `comma-prefixed keys read as escaped keys`() {
        for name in ["a", "ab", "rssi", "humidity_pct", "temperature_c", "a name of more than sixteen bytes", "é\"q"] {
            var encoded = JSONWriter(capacity: 8)
            encoded.raw(UInt8(ascii: ","))
            encoded.appendEscaped(name)
            encoded.raw(UInt8(ascii: ":"))
            let key = encoded.bytes
            var expected = JSONWriter(capacity: 8)
            var written = JSONWriter(capacity: 8)
            expected.beginObject()
            written.beginObject()
            for value in [1, 2] {
                expected.key(escaping: name)
                expected.int(value)
                key.withUnsafeBytes { written.key(commaPrefixed: $0) }
                written.int(value)
            }
            expected.key(escaping: "nested")
            written.key(escaping: "nested")
            expected.beginObject()
            written.beginObject()
            expected.key(escaping: name)
            key.withUnsafeBytes { written.key(commaPrefixed: $0) }
            expected.null()
            written.null()
            expected.endObject()
            written.endObject()
            expected.endObject()
            written.endObject()
            #expect(written.bytes == expected.bytes, "\(name)")
        }
    }
}

struct HexTests {
    @Test func `every byte value at every length and alignment`() {
        let all = (0...255).map { UInt8($0) }
        for start in 0..<4 {
            for length in [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 252] {
                let bytes = Array(all[start..<(start + length)].reversed())
                var w = JSONWriter()
                bytes.withUnsafeBytes { w.hex($0) }
                let expected = "\"" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
                #expect(String(decoding: w.bytes, as: UTF8.self) == expected)
            }
        }
    }

    /// A tail of written hex copied as a string of its own, at the lengths each copy path takes
    /// (a byte loop, two overlapping words of four or eight, a longer copy).
    @Test func `a quoted copy of written bytes is their tail, separated and quoted`() {
        let bytes = (0..<40).map { UInt8($0 * 7 & 0xFF) }
        for skip in [0, 2, 5, 37, 40] {
            var w = JSONWriter(capacity: 8)
            w.beginArray()
            bytes.withUnsafeBytes { w.hex($0) }
            let digits = String(decoding: w.bytes.dropFirst(2).dropLast(), as: UTF8.self)
            w.quotedCopy(ofWrittenAt: 2 + 2 * skip, count: 2 * (bytes.count - skip))
            w.endArray()
            let tail = String(digits.dropFirst(2 * skip))
            #expect(String(decoding: w.bytes, as: UTF8.self) == "[\"\(digits)\",\"\(tail)\"]", "skip \(skip)")
        }
    }
}
