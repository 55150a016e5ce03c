import ByteReading

/// Adafruit BLE UART (nRF8001) text on the Nordic UART characteristics (payloads.md §B): each
/// notification (6e400003) or write (6e400002) is UTF-8 text with no framing. The DABLE thermometer
/// sketch sends one temperature as Arduino `String(float)`, e.g. "23.24" (§B.3); some sketches send
/// several values with a delimiter ("23.3|55.3").
public struct AdafruitUART: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "adafruit.uart" }
    public var summary: String { "Adafruit BLE UART text, with the numbers in it" }
    public var matches: [MatchKey] { [.characteristic(CombustionUART.rx), .characteristic(CombustionUART.tx)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("text", "the text, without trailing NULs, CR or LF"),
            FieldDescription("temperature_c", unit: "°C", "when the text is one number (the thermometer sketch)"),
            FieldDescription("values", "when the text is several numbers separated by | , ; or spaces"),
        ]
    }

    static let delimiters: Set<Character> = ["|", ",", ";", " ", "\t"]

    /// Bytes that start with the Combustion sync, or are not UTF-8, are not text: not ours.
    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        guard !payload.starts(with: CombustionUART.sync) else { return [] }
        // ASCII is UTF-8 as it stands: only other bytes need validating.
        if let ascii = payload.bytes.withUnsafeBufferPointer(Self.asciiFields) { return [.fields(ascii)] }
        guard let text = try? ByteReader.reading(payload.bytes, Self.readText) else { return [] }
        return [.fields(Self.unicodeFields(of: text))]
    }

    static func readText(_ reader: inout ByteReader) throws(DecodeError) -> String? {
        UTF8Text.decode(reader.rest())
    }

    /// The fields of any text, character by character.
    static func unicodeFields(of received: String) -> Fields {
        // The sketch's buffer can leave a NUL at the end; serial-style senders add CR/LF.
        var scalars = Substring(received).unicodeScalars
        while let last = scalars.last, last == "\0" || last == "\r" || last == "\n" { scalars.removeLast() }
        let text = String(scalars)

        var fields: Fields = [Field("text", .string(text))]
        let parts = text.split(whereSeparator: { delimiters.contains($0) })
        let numbers = parts.compactMap(decimal)
        if numbers.count == parts.count {
            if numbers.count == 1 {
                fields.append("temperature_c", .double(numbers[0]))
            } else if numbers.count > 1 {
                fields.append("values", .list(numbers.map(FieldValue.double)))
            }
        }
        return fields
    }

    /// `unicodeFields(of:)` for text that is all ASCII (what the sketches send), on its bytes:
    /// there each character is one byte, but for CR LF, which is one character and is neither a
    /// delimiter nor part of a number either way. nil for any other text.
    static func asciiFields(of utf8: UnsafeBufferPointer<UInt8>) -> Fields? {
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var end = utf8.count
        while end > 0, utf8[end - 1] == 0 || utf8[end - 1] == 0x0D || utf8[end - 1] == 0x0A { end -= 1 }
        let text = UnsafeBufferPointer(rebasing: utf8[..<end])
        var fields = Fields(capacity: 2)
        fields.append("text", .string(String(decoding: text, as: UTF8.self)))
        var numbers: [Double] = []
        var start = 0
        for i in 0...end where i == end || asciiDelimiters.contains(text[i]) {
            defer { start = i + 1 }
            guard i > start else { continue }
            guard let number = decimal(UnsafeBufferPointer(rebasing: text[start..<i])) else { return fields }
            numbers.append(number)
        }
        if numbers.count == 1 {
            fields.append("temperature_c", .double(numbers[0]))
        } else if numbers.count > 1 {
            fields.append("values", .list(numbers.map(FieldValue.double)))
        }
        return fields
    }

    static let asciiDelimiters: [UInt8] = delimiters.compactMap(\.asciiValue)

    /// A plain decimal ("23.24", "-1.17", "+5", "0.5"); nil for anything else, including the forms
    /// `Double.init` also takes ("nan", "inf", "1e5", "0x1p3").
    static func decimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var digits = 0
        var points = 0
        for (index, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "-") where index == 0, UInt8(ascii: "+") where index == 0: continue
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// `decimal` of text: each character of a plain decimal is one ASCII byte, so its bytes decide.
    static func decimal(_ text: Substring) -> Double? {
        var text = String(text)
        return text.withUTF8(decimal)
    }

    /// Writes `text` as UTF-8. Without `text`, writes `temperature_c` (or each of `values`, joined
    /// by "|") with two decimals, as Arduino's `String(float)` does.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        if fields.has("text") { return Array(try fields.string("text").utf8) }
        if fields.has("temperature_c") { return Array(try Self.twoDecimals(fields, "temperature_c").utf8) }
        var parts: [String] = []
        for value in try fields.list("values") {
            parts.append(try Self.twoDecimals(Fields([Field("values", value)]), "values"))
        }
        return Array(parts.joined(separator: "|").utf8)
    }

    static func twoDecimals(_ fields: Fields, _ name: String) throws(EncodeError) -> String {
        let value = try fields.number(name)
        guard abs(value) < 1e15 else { throw EncodeError(.outOfRange("below 10^15"), field: name) }
        let hundredths = Int64((abs(value) * 100).rounded())
        let fraction = hundredths % 100
        let sign = value < 0 && hundredths != 0 ? "-" : ""
        return "\(sign)\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
