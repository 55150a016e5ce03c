import JSON
import Statistics

/// Builds the page's bytes: markup as given, text and attribute values escaped. Control
/// characters from a capture (a device name is whatever the device sent) become U+FFFD.
struct HTMLWriter: NumberMarkup {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    /// Markup, written as it is.
    mutating func raw(_ markup: String) { bytes.append(contentsOf: markup.utf8) }

    mutating func raw(_ other: HTMLWriter) { bytes.append(contentsOf: other.bytes) }

    mutating func raw(_ other: borrowing JSONWriter) { other.withBytes { bytes.append(contentsOf: $0) } }

    /// One ASCII byte of markup (a separator between thousands of numbers: cheaper than a string).
    mutating func byte(_ ascii: UInt8) { bytes.append(ascii) }

    /// Text content, escaped.
    mutating func text(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "'"): raw("&#39;")
            case 0x09, 0x0A: bytes.append(byte)
            case 0..<0x20, 0x7F: raw("\u{FFFD}")
            default: bytes.append(byte)
            }
        }
    }

    /// ` name="value"`, the value escaped.
    mutating func attribute(_ name: String, _ value: String) {
        raw(" \(name)=\"")
        text(value)
        raw("\"")
    }

    /// An element with escaped text content: `<td class="n">42</td>`.
    mutating func element(_ tag: String, _ content: String, class name: String? = nil) {
        raw("<\(tag)")
        if let name { attribute("class", name) }
        raw(">")
        text(content)
        raw("</\(tag)>")
    }

    /// An integer in decimal, as `String(value)` writes it, without making a string.
    mutating func integer(_ value: Int) { integer(Int64(value)) }

    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    /// The decimal digits of `magnitude` (a chart writes hundreds of thousands).
    mutating func digits(_ magnitude: UInt64) {
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var rest = magnitude
        var room: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: any UInt64's 20 digits
        withUnsafeMutableBytes(of: &room) { room in
            var start = room.count
            repeat {
                start -= 1
                room[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            // One append per digit: for the few digits of a coordinate cheaper than appending
            // a buffer (a generic sequence copy each time).
            for i in start..<room.count { bytes.append(room[i]) }
        }
    }

    mutating func append(ascii text: String) { raw(text) }

    mutating func shortDecimal(_ value: Double, longest: Int) -> Bool {
        var room: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &room) { room in
            let text = room.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard let count = JSONWriter.writeShortDecimal(value, to: text), count <= longest else { return false }
            for i in 0..<count { bytes.append(text[i]) }
            return true
        }
    }

    /// `value` with `decimals` decimals, as `Formatting.fixed` writes it ("0.35").
    mutating func fixed(_ value: Double, _ decimals: Int) { Formatting.appendFixed(value, decimals, to: &bytes) }

    /// `number`'s text as a string.
    static func coordinate(_ value: Double) -> String {
        var writer = HTMLWriter(capacity: 24)
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
