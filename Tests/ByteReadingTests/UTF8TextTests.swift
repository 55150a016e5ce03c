import ByteReading
import Testing

/// `UTF8Text` answers as the standard library's validating initializer does.
struct UTF8TextTests {
    static func standard(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
    static func ours(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBytes { UTF8Text.decode($0) } }

    @Test func `the edges of table 3-7`() {
        let cases: [([UInt8], Bool)] = [
            ([], true), ([0x41, 0x7F], true),
            ([0xC2, 0x80], true), ([0xDF, 0xBF], true), ([0xC0, 0x80], false), ([0xC1, 0xBF], false),
            ([0xE0, 0xA0, 0x80], true), ([0xE0, 0x9F, 0xBF], false), ([0xED, 0x9F, 0xBF], true),
            ([0xED, 0xA0, 0x80], false), ([0xEF, 0xBF, 0xBF], true),
            ([0xF0, 0x90, 0x80, 0x80], true), ([0xF0, 0x8F, 0xBF, 0xBF], false), ([0xF4, 0x8F, 0xBF, 0xBF], true),
            ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5, 0x80, 0x80, 0x80], false), ([0xFF], false),
            ([0x80], false), ([0xC2], false), ([0xE2, 0x82], false), ([0xF0, 0x9F, 0x98], false),
            ([0xE2, 0x82, 0xAC, 0x41], true), ([0xE2, 0x41, 0xAC], false),
        ]
        for (bytes, valid) in cases {
            #expect((Self.ours(bytes) != nil) == valid, "\(bytes)")
            #expect(Self.ours(bytes) == Self.standard(bytes), "\(bytes)")
        }
    }

    @Test func `random bytes, most of them near the multi-byte edges`() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
            0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        for _ in 0..<200_000 {
            let count = Int(next() % 8)
            let bytes = (0..<count).map { _ in
                let r = next()
                return r % 4 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : interesting[Int(r >> 8) % interesting.count]
            }
            #expect(Self.ours(bytes) == Self.standard(bytes), "\(bytes)")
        }
    }
}
