/// Appends JSON to a byte buffer without building intermediate strings or objects.
///
/// Output is canonical: numbers in their shortest round-trip form, integers without a decimal
/// point, timestamps as seconds with exactly six decimals written from integer microseconds.
/// Commas are placed automatically: a key or array element after another gets one.
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]

    public init(capacity: Int = 1 << 16) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    // MARK: Structure

    @inlinable
    public mutating func separate() {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "["), last != UInt8(ascii: ":"),
            last != UInt8(ascii: "\n")
        {
            bytes.append(UInt8(ascii: ","))
        }
    }

    @inlinable public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")) }
    @inlinable public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    @inlinable public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")) }
    @inlinable public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }
    @inlinable public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    /// Writes `"name":`; the name must not need escaping (all Bluetape keys are snake_case).
    @inlinable
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a key that comes from data (decoder field names), escaped.
    @inlinable
    public mutating func key(_ name: String) {
        separate()
        appendEscaped(name)
        bytes.append(UInt8(ascii: ":"))
    }

    // MARK: Values

    @inlinable
    public mutating func null() { separate(); append("null") }

    @inlinable
    public mutating func bool(_ value: Bool) { separate(); append(value ? "true" : "false") }

    @inlinable
    public mutating func string(_ value: String) {
        separate()
        appendEscaped(value)
    }

    @inlinable
    public mutating func int<T: BinaryInteger>(_ value: T) {
        separate()
        appendInteger(value)
    }

    /// A number in its shortest round-trip form; integral values without a decimal point.
    /// Non-finite values have no JSON form and are written as null.
    @inlinable
    public mutating func double(_ value: Double) {
        separate()
        appendDouble(value)
    }

    /// Microseconds since the epoch as seconds with exactly six decimals, never through a Double.
    @inlinable
    public mutating func timestamp(micros: Int64) {
        separate()
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if micros < 0 {
            bytes.append(UInt8(ascii: "-"))
            seconds = -seconds
            fraction = -fraction
        }
        appendInteger(seconds)
        bytes.append(UInt8(ascii: "."))
        var divisor: Int64 = 100_000
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Bytes as a quoted lower-case hex string.
    @inlinable
    public mutating func hex(_ value: UnsafeRawBufferPointer) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for b in value {
            bytes.append(Self.hexDigits[Int(b >> 4)])
            bytes.append(Self.hexDigits[Int(b & 0x0F)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @inlinable
    public mutating func hex(_ value: [UInt8]) {
        value.withUnsafeBytes { hex($0) }
    }

    /// Text that is already valid JSON (a nested document written elsewhere).
    @inlinable
    public mutating func rawJSON(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    // MARK: Primitives

    @inlinable
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable
    public mutating func appendInteger<T: BinaryInteger>(_ value: T) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // scratch for up to 24 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while magnitude > 0 {
                scratch[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                bytes.append(scratch[count])
            }
        }
    }

    @inlinable
    public mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            append("null")
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    @inlinable
    public mutating func appendEscaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            for c in utf8 {
                switch c {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                case 0..<0x20:
                    append("\\u00")
                    bytes.append(Self.hexDigits[Int(c >> 4)])
                    bytes.append(Self.hexDigits[Int(c & 0x0F)])
                default: bytes.append(c)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
