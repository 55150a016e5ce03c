import TestSupport
import Testing

@testable import GoldenDiff

/// A golden read a window at a time, against readings handed over in pieces, reports what the
/// comparison of the two texts held whole reports: the window's edges (inside a line, on a
/// newline, a line longer than the window) and the pieces' edges change nothing.
struct GoldenStreamTests {
    let workspace = Workspace()

    /// Readings of several decoders, with what a golden made by hand may also hold: a blank line,
    /// a CRLF line, a line that is not a reading, one without a decoder.
    static let text: String = {
        var lines: [String] = []
        for frame in 1...40 {
            lines.append(Sample.envsensor(frame: frame))
            if frame % 9 == 0 { lines.append(Sample.heartRate592) }
            if frame % 13 == 0 { lines.append(Sample.uart600) }
        }
        lines.insert("", at: 5)
        lines.insert(Sample.env12 + "\r", at: 11)
        lines.insert(#"{"frame":592,"ts":1710495004.017858,"addr":"00:1A"#, at: 17)
        lines.insert(
            #"{"frame":800,"ts":1710495006.0,"addr":null,"decoder":null,"source":"adv","company":76,"data":"0215"}"#,
            at: 23)
        return Sample.lines(lines)
    }()

    static let windows = [1, 7, 64, 300, 1 << 20]

    /// The outcome of `actual` against a golden holding `golden`, handed over in pieces of `piece` bytes.
    func outcome(golden: [UInt8], actual: [UInt8], window: Int, piece: Int) throws -> GoldenStream.Outcome {
        let path = workspace.path("g.golden.jsonl")
        TestPaths.writeFile(path, golden)
        var stream = try GoldenStream(golden: path, settings: DiffSettings(), windowSize: window)
        actual.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(start + piece, all.count)
                stream.add(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return try stream.finish()
    }

    @Test(arguments: windows)
    func `the same text reports what comparing it whole reports`(window: Int) throws {
        for text in [Self.text, "\u{FEFF}" + Self.text, String(Self.text.dropLast()), "", "\n\n"] {
            let bytes = Array(text.utf8)
            let lines = ReadingLines(bytes)
            let whole = ReadingsDiff.compare(expected: lines, actual: lines, canonical: true)
            for piece in [1, 13, 4096] {
                let result = try outcome(golden: bytes, actual: bytes, window: window, piece: piece)
                guard case .same(let report) = result else {
                    Issue.record("window \(window), pieces of \(piece): not the same")
                    continue
                }
                #expect(report == whole, "window \(window), pieces of \(piece)")
            }
        }
        let lines = ReadingLines(Array(Self.text.utf8))
        let report = ReadingsDiff.compare(expected: lines, actual: lines, canonical: true)
        // The text's own problems, where they are: the broken line, 18th of the file.
        #expect(report.problems.map(\.line) == [18, 18])
        #expect(report.expectedCount == lines.count)
    }

    @Test(arguments: windows)
    func `texts that differ come out whole`(window: Int) throws {
        let golden = Array(Self.text.utf8)
        let newline = golden.firstIndex(of: 0x0A)!
        var changedFirst = golden
        changedFirst[2] = UInt8(ascii: "g")
        var changedLast = golden
        changedLast[golden.count - 3] = UInt8(ascii: "0")
        var changedAtNewline = golden
        changedAtNewline[newline] = UInt8(ascii: " ")
        let cases: [(golden: [UInt8], actual: [UInt8])] = [
            (golden, changedFirst), (golden, changedLast), (golden, changedAtNewline),
            (golden, Array(golden.dropLast(40))), (golden, golden + Array("{\"frame\":9}\n".utf8)),
            (golden, []), ([], golden), (Array(golden[...newline]), Array(golden[..<newline])),
        ]
        for (number, (expected, actual)) in cases.enumerated() {
            for piece in [1, 13, 4096] {
                let result = try outcome(golden: expected, actual: actual, window: window, piece: piece)
                guard case .different(let gotExpected, let gotActual) = result else {
                    Issue.record("case \(number), window \(window), pieces of \(piece): the same")
                    continue
                }
                #expect(gotExpected == expected, "case \(number), window \(window), pieces of \(piece)")
                #expect(gotActual == actual, "case \(number), window \(window), pieces of \(piece)")
            }
        }
    }

    @Test func `a golden rewritten while it is read is an error, not a diff`() throws {
        let path = workspace.path("g.golden.jsonl")
        let golden = Array(Self.text.utf8)
        TestPaths.writeFile(path, golden)
        var stream = try GoldenStream(golden: path, settings: DiffSettings(), windowSize: 64)
        golden.withUnsafeBytes { stream.add(UnsafeRawBufferPointer(rebasing: $0[..<500])) }
        TestPaths.writeFile(path, Array(Self.text.replacing("envsensor", with: "envsensor2").utf8))
        Array("something else\n".utf8).withUnsafeBytes { stream.add($0) }
        #expect(throws: GoldenError("\(path): changed while it was being read")) { try stream.finish() }
    }

    @Test func `a golden that is a directory is named`() {
        #expect(throws: GoldenError("\(workspace.directory): is a directory")) {
            try GoldenStream(golden: workspace.directory, settings: DiffSettings())
        }
    }
}
