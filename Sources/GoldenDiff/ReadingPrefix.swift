/// The members of a reading line that align it (`frame`, `decoder`, `addr`, `index`), found by
/// scanning the line's first bytes. Readings are written with these members before `fields` or
/// `error`, so the scan stops there and never looks at the values being compared.
struct ReadingPrefix {
    var frame: Int64?
    /// Byte ranges of the string contents (between the quotes) in the text's buffer.
    var decoder: Range<Int>?
    var address: Range<Int>?
    var index: Int64?
    /// Whether `decoder` or `address` hold escapes and must be unescaped to be read.
    var escaped = false

    /// Scans line `i` of `lines`; nil when the line does not start like a JSON object.
    static func scan(_ lines: ReadingLines, _ i: Int) -> ReadingPrefix? {
        let span = lines.spans[i]
        return lines.bytes.withUnsafeBufferPointer { buffer in
            var scanner = PrefixScanner(buffer: buffer, index: span.start, end: span.end)
            return scanner.scan()
        }
    }

    /// The frame of line `i`, read directly when the line starts `{"frame":` (as canonical lines do).
    static func frame(_ lines: ReadingLines, _ i: Int) -> Int64? {
        let span = lines.spans[i]
        let quick: Int64?? = lines.bytes.withUnsafeBufferPointer { buffer in
            let head: StaticString = "{\"frame\":"
            let length = head.utf8CodeUnitCount
            guard span.end - span.start > length,
                head.withUTF8Buffer({ bytesEqual(buffer, span.start, $0) })
            else { return nil }
            var scanner = PrefixScanner(buffer: buffer, index: span.start + length, end: span.end)
            return .some(scanner.integer())
        }
        if let quick { return quick }
        return scan(lines, i)?.frame
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

    mutating func scan() -> ReadingPrefix? {
        var prefix = ReadingPrefix()
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if take(UInt8(ascii: "}")) { return prefix }
        while true {
            skipSpace()
            guard let key = string() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            let member = name(key.range)
            switch member {
            case .frame, .index:
                let number = integer()
                if number == nil, !skipValue() { return nil }
                if member == .frame { prefix.frame = number } else { prefix.index = number }
            case .decoder, .address:
                guard let value = string() else { return nil }
                if member == .decoder { prefix.decoder = value.range } else { prefix.address = value.range }
                prefix.escaped = prefix.escaped || value.escaped
            case .valuesFollow:
                return prefix
            case .other:
                guard skipValue() else { return nil }
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}")) ? prefix : nil
        }
    }

    private enum Name { case frame, decoder, address, index, valuesFollow, other }

    private func name(_ range: Range<Int>) -> Name {
        func equals(_ word: StaticString) -> Bool {
            word.utf8CodeUnitCount == range.count && word.withUTF8Buffer { bytesEqual(buffer, range.lowerBound, $0) }
        }
        if equals("frame") { return .frame }
        if equals("decoder") { return .decoder }
        if equals("addr") { return .address }
        if equals("index") { return .index }
        if equals("fields") || equals("error") { return .valuesFollow }
        return .other
    }

    mutating func skipSpace() {
        while index < end, buffer[index] == 0x20 || buffer[index] == 0x09 { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < end, buffer[index] == byte else { return false }
        index += 1
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

    /// An integer value, stopping where the value ends; nil (and the value left unread) when it is
    /// not a plain integer.
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
        let ended =
            index == end || buffer[index] == UInt8(ascii: ",") || buffer[index] == UInt8(ascii: "}")
            || buffer[index] == 0x20
        guard digits > 0, ended else {
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
            while index < end {
                switch buffer[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09: return index > start
                default: index += 1
                }
            }
            return false
        }
    }
}
