#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The members of a reading line that place it (`frame`, `decoder`, `addr`, `index`), found by
/// scanning the line's bytes without building any value: the fast path for the lines the tool
/// writes, and for most that other JSON tools write (any key order or spacing).
///
/// The scan only ever recognises a line or declines it; it never turns one down. It declines
/// whatever it cannot read with certainty (a frame written `12.0`, a key with an escape, a key
/// member given twice, a line that does not look like one JSON object), and the caller then asks
/// `ReadingCheck`, which decides. On a line both accept, both find the same members (the
/// `golden-diff` fuzz target checks this).
struct ReadingPrefix {
    var frame: Int64?
    /// Byte range of the decoder's string contents (between the quotes); nil for `"decoder": null`.
    var decoder: Range<Int>?
    var address: Range<Int>?
    var index: Int64?
    /// Whether `decoder` or `address` hold escapes and must be unescaped to be read.
    var escaped = false

    /// How much of a line a caller needs.
    enum Depth {
        /// The frame only (when lines are put in frame order).
        case frame
        /// The decoder, and the frame when pairing by frame (when lines are identical on both sides).
        case decoder(requireFrame: Bool)
        /// Every key member: the whole top level is read, since `index` may come after `fields`.
        case key(requireFrame: Bool)
    }

    /// Scans line `i` of `lines`; nil when the scan cannot say for certain.
    static func scan(_ lines: ReadingLines, _ i: Int, _ depth: Depth) -> ReadingPrefix? {
        let span = lines.spans[i]
        return lines.bytes.withUnsafeBufferPointer { buffer in
            var scanner = PrefixScanner(buffer: buffer, index: span.start, end: span.end)
            return scanner.scan(depth)
        }
    }

    /// The frame of line `i`, read directly when the line starts `{"frame":` and a plain integer
    /// (as the tool writes it); nil when there is none.
    static func frame(_ lines: ReadingLines, _ i: Int) -> Int64? {
        let span = lines.spans[i]
        let quick: Int64? = lines.bytes.withUnsafeBufferPointer { buffer in
            let head: StaticString = "{\"frame\":"
            let length = head.utf8CodeUnitCount
            guard span.end - span.start > length, head.withUTF8Buffer({ bytesEqual(buffer, span.start, $0) })
            else { return nil }
            var scanner = PrefixScanner(buffer: buffer, index: span.start + length, end: span.end)
            return scanner.integer()
        }
        if let quick { return quick }
        if let prefix = scan(lines, i, .frame) { return prefix.frame }
        return try? ReadingCheck.check(lines.line(i), requireFrame: true).get().head.frame
    }
}

extension ReadingPrefix {
    /// The decoder of line `i` of the tool's own canonical output, where `"decoder":` comes before
    /// any member that could hold those bytes: the range of its string's contents (`.some(nil)`
    /// for null), or nil when it is spelled in a way this does not read (an escape), for `scan`.
    static func writtenDecoder(_ lines: ReadingLines, _ i: Int) -> Range<Int>?? {
        let span = lines.spans[i]
        return lines.bytes.withUnsafeBufferPointer { buffer -> Range<Int>?? in
            let length = 10  // "decoder":
            guard let base = buffer.baseAddress else { return nil }
            // From quote to quote: the key is the first quoted text spelled so, with a byte after it.
            guard let at = firstDecoderKey(base, from: span.start, to: span.end) else { return nil }
            let value = at + length
            if buffer[value] == UInt8(ascii: "n") { return .some(nil) }
            guard buffer[value] == UInt8(ascii: "\"") else { return nil }
            var end = value + 1
            while end < span.end, buffer[end] != UInt8(ascii: "\"") {
                if buffer[end] == UInt8(ascii: "\\") { return nil }
                end += 1
            }
            return end < span.end ? .some((value + 1)..<end) : nil
        }
    }

    /// Where `"decoder":` first starts in `base[start..<end]` with a byte after it. The quotes
    /// are found eight bytes at a time (a call to memchr and one to memcmp for each quote cost
    /// five hundred instructions a line), and each is compared with the key in two loads.
    static func firstDecoderKey(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // `"decoder` and `":`, as they lie in memory.
        let head = UInt64(littleEndian: 0x7265_646F_6365_6422)
        let tail = UInt16(littleEndian: 0x3A22)
        var at = start
        // Whole words only: a key needs ten bytes and one after them, so it starts in a word
        // that lies within the line.
        while at + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            let quotesFlipped = word ^ (ones &* 0x22)
            // A high bit for each byte that is a quote (and possibly above one; each is checked).
            var quotes = (quotesFlipped &- ones) & ~quotesFlipped & highs
            while quotes != 0 {
                let place = at + quotes.trailingZeroBitCount / 8
                if place + 10 < end,
                    raw.loadUnaligned(fromByteOffset: place, as: UInt64.self) == head,
                    raw.loadUnaligned(fromByteOffset: place + 8, as: UInt16.self) == tail
                {
                    return place
                }
                quotes &= quotes - 1
            }
            at += 8
        }
        return nil
    }
}

private func bytesEqual(_ buffer: UnsafeBufferPointer<UInt8>, _ at: Int, _ expected: UnsafeBufferPointer<UInt8>) -> Bool
{
    guard at + expected.count <= buffer.count else { return false }
    for k in 0..<expected.count where buffer[at + k] != expected[k] { return false }
    return true
}

/// A forward scan over the top level of one JSON object, skipping nested values without building them.
private struct PrefixScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    var index: Int
    let end: Int

    private struct Seen: OptionSet {
        let rawValue: UInt8
        static let frame = Seen(rawValue: 1)
        static let decoder = Seen(rawValue: 2)
        static let address = Seen(rawValue: 4)
        static let index = Seen(rawValue: 8)
    }

    mutating func scan(_ depth: ReadingPrefix.Depth) -> ReadingPrefix? {
        let required: Seen
        let whole: Bool
        switch depth {
        case .frame: (required, whole) = (.frame, false)
        case .decoder(let requireFrame): (required, whole) = (requireFrame ? [.frame, .decoder] : .decoder, false)
        case .key(let requireFrame): (required, whole) = (requireFrame ? [.frame, .decoder] : .decoder, true)
        }
        var prefix = ReadingPrefix()
        var seen: Seen = []
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if take(UInt8(ascii: "}")) { return nil }  // no members: not a reading, said by the check
        while true {
            guard let key = string(), !key.escaped else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            let member = name(key.range)
            if let member {
                guard !seen.contains(member) else { return nil }
                seen.insert(member)
            }
            switch member {
            case Seen.frame?:
                guard let number = integer() else { return nil }
                prefix.frame = number
            case Seen.index?:
                if !null() {
                    guard let number = integer() else { return nil }
                    prefix.index = number
                }
            case Seen.decoder?, Seen.address?:
                var range: Range<Int>?
                if !null() {
                    guard let value = string() else { return nil }
                    range = value.range
                    prefix.escaped = prefix.escaped || value.escaped
                }
                if member == .decoder { prefix.decoder = range } else { prefix.address = range }
            default:
                guard skipValue() else { return nil }
            }
            // Members later in the line cannot change those found: the check refuses a key given twice.
            if !whole, seen.isSuperset(of: required) { return prefix }
            skipSpace()
            if take(UInt8(ascii: ",")) {
                skipSpace()
                continue
            }
            guard take(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            return index == end && seen.isSuperset(of: required) ? prefix : nil
        }
    }

    private func name(_ range: Range<Int>) -> Seen? {
        func equals(_ word: StaticString) -> Bool {
            word.utf8CodeUnitCount == range.count && word.withUTF8Buffer { bytesEqual(buffer, range.lowerBound, $0) }
        }
        switch range.count {
        case 5: return equals("frame") ? .frame : equals("index") ? .index : nil
        case 7: return equals("decoder") ? .decoder : nil
        case 4: return equals("addr") ? .address : nil
        default: return nil
        }
    }

    /// JSON whitespace (a line holds no line feed).
    mutating func skipSpace() {
        while index < end, buffer[index] == 0x20 || buffer[index] == 0x09 || buffer[index] == 0x0D { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < end, buffer[index] == byte else { return false }
        index += 1
        return true
    }

    private func endsValue(_ at: Int) -> Bool {
        guard at < end else { return true }
        switch buffer[at] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0D: return true
        default: return false
        }
    }

    /// The literal `null`.
    mutating func null() -> Bool {
        let word: StaticString = "null"
        guard word.withUTF8Buffer({ bytesEqual(buffer, index, $0) }), index + 4 <= end, endsValue(index + 4)
        else { return false }
        index += 4
        return true
    }

    /// A quoted string; returns the range of its contents and whether it holds escapes.
    mutating func string() -> (range: Range<Int>, escaped: Bool)? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var escaped = false
        while index < end {
            switch buffer[index] {
            case UInt8(ascii: "\""):
                index += 1
                return (start..<index - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                index += 2
            default:
                index += 1
            }
        }
        return nil
    }

    /// A plain integer (`-12`, no fraction or exponent) within 64 bits, stopping where the value
    /// ends; nil (and the value left unread) for anything else.
    mutating func integer() -> Int64? {
        let start = index
        var negative = false
        if index < end, buffer[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < end, buffer[index] >= UInt8(ascii: "0"), buffer[index] <= UInt8(ascii: "9") {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(buffer[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { break }
            value = sum
            digits += 1
            index += 1
        }
        guard digits > 0, endsValue(index) else {
            index = start
            return nil
        }
        return negative ? -value : value
    }

    /// Steps over one value of any kind; false when the text is not JSON-shaped.
    mutating func skipValue() -> Bool {
        guard index < end else { return false }
        switch buffer[index] {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < end {
                switch buffer[index] {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            let start = index
            while index < end, !endsValue(index) { index += 1 }
            return index > start && index < end
        }
    }
}

extension ReadingLines {
    /// The bytes of reading `i`.
    func line(_ i: Int) -> ArraySlice<UInt8> { bytes[spans[i].start..<spans[i].end] }
}
