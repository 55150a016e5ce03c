/// The generated assigned-number tables (`Generated*.swift`, written by `scripts/gen-assigned-numbers`).
enum AssignedNumberTables {}

/// Names for 16-bit codes, from string literals of "CODE Name" lines sorted by code (CODE in hex).
/// They are indexed once, at the first lookup, then searched by binary search.
struct NameTable16: Sendable {
    private let codes: [UInt16]
    private let names: PackedNames

    init(chunks: [StaticString]) {
        names = PackedNames(chunks)
        codes = names.codes.map { UInt16(truncatingIfNeeded: $0.low) }
        precondition(names.codes.allSatisfy { $0.high == 0 && $0.low <= 0xFFFF }, "16-bit codes")
    }

    private func index(of code: UInt16) -> Int? {
        var low = 0
        var high = codes.count
        while low < high {
            let middle = (low + high) / 2
            if codes[middle] < code { low = middle + 1 } else { high = middle }
        }
        return low < codes.count && codes[low] == code ? low : nil
    }

    func name(_ code: UInt16) -> String? { index(of: code).map(names.string) }

    /// Calls `body` with the name's UTF-8 bytes, without making a String; nil when there is none.
    func withName<R>(_ code: UInt16, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        index(of: code).map { names.withBytes($0, body) }
    }
}

/// Names for 128-bit UUIDs, from "UUID Name" lines (the UUID as 32 hex digits) sorted by UUID.
struct NameTable128: Sendable {
    private let names: PackedNames

    init(chunks: [StaticString]) { names = PackedNames(chunks) }

    func name(high: UInt64, low: UInt64) -> String? {
        let codes = names.codes
        var lower = 0
        var upper = codes.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if (codes[middle].high, codes[middle].low) < (high, low) { lower = middle + 1 } else { upper = middle }
        }
        guard lower < codes.count, codes[lower].high == high, codes[lower].low == low else { return nil }
        return names.string(lower)
    }
}

/// "CODE Name" lines in string literals: each line's code, and where its name lies.
struct PackedNames: @unchecked Sendable {
    // A StaticString's bytes are immutable and live as long as the program.
    private let chunks: [StaticString]
    /// Per entry: chunk, first byte of the name, and one past its last.
    private let spans: [(chunk: Int, start: Int, end: Int)]
    /// Per entry: the code, as two 64-bit halves (16-bit codes in `low`).
    let codes: [(high: UInt64, low: UInt64)]

    init(_ chunks: [StaticString]) {
        self.chunks = chunks
        var spans: [(chunk: Int, start: Int, end: Int)] = []
        var codes: [(high: UInt64, low: UInt64)] = []
        for (index, chunk) in chunks.enumerated() {
            chunk.withUTF8Buffer { bytes in
                var lineStart = 0
                while lineStart < bytes.count {
                    var lineEnd = lineStart
                    while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                    var cursor = lineStart
                    var high: UInt64 = 0
                    var low: UInt64 = 0
                    while cursor < lineEnd, let digit = Self.hexValue(bytes[cursor]) {
                        high = high << 4 | low >> 60
                        low = low << 4 | UInt64(digit)
                        cursor += 1
                    }
                    precondition(cursor > lineStart && cursor < lineEnd, "a generated line is a code and a name")
                    codes.append((high, low))
                    spans.append((index, cursor + 1, lineEnd))
                    lineStart = lineEnd + 1
                }
            }
        }
        precondition(zip(codes, codes.dropFirst()).allSatisfy { ($0.high, $0.low) < ($1.high, $1.low) }, "sorted codes")
        self.spans = spans
        self.codes = codes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func withBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let span = spans[index]
        return chunks[span.chunk].withUTF8Buffer { bytes in
            body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])))
        }
    }

    func string(_ index: Int) -> String { withBytes(index) { String(decoding: $0, as: UTF8.self) } }
}
