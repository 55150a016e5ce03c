import Replay
import Testing
import TestSupport

/// Stopping a replay stops its reader, and the reader never runs far ahead of the consumer.
struct ReplayCancellationTests {
    static let capture = TestPaths.captures + "/envsensor.btsnoop"

    @Test func `cancelling the consuming task ends the sequence and stops the reader`() async throws {
        let read = Counter()
        let received = Counter()
        // Real time, looping forever: only cancellation ends it.
        let options = ReplayOptions(passes: nil, filter: .matching { _ in read.increment(); return true }, readAhead: 64)
        let replay = try Replay.events(from: Self.capture, options: options, clock: .continuous)
        let task = Task {
            for try await _ in replay { received.increment() }
        }
        while received.value < 3 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        try await task.value
        let readWhenCancelled = read.value
        try await Task.sleep(for: .milliseconds(200))
        #expect(read.value == readWhenCancelled)
        // Read-ahead: 64 waiting, a batch held by the consumer and one being filled.
        #expect(readWhenCancelled < 64 + 2 * 16 + 16)
    }

    @Test func `leaving the loop early stops the reader of an endless replay`() async throws {
        let read = Counter()
        let options = ReplayOptions(passes: nil, filter: .matching { _ in read.increment(); return true }, readAhead: 256)
        var count = 0
        for try await item in try Replay.events(from: Self.capture, options: options, clock: .instant) {
            count += 1
            if item.pass == 2 { break }
        }
        #expect(count > 1000)
        // The dropped iterator cancels the reader; give it a moment to notice.
        try await Task.sleep(for: .milliseconds(100))
        let settled = read.value
        try await Task.sleep(for: .milliseconds(200))
        #expect(read.value == settled)
    }

    @Test func `a cancelled task gets no element at all`() async throws {
        let replay = try Replay.events(from: Self.capture, clock: .instant)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for try await _ in replay { count += 1 }
            return count
        }
        #expect(try await task.value == 0)
    }
}
