import Testing

@testable import GoldenDiff

/// The search for `"decoder":` in a line, word by word, against the plain search from quote to
/// quote it stands for: the key at every place relative to the words read, at the end of the
/// line with and without a byte after it, among other quotes, inside an escaped string.
struct DecoderKeySearchTests {
    /// The first place `"decoder":` starts with a byte after it, found byte by byte.
    static func plainSearch(_ bytes: [UInt8]) -> Int? {
        let key = Array("\"decoder\":".utf8)
        guard bytes.count > key.count else { return nil }
        return (0..<(bytes.count - key.count)).first { Array(bytes[$0..<($0 + key.count)]) == key }
    }

    static func search(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { ReadingPrefix.firstDecoderKey($0.baseAddress!, from: 0, to: $0.count) }
    }

    @Test func `the key is found wherever it lies, as the plain search finds it`() {
        let fillers = ["", "x", "\"", "\"\"", "\\\"decoder\\\":", "\"decode\":", "\"decoder\"", "\"Decoder\":1,"]
        for lead in 0..<20 {
            for filler in fillers {
                for tail in ["", "n", "null}", "\"envsensor\",\"source\":\"adv\"}"] {
                    let line = Array((String(repeating: "a", count: lead) + filler + "\"decoder\":" + tail).utf8)
                    #expect(Self.search(line) == Self.plainSearch(line), "\(String(decoding: line, as: UTF8.self))")
                    let without = Array((String(repeating: "a", count: lead) + filler + tail).utf8)
                    #expect(Self.search(without) == Self.plainSearch(without))
                }
            }
        }
        // A line of the tool's own: the key after the address.
        let text =
            #"{"frame":12,"ts":1710495001.151075,"addr":"C2:6B:30:F9:0E:C7","decoder":"envsensor","source":"adv"}"#
        let line = Array(text.utf8)
        #expect(Self.search(line) == 62)
        #expect(Self.plainSearch(line) == 62)
    }
}
