import ByteReading
import Testing

struct ByteReaderTests {
    @Test func `integers are read in the byte order asked for`() throws {
        let bytes: [UInt8] = [0x34, 0x12, 0x29, 0x09, 0x2E, 0xFB, 0xFF, 0xFF, 0xAA, 0xBB, 0xCC]
        try ByteReader.reading(bytes) { r throws(DecodeError) in
            #expect(try r.u16le() == 0x1234)
            #expect(try r.i16le() == 2345)
            #expect(try r.i32le() == -1234)
            #expect(try r.u24le() == 0xCCBBAA)
            #expect(r.isAtEnd)
        }
        try ByteReader.reading(bytes) { r throws(DecodeError) in
            #expect(try r.u16be() == 0x3412)
            #expect(try r.u32be() == 0x2909_2EFB)
            #expect(try r.signed(size: 3, .little) == -0x55_0001)  // FF FF AA little-endian = 0xAAFFFF
        }
    }

    @Test func `sign extension covers odd widths`() throws {
        try ByteReader.reading([0xFF, 0xFF, 0x7F] as [UInt8]) { r throws(DecodeError) in
            #expect(try r.signed(size: 3, .little) == 0x7FFFFF)
        }
        try ByteReader.reading([0x00, 0x00, 0x80] as [UInt8]) { r throws(DecodeError) in
            #expect(try r.signed(size: 3, .little) == -0x800000)
        }
    }

    @Test func `a short read names the field and the offset`() throws {
        let error = #expect(throws: DecodeError.self) {
            try ByteReader.reading([1, 2, 3] as [UInt8]) { r throws(DecodeError) in
                _ = try r.u16le("nonce")
                _ = try r.u16le("temperature")
            }
        }
        #expect(error == DecodeError(.truncated(needed: 2, available: 1), at: 2, field: "temperature"))
        #expect(error?.description == "temperature at offset 2: truncated: needs 2 bytes, 1 left")
    }

    @Test func `a sub-reader reports offsets of the outer bytes`() throws {
        let error = #expect(throws: DecodeError.self) {
            try ByteReader.reading([9, 9, 9, 2, 0xAA] as [UInt8]) { r throws(DecodeError) in
                try r.skip(3)
                let length = Int(try r.u8())
                var inner = try r.sub(1, "ad")
                _ = length
                _ = try inner.u8()
                _ = try inner.u8("ad.data")
            }
        }
        #expect(error?.offset == 5)
        #expect(error?.field == "ad.data")
    }

    @Test func `fixed-size structures reject trailing bytes`() {
        #expect(throws: DecodeError(.trailingBytes(count: 2), at: 1, field: "battery")) {
            try ByteReader.reading([85, 0, 0] as [UInt8]) { r throws(DecodeError) in
                _ = try r.u8()
                try r.expectEnd("battery")
            }
        }
    }

    @Test func `hex goes both ways`() {
        #expect(Hex.encode([0x00, 0x1A, 0xFF]) == "001aff")
        #expect(Hex.decode("00 1A:ff") == [0x00, 0x1A, 0xFF])
        #expect(Hex.decode("0x0652") == [0x06, 0x52])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func `the writer is the reader's inverse`() throws {
        var w = ByteWriter()
        w.u16le(0x1234)
        w.unsigned(0x00FF_FFFF, size: 3, .big)
        w.u32le(0xDEAD_BEEF)
        #expect(w.bytes == [0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xEF, 0xBE, 0xAD, 0xDE])
        try ByteReader.reading(w.bytes) { r throws(DecodeError) in
            #expect(try r.u16le() == 0x1234)
            #expect(try r.unsigned(size: 3, .big) == 0xFF_FFFF)
            #expect(try r.u32le() == 0xDEAD_BEEF)
        }
    }
}
