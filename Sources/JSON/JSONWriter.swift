/// Appends JSON to a byte buffer without building intermediate strings or objects.
///
/// Output is canonical: numbers in their shortest round-trip form, integers without a decimal
/// point, timestamps as seconds with exactly six decimals written from integer microseconds.
/// Commas are placed automatically: a key or array element after another gets one.
///
/// The writer owns raw memory and is not copyable: pass it `inout`. Every append is a bounds
/// check and a store, which is what lets `bluetape events` write hundreds of megabytes a second.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var used = 0
    @usableFromInline var capacity: Int
    /// A value was just completed: the next key or element needs a comma first.
    @usableFromInline var needsComma = false

    @usableFromInline static let hexDigits: StaticString = "0123456789abcdef"

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far (a copy).
    public var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: used)) }

    public var count: Int { used }

    /// The bytes written so far, without copying.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: used))
    }

    /// Forgets what was written, keeping the memory.
    public mutating func reset() {
        used = 0
        needsComma = false
    }

    // MARK: Raw appends

    @inlinable
    mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(used + extra) }
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inlinable
    public mutating func raw(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    @inlinable
    public mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + used).copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
    }

    @inlinable
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { raw(UnsafeRawBufferPointer($0)) }
    }

    /// Text (already valid where it goes: a whole line, a nested document).
    @inlinable
    public mutating func raw(string text: String) {
        var text = text
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    public mutating func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw($0) }
    }

    /// Room for `count` bytes written by `body`, which returns how many it wrote.
    @inlinable
    public mutating func rawWrite(upTo count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(count)
        used += body(base + used)
    }

    // MARK: Structure

    @inlinable
    public mutating func separate() {
        if needsComma { raw(UInt8(ascii: ",")) }
    }

    @inlinable public mutating func beginObject() {
        separate()
        raw(UInt8(ascii: "{"))
        needsComma = false
    }

    @inlinable public mutating func endObject() {
        raw(UInt8(ascii: "}"))
        needsComma = true
    }

    @inlinable public mutating func beginArray() {
        separate()
        raw(UInt8(ascii: "["))
        needsComma = false
    }

    @inlinable public mutating func endArray() {
        raw(UInt8(ascii: "]"))
        needsComma = true
    }

    @inlinable public mutating func newline() {
        raw(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Writes `"name":`; the name must not need escaping (all Bluetape keys are snake_case).
    @inlinable
    public mutating func key(_ name: StaticString) {
        separate()
        reserve(name.utf8CodeUnitCount + 3)
        base[used] = UInt8(ascii: "\"")
        used += 1
        name.withUTF8Buffer { raw(UnsafeRawBufferPointer($0)) }
        base[used] = UInt8(ascii: "\"")
        base[used + 1] = UInt8(ascii: ":")
        used += 2
        needsComma = false
    }

    /// Writes a key that comes from data (decoder field names), escaped. (A separate name, so that
    /// a literal key always takes the faster `key(_: StaticString)`.)
    @inlinable
    public mutating func key(escaping name: String) {
        separate()
        appendEscaped(name)
        raw(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    @inlinable
    public mutating func null() {
        separate()
        raw("null")
        needsComma = true
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        separate()
        raw(value ? "true" : "false")
        needsComma = true
    }

    @inlinable
    public mutating func string(_ value: String) {
        separate()
        appendEscaped(value)
        needsComma = true
    }

    /// Text given as UTF-8 bytes (a device name from the air). Printable ASCII is copied as is;
    /// anything else goes through String, which replaces invalid UTF-8 and escapes what JSON needs.
    @inlinable
    public mutating func string(utf8 bytes: UnsafeRawBufferPointer) {
        var plain = true
        for c in bytes where c < 0x20 || c > 0x7E || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
            plain = false
            break
        }
        guard plain else {
            string(String(decoding: bytes, as: UTF8.self))
            return
        }
        separate()
        reserve(bytes.count + 2)
        base[used] = UInt8(ascii: "\"")
        used += 1
        raw(bytes)
        raw(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string known at compile time that needs no escaping (names, enum values).
    @inlinable
    public mutating func literal(_ text: StaticString) {
        separate()
        reserve(text.utf8CodeUnitCount + 2)
        base[used] = UInt8(ascii: "\"")
        used += 1
        text.withUTF8Buffer { raw(UnsafeRawBufferPointer($0)) }
        base[used] = UInt8(ascii: "\"")
        used += 1
        needsComma = true
    }

    /// A quoted string whose bytes the caller writes (at most `count` of them, needing no escaping).
    @inlinable
    public mutating func quoted(upTo count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        separate()
        reserve(count + 2)
        base[used] = UInt8(ascii: "\"")
        used += 1
        used += body(base + used)
        base[used] = UInt8(ascii: "\"")
        used += 1
        needsComma = true
    }

    @inlinable
    public mutating func int<T: BinaryInteger>(_ value: T) {
        separate()
        appendInteger(value)
        needsComma = true
    }

    /// A number in its shortest round-trip form; integral values without a decimal point.
    /// Non-finite values have no JSON form and are written as null.
    @inlinable
    public mutating func double(_ value: Double) {
        separate()
        appendDouble(value)
        needsComma = true
    }

    /// Microseconds since the epoch as seconds with exactly six decimals, never through a Double.
    @inlinable
    public mutating func timestamp(micros: Int64) {
        separate()
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if micros < 0 {
            raw(UInt8(ascii: "-"))
            seconds = -seconds
            fraction = -fraction
        }
        appendInteger(seconds)
        reserve(7)
        base[used] = UInt8(ascii: ".")
        var i = 6
        while i > 0 {
            base[used + i] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
            i -= 1
        }
        used += 7
        needsComma = true
    }

    /// Bytes as a quoted lower-case hex string.
    @inlinable
    public mutating func hex(_ value: UnsafeRawBufferPointer) {
        separate()
        reserve(value.count * 2 + 2)
        Self.hexDigits.withUTF8Buffer { digits in
            var p = base + used
            p.pointee = UInt8(ascii: "\"")
            p += 1
            for b in value {
                p[0] = digits[Int(b >> 4)]
                p[1] = digits[Int(b & 0x0F)]
                p += 2
            }
            p.pointee = UInt8(ascii: "\"")
        }
        used += value.count * 2 + 2
        needsComma = true
    }

    @inlinable
    public mutating func hex(_ value: [UInt8]) {
        value.withUnsafeBytes { hex($0) }
    }

    /// Text that is already valid JSON (a nested document written elsewhere).
    @inlinable
    public mutating func rawJSON(_ json: [UInt8]) {
        separate()
        raw(json)
        needsComma = true
    }

    // MARK: Primitives

    @inlinable
    public mutating func appendInteger<T: BinaryInteger>(_ value: T) {
        if value >= 0, value < 10 {
            raw(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value))
            return
        }
        var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
        var digits = 0
        var probe = magnitude
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        let negative = value < 0
        let length = digits + (negative ? 1 : 0)
        reserve(length)
        if negative { base[used] = UInt8(ascii: "-") }
        var i = used + length - 1
        while magnitude > 0 {
            base[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            i -= 1
        }
        used += length
    }

    @inlinable
    public mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
            return
        }
        raw(string: value.description)
    }

    @inlinable
    public mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // Almost every string needs no escaping: copy it in one go.
            var plain = true
            for c in utf8 where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                plain = false
                break
            }
            reserve(utf8.count + 2)
            base[used] = UInt8(ascii: "\"")
            used += 1
            if plain {
                raw(UnsafeRawBufferPointer(utf8))
            } else {
                for c in utf8 {
                    switch c {
                    case UInt8(ascii: "\""): raw("\\\"")
                    case UInt8(ascii: "\\"): raw("\\\\")
                    case UInt8(ascii: "\n"): raw("\\n")
                    case UInt8(ascii: "\r"): raw("\\r")
                    case UInt8(ascii: "\t"): raw("\\t")
                    case 0..<0x20:
                        raw("\\u00")
                        Self.hexDigits.withUTF8Buffer { digits in
                            raw(digits[Int(c >> 4)])
                            raw(digits[Int(c & 0x0F)])
                        }
                    default: raw(c)
                    }
                }
            }
            raw(UInt8(ascii: "\""))
        }
    }
}
