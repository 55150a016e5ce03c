import PayloadDecoders
import TestSupport
import Testing

struct IEEE11073Tests {
    @Test(
        arguments: [
            // payloads.md §D.2 worked examples (word as read little-endian from the bytes shown there)
            (0xF16D, 36.5),  // 6D F1: 365 × 10^-1
            (0x0172, 370.0),  // 72 01: 370 × 10^0
            (0xFF9C, -10.0),  // 9C FF: −100 × 10^-1
            (0x07FD, 2045.0),  // largest mantissa
            (0x0803 | 0xF000, -204.5),  // −2045 × 10^-1
            (0x7001, 10_000_000.0),  // 1 × 10^7
            (0x8001, 0.000_000_01),  // 1 × 10^-8
        ] as [(UInt16, Double)])
    func `SFLOAT numbers`(word: UInt16, value: Double) {
        #expect(IEEE11073.sfloat(word) == .double(value))
    }

    @Test(
        arguments: [
            (0xFF00_016C, 36.4),  // 6C 01 00 FF
            (0xFF00_0172, 37.0),  // 72 01 00 FF
            (0xFDFF_FFFE, -0.002),  // FE FF FF FD
            (0xFF00_03DA, 98.6),  // DA 03 00 FF
            (0x007F_FFFD, 8_388_605.0),  // largest mantissa
            (0x0080_0003, -8_388_605.0),
            (0x0000_0000, 0.0),
        ] as [(UInt32, Double)])
    func `FLOAT numbers`(word: UInt32, value: Double) {
        #expect(IEEE11073.float(word) == .double(value))
    }

    @Test func `special values decode as strings`() {
        // payloads.md §D.2, Nordic's table
        #expect(IEEE11073.sfloat(0x07FE) == "+INF")
        #expect(IEEE11073.sfloat(0x07FF) == "NaN")
        #expect(IEEE11073.sfloat(0x0800) == "NRes")
        #expect(IEEE11073.sfloat(0x0801) == "reserved")
        #expect(IEEE11073.sfloat(0x0802) == "-INF")
        #expect(IEEE11073.float(0x007F_FFFE) == "+INF")
        #expect(IEEE11073.float(0x007F_FFFF) == "NaN")
        #expect(IEEE11073.float(0x0080_0000) == "NRes")
        #expect(IEEE11073.float(0x0080_0001) == "reserved")
        #expect(IEEE11073.float(0x0080_0002) == "-INF")
    }

    @Test func `the special patterns are numbers under another exponent`() {
        #expect(IEEE11073.sfloat(0xF7FE) == .double(204.6))  // 0x7FE = 2046 × 10^-1
        #expect(IEEE11073.float(0x0180_0000) == .double(-83_886_080.0))  // −2^23 × 10^1
    }

    @Test func `encoding finds mantissa and exponent`() throws {
        #expect(try IEEE11073.floatWord(36.4, field: "t") == 0xFF00_016C)
        #expect(try IEEE11073.floatWord(-0.002, field: "t") == 0xFDFF_FFFE)
        #expect(try IEEE11073.floatWord(370, field: "t") == 0x0100_0025)  // 37 × 10^1
        #expect(try IEEE11073.floatWord(0.0, field: "t") == 0)
        #expect(try IEEE11073.sfloatWord(36.5, field: "t") == 0xF16D)
        #expect(try IEEE11073.sfloatWord(-10.0, field: "t") == 0x1FFF)  // −1 × 10^1
        #expect(try IEEE11073.floatWord("NaN", field: "t") == 0x007F_FFFF)
        #expect(try IEEE11073.sfloatWord("-INF", field: "t") == 0x0802)
    }

    @Test func `encoding rounds a mantissa that is too long`() throws {
        // 12345.6 has six significant digits; a 12-bit mantissa holds 1235 × 10^1.
        #expect(IEEE11073.sfloat(try IEEE11073.sfloatWord(12345.6, field: "t")) == .double(12350.0))
        #expect(IEEE11073.float(try IEEE11073.floatWord(.double(0.1 + 0.2), field: "t")) == .double(0.3))
    }

    @Test func `encoding rejects what cannot be written`() {
        #expect(throws: EncodeError(.outOfRange("too large for the format"), field: "t")) {
            try IEEE11073.sfloatWord(1e30, field: "t")
        }
        #expect(throws: EncodeError.self) { try IEEE11073.floatWord("warm", field: "t") }
        #expect(throws: EncodeError(.wrongType(expected: "number"), field: "t")) {
            try IEEE11073.floatWord(.double(.infinity), field: "t")
        }
    }

    @Test func `every FLOAT word decodes and encodes back to the same value`() throws {
        var generator = TestRandom(seed: 0x11073)
        for _ in 0..<2000 {
            let word = UInt32.random(in: 0...UInt32.max, using: &generator)
            let value = IEEE11073.float(word)
            #expect(IEEE11073.float(try IEEE11073.floatWord(value, field: "t")) == value, "word \(word)")
            let short = UInt16(truncatingIfNeeded: word)
            let shortValue = IEEE11073.sfloat(short)
            #expect(IEEE11073.sfloat(try IEEE11073.sfloatWord(shortValue, field: "t")) == shortValue, "word \(short)")
        }
    }
}
