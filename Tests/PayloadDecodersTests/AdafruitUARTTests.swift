import BluetoothPackets
@testable import PayloadDecoders
import TestSupport
import Testing

struct AdafruitUARTTests {
    let decoder = AdafruitUART()

    func notification(_ bytes: [UInt8]) -> Payload { .attribute(CombustionUART.tx, .notify, bytes) }

    @Test(arguments: [
        // payloads.md §B.3, the thermometer sketch's notifications
        ("32 30 2E 33 31", "20.31", 20.31),
        ("32 33 2E 32 34", "23.24", 23.24),
        ("32 34 2E 37 31", "24.71", 24.71),
        ("2D 31 2E 31 37", "-1.17", -1.17),
    ])
    func `a temperature notification gives text and temperature`(bytes: String, text: String, celsius: Double) {
        expectFields(
            decodeFields(decoder, notification(hex(bytes))), ["text": .string(text), "temperature_c": .double(celsius)])
    }

    @Test func `trailing NULs and line endings are trimmed`() {
        expectFields(
            decodeFields(decoder, notification(Array("23.24\r\n".utf8) + [0, 0])),
            ["text": "23.24", "temperature_c": 23.24])
        expectFields(decodeFields(decoder, notification(Array("ok\n".utf8))), ["text": "ok"])
    }

    @Test func `delimited numbers give a list of values`() {
        // payloads.md §B.3: "23.3|55.3" and the String(float) form "23.30|55.30"
        expectFields(
            decodeFields(decoder, notification(hex("32 33 2E 33 7C 35 35 2E 33"))),
            ["text": "23.3|55.3", "values": .list([23.3, 55.3])])
        expectFields(
            decodeFields(decoder, notification(hex("32 33 2E 33 30 7C 35 35 2E 33 30"))),
            ["text": "23.30|55.30", "values": .list([23.3, 55.3])])
        for text in ["1,2,3", "1;2;3", "1 2 3", "1, 2, 3"] {
            #expect(
                decodeFields(decoder, notification(Array(text.utf8)))?["values"] == .list([1.0, 2.0, 3.0]), "\(text)")
        }
    }

    @Test func `text that is not numeric stays text without an error`() {
        for text in ["hello", "23.3|warm", "nan", "inf", "1e5", "0x10", "1.2.3", "-", ""] {
            let fields = decodeFields(decoder, notification(Array(text.utf8)))
            #expect(fields == [Field("text", .string(text))], "\(text)")
        }
    }

    @Test func `writes are text too`() {
        let fields = decodeFields(decoder, .attribute(CombustionUART.rx, .write, Array("LED ON".utf8)))
        #expect(fields == [Field("text", "LED ON")])
    }

    @Test func `Combustion frames and bytes that are not UTF-8 are not this decoder's`() {
        #expect(decoder.decode(notification(hex("CA FE 5D 14 05 01 00"))) == [])
        #expect(decoder.decode(notification([0x32, 0xFF, 0x33])) == [])
        #expect(decoder.decode(notification([0xC3])) == [])  // a cut two-byte sequence
    }

    @Test func `encoding writes text, or a temperature with two decimals as Arduino does`() throws {
        #expect(try decoder.encode([Field("text", "23.24")]) == Array("23.24".utf8))
        #expect(try decoder.encode([Field("temperature_c", 20.3125)]) == Array("20.31".utf8))
        #expect(try decoder.encode([Field("temperature_c", -1.171875)]) == Array("-1.17".utf8))
        #expect(try decoder.encode([Field("temperature_c", -0.001)]) == Array("0.00".utf8))
        #expect(try decoder.encode([Field("values", .list([23.3, 55.3]))]) == Array("23.30|55.30".utf8))
        #expect(encodeError(decoder, []) == EncodeError(.missing, field: "values"))
        #expect(encodeError(decoder, [Field("temperature_c", "warm")])?.field == "temperature_c")
    }

    @Test func `ASCII text read byte by byte gives what reading it character by character gives`() {
        var generator = TestRandom(seed: 0x0A5C)
        // CR LF is one character of two bytes; NUL, CR and LF trail; the rest are delimiters,
        // number parts and letters.
        let alphabet = "0123456789.-+|,; \t\r\n\0xe".unicodeScalars.map(String.init)
        let fixed = ["23.3\r\n55", "1\r\n2", "\r\n", "5\r", "\r\n5", "+", "-.5", "5.", "1+2", "\0\0", "\t1\t"]
        let generated = (0..<2000).map { _ in
            (0..<Int.random(in: 0...10, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                .joined()
        }
        for text in fixed + generated {
            var utf8 = text
            let ascii = utf8.withUTF8(AdafruitUART.asciiFields)
            #expect(ascii == AdafruitUART.unicodeFields(of: text), "\(Array(text.utf8))")
        }
        var accented = "héllo 1"
        #expect(accented.withUTF8(AdafruitUART.asciiFields) == nil, "only ASCII is read byte by byte")
    }

    @Test func `decode of encode gives the fields back`() {
        let texts = ["20.31", "-1.17", "23.3|55.3", "0", "+5", "hello world", "1;2;3", "héllo", ""]
        for text in texts {
            guard let fields = decodeFields(decoder, notification(Array(text.utf8))) else { continue }
            expectRoundTrip(decoder, fields)
        }
        var generator = TestRandom(seed: 0xADA)
        let alphabet = Array("0123456789.-|,; abc")
        let generated = (0..<200).map { _ in
            Array(
                String(
                    (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator)!
                    }
                ).utf8)
        }
        #expect(expectRoundTrips(decoder, generated) == 200)
    }
}
