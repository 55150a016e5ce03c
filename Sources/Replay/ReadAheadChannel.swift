import Handoff

/// Carries elements from the reader thread to the consumer with bounded memory.
///
/// Elements travel in batches, so the hand-over costs little per element at full speed. The reader
/// blocks while `capacity` elements are waiting; the consumer suspends while none are. Cancelling
/// wakes both: the reader's `send` returns false and the consumer's `receive` returns nil.
final class ReadAheadChannel<Element: Sendable>: @unchecked Sendable {
    private let condition = Lock()
    private let capacity: Int
    private var batches: [[Element]] = []
    private var waitingCount = 0
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var receiver: CheckedContinuation<[Element]?, any Error>?

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Reader side: hands over a batch, waiting for room. False when the consumer has gone.
    func send(_ batch: [Element]) -> Bool {
        condition.lock()
        while waitingCount >= capacity, !cancelled { condition.wait() }
        if cancelled {
            condition.unlock()
            return false
        }
        if let receiver {
            self.receiver = nil
            condition.unlock()
            receiver.resume(returning: batch)
            return true
        }
        batches.append(batch)
        waitingCount += batch.count
        condition.unlock()
        return true
    }

    /// Reader side: no more batches; `error` ends the consumer's sequence with it.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        finished = true
        failure = error
        let receiver = receiver
        self.receiver = nil
        condition.unlock()
        if let error {
            receiver?.resume(throwing: error)
        } else {
            receiver?.resume(returning: nil)
        }
    }

    /// Consumer side: the next batch; nil at the end or once cancelled.
    func receive() async throws -> [Element]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Element]?, any Error>) in
                condition.lock()
                if !cancelled, !batches.isEmpty {
                    let batch = batches.removeFirst()
                    waitingCount -= batch.count
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: batch)
                } else if cancelled || finished {
                    let failure = cancelled ? nil : failure
                    condition.unlock()
                    if let failure {
                        continuation.resume(throwing: failure)
                    } else {
                        continuation.resume(returning: nil)
                    }
                } else {
                    receiver = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Either side: stops the transfer and drops what was waiting.
    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        waitingCount = 0
        let receiver = receiver
        self.receiver = nil
        condition.broadcast()
        condition.unlock()
        receiver?.resume(returning: nil)
    }
}
