import SystemIO
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Output(holdingIn:for:until:)`: a capture's output waits in a file until its turn, then goes
/// straight out, in order, with nothing lost or repeated.
struct HeldOutputTests {
    let directory = TestPaths.temporaryDirectory()

    /// Set by the test, read by the output when a buffer's worth is ready.
    final class Turn: @unchecked Sendable {
        var isMine = false
    }

    /// `count` printable bytes of a pattern starting at `start`, so that a piece out of place
    /// shows (printable: an in-memory output is read back as text).
    func bytes(_ start: Int, _ count: Int) -> [UInt8] {
        (start..<start + count).map { UInt8(0x21 + ($0 &* 7 &+ $0 >> 9) % 90) }
    }

    /// Compared first, so that a failure says so without diffing 100,000 bytes.
    func same(_ a: [UInt8]?, _ b: [UInt8]) -> Bool { a == b }

    func heldFile(_ name: String) -> Int32 {
        open(directory + "/" + name, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    }

    @Test func `what waits goes out when the turn comes, before what is written after it`() {
        let destination = Output()
        let file = heldFile("held")
        defer { close(file) }
        let turn = Turn()
        let held = Output(holdingIn: file, for: destination) { turn.isMine }
        let before = bytes(0, 150_000)
        held.write(before)
        #expect(destination.text.isEmpty)
        #expect(!held.passedThrough)
        turn.isMine = true
        let after = bytes(150_000, 90_000)
        held.write(after)
        held.flush()
        #expect(held.passedThrough)
        #expect(same(Array(destination.text.utf8), before + after), "the held bytes first, then the rest")
    }

    @Test func `an output whose turn never comes keeps everything in its file`() {
        let destination = Output()
        let file = heldFile("kept")
        defer { close(file) }
        let held = Output(holdingIn: file, for: destination) { false }
        let all = bytes(7, 200_000)
        held.write(all)
        held.flush()
        #expect(!held.passedThrough)
        #expect(destination.text.isEmpty)
        destination.appendContents(ofFile: file)
        #expect(same(Array(destination.text.utf8), all))
    }

    @Test func `between files the destination's own pending bytes stay first`() {
        let path = directory + "/out"
        let out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let file = heldFile("spool")
        defer { close(file) }
        let destination = Output(fd: out, ownsDescriptor: true)
        let own = bytes(1, 1_000)
        destination.write(own)  // still in its buffer when the held output is let through
        let held = Output(holdingIn: file, for: destination) { true }
        let first = bytes(9, 70_000)
        let second = bytes(3, 5)
        held.write(first)  // a buffer's worth: let through at once
        held.write(second)
        held.flush()
        destination.flush()
        #expect(held.passedThrough)
        #expect(same(TestPaths.readFile(path), own + first + second))
        #expect(held.failure == nil)
    }

    @Test func `once through, a closed reader of the destination is the held output's to see`() {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])  // the reader went away (`… | head`)
        let destination = Output(fd: ends[1], ownsDescriptor: true)
        let file = heldFile("closed")
        defer { close(file) }
        let turn = Turn()
        let held = Output(holdingIn: file, for: destination) { turn.isMine }
        held.write(bytes(0, 70_000))  // into its file: no failure of its own
        #expect(held.failure == nil)
        #expect(!held.readerClosed)
        turn.isMine = true
        held.write(bytes(70_000, 70_000))
        held.flush()
        #expect(held.passedThrough)
        #expect(held.readerClosed)
        #expect(held.failure != nil)
    }

    @Test func `a held output whose file fails stays failed when its turn comes`() throws {
        let full = open("/dev/full", O_WRONLY)  // every write: no space left on device
        try #require(full >= 0)
        defer { close(full) }
        let destination = Output()
        let turn = Turn()
        let held = Output(holdingIn: full, for: destination) { turn.isMine }
        held.write(bytes(0, 70_000))
        #expect(held.failure != nil)
        turn.isMine = true
        held.write(bytes(70_000, 70_000))
        held.flush()
        // Passing through now would put the later bytes out without the lost ones before them.
        #expect(!held.passedThrough)
        #expect(held.failure != nil)
        #expect(destination.text.isEmpty)
    }
}
