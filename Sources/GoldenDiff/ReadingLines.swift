#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The readings of one JSONL text: one byte range per non-blank line, kept with its 1-based line
/// number. The text is never copied or decoded here; lines are compared as bytes.
public struct ReadingLines: Sendable {
    public let bytes: [UInt8]
    let spans: [LineSpan]

    struct LineSpan: Sendable {
        var start: Int
        var end: Int
        var number: Int
    }

    public init(_ bytes: [UInt8]) {
        self.init(bytes, lines: 0..<bytes.count, firstLine: 1)
    }

    /// The readings of `bytes[range]`, whole lines from a longer text whose first is line
    /// `firstLine` there (a byte order mark is looked for only before line 1).
    init(_ bytes: [UInt8], lines range: Range<Int>, firstLine: Int) {
        self.bytes = bytes
        (spans, nextLine) = Self.split(bytes, range, firstLine: firstLine)
    }

    /// The number of the line after the last (blank lines counted).
    let nextLine: Int

    public init(_ text: String) { self.init(Array(text.utf8)) }

    /// Readings in the text.
    public var count: Int { spans.count }

    /// The 1-based line number of reading `i` in the text (blank lines are counted, not kept).
    public func lineNumber(_ i: Int) -> Int { spans[i].number }

    /// Whether reading `i` here and reading `j` in `other` are the same bytes.
    func isIdentical(_ i: Int, to other: ReadingLines, _ j: Int) -> Bool {
        let a = spans[i]
        let b = other.spans[j]
        guard a.end - a.start == b.end - b.start else { return false }
        return bytes.withUnsafeBufferPointer { mine in
            other.bytes.withUnsafeBufferPointer { theirs in
                memcmp(mine.baseAddress! + a.start, theirs.baseAddress! + b.start, a.end - a.start) == 0
            }
        }
    }

    /// Whether both texts hold the same readings in the same order, byte for byte: the common case
    /// of a check with nothing changed, answered without looking inside a single line.
    func isIdentical(to other: ReadingLines) -> Bool {
        if Self.sameBytes(bytes, other.bytes) { return true }
        guard count == other.count else { return false }
        return (0..<count).allSatisfy { isIdentical($0, to: other, $0) }
    }

    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { left in b.withUnsafeBytes { right in sameBytes(left, right) } }
    }

    /// Byte equality by `memcmp` (the generic `elementsEqual` goes element by element).
    static func sameBytes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        left.count == right.count
            && (left.isEmpty || left.baseAddress == right.baseAddress
                || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
    }

    static func split(_ bytes: [UInt8], _ range: Range<Int>, firstLine: Int) -> (spans: [LineSpan], nextLine: Int) {
        var spans: [LineSpan] = []
        var number = firstLine
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // A byte order mark, as some editors save UTF-8 with, is not part of the first line.
            var start = range.lowerBound
            if firstLine == 1, start == 0 {
                start = Self.byteOrderMarkLength(UnsafeBufferPointer(rebasing: buffer[range]))
            }
            let limit = range.upperBound
            while start < limit {
                let newline = memchr(base + start, 0x0A, limit - start)
                var end = newline.map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? limit
                let next = end + 1
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }  // CRLF files compare like LF files
                if !isBlank(buffer, start, end) { spans.append(LineSpan(start: start, end: end, number: number)) }
                start = next
                number += 1
            }
        }
        return (spans, number)
    }

    /// 3 when the text starts with the UTF-8 byte order mark, else 0.
    static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    private static func isBlank(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            switch buffer[i] {
            case 0x20, 0x09, 0x0D: i += 1
            default: return false
            }
        }
        return true
    }
}
