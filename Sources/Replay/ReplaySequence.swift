import CaptureFiles
import CaptureModel
import Handoff

/// A replay as an `AsyncSequence`: each element comes when it is due on the replay's clock.
///
/// Iterating starts a reader thread that reads the capture ahead of the consumer, at most
/// `readAhead` elements, so memory stays flat however long the capture is. Cancelling the consuming
/// task, or dropping the iterator, stops the reader. Each iteration is a replay of its own.
public struct ReplaySequence<Value: ReplayTimestamped>: AsyncSequence, Sendable {
    public typealias Element = Replayed<Value>

    private let play: @Sendable (_ body: (Replayed<Value>) -> Bool) throws(CaptureError) -> Void
    private let startTimer: @Sendable () -> ReplayTimer
    private let readAhead: Int

    init<Source: ReplaySource, Clock: ReplayClock>(run: ReplayRun<Source>, clock: Clock)
    where Source.Element == Value {
        play = { (body) throws(CaptureError) in try run.play(body) }
        startTimer = {
            let start = clock.start()
            return ReplayTimer { offset in try await clock.sleep(until: offset, since: start) }
        }
        readAhead = run.options.readAhead
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(feed: ReaderThread(play: play, readAhead: readAhead), startTimer: startTimer)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private let feed: ReaderThread<Value>
        private let startTimer: @Sendable () -> ReplayTimer
        private var timer: ReplayTimer?
        private var batch: [Replayed<Value>] = []
        private var index = 0
        private var waitedUntil: Duration = .zero

        init(feed: ReaderThread<Value>, startTimer: @escaping @Sendable () -> ReplayTimer) {
            self.feed = feed
            self.startTimer = startTimer
        }

        /// The next element once it is due; nil at the end, or when the task was cancelled.
        /// Throws when a looping replay cannot open the capture again.
        public mutating func next() async throws -> Replayed<Value>? {
            if Task.isCancelled {
                feed.stop()
                return nil
            }
            if index == batch.count {
                guard let more = try await feed.channel.receive(), !more.isEmpty else { return nil }
                batch = more
                index = 0
            }
            let element = batch[index]
            index += 1
            if timer == nil { timer = startTimer() }
            if element.offset > waitedUntil {
                do {
                    try await timer!.sleep(element.offset)
                } catch is CancellationError {
                    feed.stop()
                    return nil
                }
                waitedUntil = element.offset
            }
            return element
        }
    }
}

/// One replay's clock, started: sleeps until an offset from time zero.
struct ReplayTimer: Sendable {
    let sleep: @Sendable (Duration) async throws -> Void
}

/// The thread that reads the capture into the channel. It stops when the iterator that owns it is
/// dropped, so a consumer that breaks out of its loop leaves nothing running.
final class ReaderThread<Value: ReplayTimestamped>: Sendable {
    let channel: ReadAheadChannel<Replayed<Value>>

    init(play: @escaping @Sendable (_ body: (Replayed<Value>) -> Bool) throws(CaptureError) -> Void, readAhead: Int) {
        let channel = ReadAheadChannel<Replayed<Value>>(capacity: readAhead)
        self.channel = channel
        let batchSize = max(1, min(64, readAhead / 4))
        startThread(named: "bluetape replay reader") {
            var pending: [Replayed<Value>] = []
            pending.reserveCapacity(batchSize)
            do throws(CaptureError) {
                try play { element in
                    pending.append(element)
                    guard pending.count >= batchSize else { return true }
                    defer { pending.removeAll(keepingCapacity: true) }
                    return channel.send(pending)
                }
                if !pending.isEmpty { _ = channel.send(pending) }
                channel.finish()
            } catch {
                if !pending.isEmpty { _ = channel.send(pending) }
                channel.finish(throwing: ReplayError.capture(error))
            }
        }
    }

    func stop() { channel.cancel() }

    deinit { channel.cancel() }
}
