#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import FileAccess

/// A capture's readings as they are decoded, measured against its golden as the golden is read.
/// While they are the same bytes, nothing is held but a window of the golden and the tally of the
/// lines agreed so far (what the report says of them): a check that passes holds neither text
/// whole, however large. From the first byte that differs both texts are kept whole for the diff:
/// the golden read again from its start, the readings as the golden's agreed bytes and the rest
/// as it comes.
struct GoldenStream {
    enum Outcome {
        /// The readings are the golden, byte for byte: the report of that comparison.
        case same(DiffReport)
        case different(expected: [UInt8], actual: [UInt8])
    }

    private let golden: SequentialFile
    /// Golden bytes read and not yet let go: `window[..<filled]`, of which `compared` agreed with
    /// the readings and the lines before `lineStart` are tallied.
    private var window: [UInt8]
    private var filled = 0
    private var compared = 0
    private var lineStart = 0
    /// Bytes agreed in all.
    private var agreed = 0
    private var tally: IdenticalTally
    private var nextLine = 1
    /// Once the texts differ: the golden whole, and the readings' text so far.
    private var expected: [UInt8]?
    private var actual: [UInt8]?
    private var failure: FileError?

    /// `windowSize`: how much of the golden is read at a time (more for a longer line).
    init(golden path: String, settings: DiffSettings, windowSize: Int = 1 << 20) throws(GoldenError) {
        do {
            golden = try SequentialFile(path)
        } catch {
            throw GoldenError(error.description)
        }
        window = [UInt8](repeating: 0, count: max(windowSize, 1))
        tally = IdenticalTally(settings: settings)
    }

    /// The readings' next piece of text.
    mutating func add(_ piece: UnsafeRawBufferPointer) {
        guard piece.count > 0, failure == nil else { return }
        if actual != nil {
            actual!.append(contentsOf: piece)
            return
        }
        var offset = 0
        while offset < piece.count {
            if compared == filled, !readMore() {
                diverge(UnsafeRawBufferPointer(rebasing: piece[offset...]))
                return
            }
            let n = min(piece.count - offset, filled - compared)
            let same = window.withUnsafeBytes { held in
                memcmp(held.baseAddress! + compared, piece.baseAddress! + offset, n) == 0
            }
            guard same else {
                diverge(UnsafeRawBufferPointer(rebasing: piece[offset...]))
                return
            }
            compared += n
            agreed += n
            offset += n
        }
    }

    /// After the last piece: how the readings came out against the golden.
    mutating func finish() throws(GoldenError) -> Outcome {
        if actual == nil, failure == nil {
            // The readings ended: so must the golden.
            if compared < filled || readMore() {
                diverge(UnsafeRawBufferPointer(start: nil, count: 0))
            } else if failure == nil {
                tallyLines(to: filled)
                return .same(tally.report())
            }
        }
        if let failure { throw GoldenError(failure.description) }
        return .different(expected: expected!, actual: actual!)
    }

    /// Tallies the whole lines agreed, keeps the line begun, and reads more of the golden after
    /// it; false at the golden's end (or when it cannot be read, with `failure` set).
    private mutating func readMore() -> Bool {
        if let lastNewline = window[lineStart..<filled].lastIndex(of: 0x0A) { tallyLines(to: lastNewline + 1) }
        let carried = filled - lineStart
        window.withUnsafeMutableBytes { held in
            held.baseAddress!.copyMemory(from: held.baseAddress! + lineStart, byteCount: carried)
        }
        (filled, compared, lineStart) = (carried, carried, 0)
        // A line longer than the window: room for more of it.
        if filled == window.count { window.append(contentsOf: repeatElement(0, count: window.count)) }
        var problem: FileError?
        let count = window.withUnsafeMutableBytes { raw -> Int in
            do throws(FileError) {
                return try golden.read(into: raw.baseAddress! + filled, count: raw.count - filled)
            } catch {
                problem = error
                return 0
            }
        }
        if let problem {
            failure = problem
            return false
        }
        filled += count
        return count > 0
    }

    private mutating func tallyLines(to end: Int) {
        guard end > lineStart else { return }
        let lines = ReadingLines(window, lines: lineStart..<end, firstLine: nextLine)
        tally.add(lines)
        nextLine = lines.nextLine
        lineStart = end
    }

    /// The texts differ from here on: both kept whole from now.
    private mutating func diverge(_ rest: UnsafeRawBufferPointer) {
        do {
            let whole = try golden.wholeFile()
            // What is still in the window must be what the file holds there now.
            let windowStart = agreed - compared
            let unchanged =
                whole.count >= agreed
                && (compared == 0
                    || window.withUnsafeBytes { seen in
                        whole.withUnsafeBytes { now in
                            memcmp(seen.baseAddress!, now.baseAddress! + windowStart, compared) == 0
                        }
                    })
            guard unchanged else {
                failure = FileError(path: golden.path, reason: "changed while it was being read")
                return
            }
            var text = Array(whole[..<agreed])
            text.append(contentsOf: rest)
            (expected, actual) = (whole, text)
        } catch {
            failure = error
        }
    }
}
