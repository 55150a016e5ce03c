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
    /// The whole seconds of the last timestamp written and their digits (at most 13, as far as
    /// Int64 microseconds go): a capture's events come many to a second, so each second's digits
    /// are worked out once.
    @usableFromInline var lastSeconds: Int64 = -1
    @usableFromInline var lastSecondsDigits: (UInt64, UInt64) = (0, 0)
    @usableFromInline var lastSecondsCount = 0

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

    /// Puts `bytes` at `offset`, moving what follows: to add a key to an object already written
    /// (`"capture":"a.btsnoop",` after a line's opening brace).
    public mutating func insert(_ bytes: [UInt8], at offset: Int) {
        precondition(offset >= 0 && offset <= used, "insert past the end")
        reserve(bytes.count)
        (base + offset + bytes.count).update(from: base + offset, count: used - offset)
        if !bytes.isEmpty { bytes.withUnsafeBufferPointer { (base + offset).update(from: $0.baseAddress!, count: bytes.count) } }
        used += bytes.count
    }

    /// `"name":"value",`, ready to `insert` after an object's opening brace.
    public static func member(_ name: String, _ value: String) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + name.utf8.count + value.utf8.count)
        w.key(escaping: name)
        w.string(value)
        w.raw(UInt8(ascii: ","))
        return w.bytes
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
        Self.copy(source.assumingMemoryBound(to: UInt8.self), bytes.count, to: base + used)
        used += bytes.count
    }

    @inlinable
    public mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        reserve(count)
        Self.copy(text, to: base + used)
        used += count
    }

    /// A one-character literal may be stored as a scalar rather than as a pointer to its bytes.
    @inlinable @inline(__always)
    static func copy(_ text: StaticString, to target: UnsafeMutablePointer<UInt8>) {
        if text.hasPointerRepresentation {
            copy(text.utf8Start, text.utf8CodeUnitCount, to: target)
        } else {
            text.withUTF8Buffer { copy($0.baseAddress!, $0.count, to: target) }
        }
    }

    /// Most pieces are a few bytes long (keys, names, digits): two loads and two stores, which
    /// may overlap, copy 4…16 bytes where a call to memcpy, or a loop over the bytes, cost more.
    @inlinable @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, _ count: Int, to target: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            guard count <= 16 else {
                target.update(from: source, count: count)
                return
            }
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else {
            for i in 0..<count { target[i] = source[i] }
        }
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
    @inlinable @inline(__always)
    public mutating func key(_ name: StaticString) {
        let count = name.utf8CodeUnitCount
        reserve(count + 4)
        var p = base + used
        if needsComma {
            p.pointee = UInt8(ascii: ",")
            p += 1
        }
        p.pointee = UInt8(ascii: "\"")
        Self.copy(name, to: p + 1)
        p += count + 1
        p[0] = UInt8(ascii: "\"")
        p[1] = UInt8(ascii: ":")
        used = p + 2 - base
        needsComma = false
    }

    /// Writes `"name` + `suffix":` (`"interval_ms":`): a key made of two literals, neither needing escaping.
    @inlinable
    public mutating func key(_ name: StaticString, suffix: StaticString) {
        let first = name.utf8CodeUnitCount
        let second = suffix.utf8CodeUnitCount
        reserve(first + second + 4)
        var p = base + used
        if needsComma {
            p.pointee = UInt8(ascii: ",")
            p += 1
        }
        p.pointee = UInt8(ascii: "\"")
        Self.copy(name, to: p + 1)
        Self.copy(suffix, to: p + 1 + first)
        p += first + second + 1
        p[0] = UInt8(ascii: "\"")
        p[1] = UInt8(ascii: ":")
        used = p + 2 - base
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

    /// Writes a key given as `,"name":` (escaped once, written many times), the comma left out
    /// where none is due: one copy where a comma, the name and a colon took three appends.
    @inlinable
    public mutating func key(commaPrefixed key: UnsafeRawBufferPointer) {
        guard let start = key.baseAddress, key.count > 1 else { return }
        let skip = needsComma ? 0 : 1
        let count = key.count - skip
        reserve(count)
        Self.copy(start.assumingMemoryBound(to: UInt8.self) + skip, count, to: base + used)
        used += count
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
    @inlinable @inline(__always)
    public mutating func literal(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        reserve(count + 3)
        var p = base + used
        if needsComma {
            p.pointee = UInt8(ascii: ",")
            p += 1
        }
        p.pointee = UInt8(ascii: "\"")
        Self.copy(text, to: p + 1)
        p[count + 1] = UInt8(ascii: "\"")
        used = p + count + 2 - base
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
        if seconds == lastSeconds {
            reserve(16)
            let out = UnsafeMutableRawPointer(base + used)
            out.storeBytes(of: lastSecondsDigits.0, as: UInt64.self)
            out.storeBytes(of: lastSecondsDigits.1, toByteOffset: 8, as: UInt64.self)
            used += lastSecondsCount
        } else {
            let start = used
            appendInteger(seconds)
            lastSeconds = seconds
            lastSecondsCount = used - start
            lastSecondsDigits = (0, 0)
            withUnsafeMutableBytes(of: &lastSecondsDigits) {
                $0.baseAddress!.copyMemory(from: base + start, byteCount: lastSecondsCount)
            }
        }
        reserve(7)
        // ".", then the six digits as three pairs.
        let out = UnsafeMutableRawPointer(base + used)
        let pairs = UnsafeRawPointer(Self.decimalPairs.utf8Start)
        out.storeBytes(of: UInt8(ascii: "."), as: UInt8.self)
        for i in 0..<3 {
            let pair = pairs.loadUnaligned(fromByteOffset: Int(fraction % 100) * 2, as: UInt16.self)
            out.storeBytes(of: pair, toByteOffset: 5 - 2 * i, as: UInt16.self)
            fraction /= 100
        }
        used += 7
        needsComma = true
    }

    /// Bytes as a quoted lower-case hex string.
    @inlinable
    public mutating func hex(_ value: UnsafeRawBufferPointer) {
        separate()
        let count = value.count
        reserve(count * 2 + 2)
        let out = UnsafeMutableRawPointer(base + used)
        out.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        Self.storeHex(of: value, at: out + 1)
        out.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 1 + 2 * count, as: UInt8.self)
        used += count * 2 + 2
        needsComma = true
    }

    /// Writes the hex digits of `value` over bytes already written from `offset` on: a template's
    /// varying part written again (`2 * value.count` digits, no quotes).
    @inlinable
    public mutating func overwriteHex(at offset: Int, with value: UnsafeRawBufferPointer) {
        precondition(offset >= 0 && offset + 2 * value.count <= used, "hex over bytes not written")
        Self.storeHex(of: value, at: UnsafeMutableRawPointer(base + offset))
    }

    /// The digits of `value`, two per byte, from `out` on.
    @inlinable @inline(__always)
    static func storeHex(of value: UnsafeRawBufferPointer, at out: UnsafeMutableRawPointer) {
        guard let source = value.baseAddress else { return }
        let count = value.count
        var i = 0
        // Four bytes become eight digits in one word.
        while i + 4 <= count {
            let word = source.loadUnaligned(fromByteOffset: i, as: UInt32.self)
            out.storeBytes(of: Self.hexDigits(of: word), toByteOffset: 2 * i, as: UInt64.self)
            i += 4
        }
        while i < count {
            let digits = UInt16(truncatingIfNeeded: Self.hexDigits(of: UInt32(source.load(fromByteOffset: i, as: UInt8.self))))
            out.storeBytes(of: digits, toByteOffset: 2 * i, as: UInt16.self)
            i += 1
        }
    }

    /// A quoted copy of `count` bytes already written at `offset`: the tail of a hex string
    /// written again as a string of its own, without working out its digits again.
    @inlinable
    public mutating func quotedCopy(ofWrittenAt offset: Int, count: Int) {
        precondition(offset >= 0 && count >= 0 && offset + count <= used, "copy of bytes not written")
        separate()
        reserve(count + 2)
        base[used] = UInt8(ascii: "\"")
        Self.copy(UnsafePointer(base + offset), count, to: base + used + 1)
        base[used + 1 + count] = UInt8(ascii: "\"")
        used += count + 2
        needsComma = true
    }

    /// The hex digits of four bytes (in memory order) as they lie in memory, little-endian.
    @inlinable @inline(__always)
    static func hexDigits(of word: UInt32) -> UInt64 {
        // Each byte into a 16-bit lane, then its high nibble to the lane's first byte.
        var t = UInt64(word)
        t = (t | t << 16) & 0x0000_FFFF_0000_FFFF
        t = (t | t << 8) & 0x00FF_00FF_00FF_00FF
        let nibbles = (t >> 4) & 0x000F_000F_000F_000F | (t & 0x000F_000F_000F_000F) << 8
        // '0' + n, plus 39 more for n ≥ 10 (to reach 'a'); n + 6 carries into bit 4 exactly then.
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 39
    }

    @inlinable
    public mutating func hex(_ value: [UInt8]) {
        value.withUnsafeBytes { hex($0) }
    }

    /// Text that is already valid JSON (a nested document written elsewhere).
    @inlinable
    public mutating func rawJSON(_ json: UnsafeRawBufferPointer) {
        separate()
        raw(json)
        needsComma = true
    }

    /// Members of the open object written elsewhere (`"a":1,"b":[2]`), after a separating comma
    /// when one is due.
    @inlinable
    public mutating func rawMembers(_ json: UnsafeRawBufferPointer) {
        separate()
        raw(json)
        needsComma = true
    }

    // MARK: Text (numbers are in JSONWriter+Numbers.swift)

    @inlinable
    public mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped(utf8: $0) }
    }

    /// `"text"` from text's UTF-8 bytes, which must be valid UTF-8 (taken from a String): escaped
    /// exactly as the String would be.
    @inlinable
    public mutating func appendEscaped(utf8: UnsafeBufferPointer<UInt8>) {
        // Almost every string needs no escaping: copy and check in one pass.
        let count = utf8.count
        reserve(count + 2)
        let out = base + used
        out[0] = UInt8(ascii: "\"")
        var i = 0
        // Eight bytes at a time while none of them is a control character, quote or backslash.
        if let source = utf8.baseAddress {
            let target = UnsafeMutableRawPointer(out + 1)
            while i + 8 <= count {
                let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                if Self.needsEscaping(word) { break }
                target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                i += 8
            }
        }
        while i < count {
            let c = utf8[i]
            if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { break }
            out[i + 1] = c
            i += 1
        }
        used += i + 1
        if i < count { appendEscapedTail(UnsafeBufferPointer(rebasing: utf8[i...])) }
        raw(UInt8(ascii: "\""))
    }

    /// A string value given as the UTF-8 bytes of a String (`appendEscaped(utf8:)`).
    @inlinable
    public mutating func string(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        appendEscaped(utf8: bytes)
        needsComma = true
    }

    /// A key given as the UTF-8 bytes of a String, escaped as `key(escaping:)` would.
    @inlinable
    public mutating func key(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        appendEscaped(utf8: bytes)
        raw(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Whether any of the eight bytes is below 0x20, a quote or a backslash (exact, no false hits).
    @inlinable @inline(__always)
    static func needsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        return below0x20 | hasQuote | hasBackslash != 0
    }

    @usableFromInline
    mutating func appendEscapedTail(_ utf8: UnsafeBufferPointer<UInt8>) {
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
}
