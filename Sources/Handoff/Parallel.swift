import Dispatch

/// Runs independent jobs (one capture each) on several threads and hands their results over in
/// input order, so the output does not depend on which job finished first. `golden check` and
/// every command given several captures run through it.
public enum Parallel {
    public static var processorCount: Int { Handoff.availableCores }

    /// `transform` of every item on `width` threads. Each thread takes the next item not yet
    /// taken, the costliest first (by `cost`), so one long job does not end up last. A job runs
    /// on its one thread while other items wait to start; the last ones may split their stages
    /// over the cores the finished jobs leave free (`StageThreads`). With `width` 1 every job
    /// keeps to one thread.
    public static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int = processorCount, cost: (Item) -> Int = { _ in 0 },
        _ transform: @Sendable (Item) -> Result
    ) -> [Result] {
        let held = width <= 1
        let width = max(1, min(width, items.count))
        if width == 1 { return StageThreads.holdingBack(held) { items.map(transform) } }
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
                let othersWaiting = position + 1 < order.count
                shared[index] = StageThreads.holdingBack(othersWaiting) { transform(items[index]) }
            }
        }
        let results = slots.map { $0! }
        _ = slots.deinitialize()
        return results
    }
}

extension Parallel {
    /// `transform` of every item on `width` threads; `deliver` runs on the calling thread with
    /// each result in input order, as soon as it and all before it are done, so the first results
    /// go out while later ones are still being made. At most `ahead` results (default `width`)
    /// wait undelivered: a worker starts only items within `ahead` of the next to deliver, the
    /// costliest of those first (by `cost`), so that one long job does not end up last. Jobs keep
    /// to one thread each as in `map`.
    public static func forEach<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int = processorCount, ahead: Int? = nil, cost: (Item) -> Int = { _ in 0 },
        _ transform: @escaping @Sendable (Item) -> Result, deliver: (Int, Result) -> Void
    ) {
        let held = width <= 1
        let width = max(1, min(width, items.count))
        if width == 1 {
            for (index, item) in items.enumerated() {
                deliver(index, StageThreads.holdingBack(held) { transform(item) })
            }
            return
        }
        let board = ResultBoard<Result>(costs: items.map(cost), window: max(width, ahead ?? width))
        let group = DispatchGroup()
        for _ in 0..<width {
            group.enter()
            startThread(named: "bluetape job") {
                while let (index, othersWaiting) = board.take() {
                    board.put(index, StageThreads.holdingBack(othersWaiting) { transform(items[index]) })
                }
                group.leave()
            }
        }
        for index in items.indices { deliver(index, board.wait(index)) }
        group.wait()
    }
}

/// Results waiting to be delivered in order, and the items still to start.
private final class ResultBoard<Result>: @unchecked Sendable {
    private let lock = Lock()
    private var results: [Result?]
    private let costs: [Int]
    private var started: [Bool]
    private var startedCount = 0
    /// Every item before it has started.
    private var firstUnstarted = 0
    private var delivered = 0
    private let window: Int

    init(costs: [Int], window: Int) {
        results = Array(repeating: nil, count: costs.count)
        started = Array(repeating: false, count: costs.count)
        self.costs = costs
        self.window = window
    }

    /// The costliest item not started within `window` of the next one to deliver (waiting for
    /// one), and whether items are left to start after it; nil once every item has started.
    /// The next to deliver has always started or is in the window, so delivery never waits on
    /// an item that cannot start.
    func take() -> (index: Int, othersWaiting: Bool)? {
        lock.withLock {
            while true {
                while firstUnstarted < started.count, started[firstUnstarted] { firstUnstarted += 1 }
                guard firstUnstarted < started.count else { return nil }
                var best: Int?
                for index in firstUnstarted..<min(started.count, delivered + window) where !started[index] {
                    if best == nil || costs[index] > costs[best!] { best = index }
                }
                if let best {
                    started[best] = true
                    startedCount += 1
                    return (best, startedCount < started.count)
                }
                lock.wait()
            }
        }
    }

    func put(_ index: Int, _ result: Result) {
        lock.withLock { results[index] = result }
        lock.broadcast()
    }

    func wait(_ index: Int) -> Result {
        let result = lock.withLock { () -> Result in
            while results[index] == nil { lock.wait() }
            defer {
                results[index] = nil
                delivered = index + 1
            }
            return results[index]!
        }
        lock.broadcast()
        return result
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
