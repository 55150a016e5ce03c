import Dispatch
import Handoff

/// Runs independent jobs on several threads and returns their results in input order, so the
/// output does not depend on which job finished first.
public enum Parallel {
    public static var processorCount: Int { Handoff.availableCores }

    /// `transform` of every item on `width` threads. Each thread takes the next item not yet
    /// taken, the costliest first (by `cost`), so one long job does not end up last.
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int = processorCount, cost: (Item) -> Int = { _ in 0 },
        _ transform: @Sendable (Item) -> Result
    ) -> [Result] {
        let width = max(1, min(width, items.count))
        if width == 1 { return items.map(transform) }
        let order = items.indices.sorted { cost(items[$0]) > cost(items[$1]) }
        let slots = UnsafeMutableBufferPointer<Result?>.allocate(capacity: items.count)
        slots.initialize(repeating: nil)
        defer { slots.deallocate() }
        // Each slot is written by exactly one thread and read only after all have finished.
        nonisolated(unsafe) let shared = slots
        let next = NextIndex()
        DispatchQueue.concurrentPerform(iterations: width) { _ in
            while let position = next.take(below: order.count) {
                let index = order[position]
                shared[index] = transform(items[index])
            }
        }
        let results = slots.map { $0! }
        _ = slots.deinitialize()
        return results
    }
}

/// The next position to work on, handed out once each.
private final class NextIndex: @unchecked Sendable {
    private let lock = Lock()
    private var next = 0

    func take(below count: Int) -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}
