import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a producer on a second thread and hands what it makes to the calling thread in batches,
/// so that reading and tracking a capture overlap with formatting and writing its output.
///
/// Order is kept. Memory is bounded: the producer waits when `depth` batches are queued. When the
/// consumer stops early (its output went away), the producer is told through `cancelled` and
/// whatever it still makes is dropped. `run` returns only after the producer has finished, which
/// is why closures that are not `Sendable` may be used on it: the two sides share nothing but the
/// batches passed through the queue.
public enum Handoff {
    /// Whether a second thread is worth using here: there is a spare core, and this thread's job
    /// does not share the cores with other jobs (`StageThreads`).
    public static var isUseful: Bool { availableCores > 1 && !StageThreads.areHeldBack }

    /// The cores this process may run on: its affinity mask where Linux shows one (`taskset`,
    /// container CPU sets), else the cores online. Read once.
    public static let availableCores: Int = {
        let online = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        guard let allowed = allowedCPUs() else { return online }
        return max(1, min(allowed, online))
    }()

    /// The number of bits set in the "Cpus_allowed:" mask of /proc/self/status. Read as bytes:
    /// split into lines of `Character`s, the file took 650,000 instructions, a tenth of starting
    /// the program.
    static func allowedCPUs() -> Int? {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(byteCount: 8192, alignment: 1) { buffer -> Int? in
            let count = read(fd, buffer.baseAddress!, buffer.count)
            guard count > 0 else { return nil }
            return countMaskBits(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The bits set in the hex digits after "Cpus_allowed:" up to the end of its line.
    static func countMaskBits(_ status: UnsafeRawBufferPointer) -> Int? {
        let label = Array("\nCpus_allowed:".utf8)
        guard status.count > label.count,
            var i = (0...(status.count - label.count)).first(where: { start in
                label.indices.allSatisfy { status[start + $0] == label[$0] }
            })
        else { return nil }
        i += label.count
        var bits = 0
        while i < status.count, status[i] != UInt8(ascii: "\n") {
            let c = status[i] | 0x20  // lower case; ',' and ' ' stay themselves
            if c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                bits += (c - UInt8(ascii: "0")).nonzeroBitCount
            } else if c >= UInt8(ascii: "a"), c <= UInt8(ascii: "f") {
                bits += (c - UInt8(ascii: "a") + 10).nonzeroBitCount
            }
            i += 1
        }
        return bits
    }

    /// - Parameters:
    ///   - produce: Runs on the second thread; gives each element to `sink.emit` and may poll
    ///     `sink.isCancelled` to stop early. Its result is returned by `run`.
    ///   - consume: Runs on the calling thread, in order; returns false to stop.
    ///   - help: Work of the consumer's that the producer can do: called on the producer's
    ///     thread after it hands a batch over while at least half the queue waits for the
    ///     consumer (so the consumer has enough to go on meanwhile). Done by the time `run`
    ///     returns.
    @inlinable
    public static func run<Element: Sendable, Result>(
        batchSize: Int = 1024,
        depth: Int = 8,
        produce: (_ sink: HandoffSink<Element>) -> Result,
        consume: (borrowing Element) -> Bool,
        whileAhead help: (() -> Void)? = nil
    ) -> Result {
        guard isUseful else { return inline(produce: produce, consume: consume) }
        return withoutActuallyEscaping(produce) { produce in
            let queue = BatchQueue<Element>(depth: depth)
            let finished = DispatchSemaphore(value: 0)
            let box = ResultBox<Result>()
            let body = ProducerBody {
                let sink = HandoffSink<Element>(
                    batchSize: batchSize, send: queue.put, spare: queue.spare, help: help,
                    consumerIsBehind: queue.isHalfFull)
                box.value = produce(sink)
                sink.flush()
                queue.finish()
            }
            startThread(named: "bluetape producer") {
                body.runOnce()
                finished.signal()
            }
            // Each element is lent to `consume` from its batch, and the batch goes back to the
            // producer, which frees what the elements hold: memory is given back on the thread
            // that allocated it, where that is cheap (freed on another thread, it contends for
            // that thread's heap).
            while let batch = queue.take() {
                guard batch.lendEach(consume) else {
                    queue.stop()
                    break
                }
                queue.giveBack(batch)
            }
            finished.wait()
            return box.value!
        }
    }

    /// Everything on the calling thread (one core): each element is consumed as it is emitted.
    @inlinable
    static func inline<Element, Result>(
        produce: (_ sink: HandoffSink<Element>) -> Result,
        consume: (borrowing Element) -> Bool
    ) -> Result {
        withoutActuallyEscaping(consume) { consume in produce(HandoffSink<Element>(direct: consume)) }
    }
}

/// Where a producer puts what it makes. A class with a method rather than a closure, so that an
/// element is moved into the batch: a closure of the generic function would copy each one.
public final class HandoffSink<Element> {
    // Used by the producing thread alone.
    @exclusivity(unchecked) @usableFromInline var batch: HandoffBatch<Element>
    /// The batch being filled, its slots and fill kept here and written back when it is handed
    /// over: reaching them through `batch`, a class held in a variable, retained and released it
    /// for every element (two atomic operations each).
    @exclusivity(unchecked) @usableFromInline var slots: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) @usableFromInline var filled = 0
    @exclusivity(unchecked) @usableFromInline var initialized = 0
    @usableFromInline let batchSize: Int
    /// Hands a full batch on; false once the consumer has stopped.
    @usableFromInline let send: (HandoffBatch<Element>) -> Bool
    /// A batch the consumer is done with, if there is one, to empty and fill again.
    @usableFromInline let spare: () -> HandoffBatch<Element>?
    @exclusivity(unchecked) @usableFromInline var stopped = false
    /// On one thread: the consumer itself, given each element as it comes.
    @usableFromInline let direct: ((borrowing Element) -> Bool)?
    /// On one thread: where `nextSlot` has the element made, given to the consumer from there.
    @usableFromInline let directSlot = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    /// The consumer's work this side takes on while the consumer is behind (`Handoff.run`).
    @usableFromInline let help: (() -> Void)?
    @usableFromInline let consumerIsBehind: () -> Bool

    @usableFromInline
    init(
        batchSize: Int, send: @escaping (HandoffBatch<Element>) -> Bool,
        spare: @escaping () -> HandoffBatch<Element>?, help: (() -> Void)?,
        consumerIsBehind: @escaping () -> Bool
    ) {
        self.batchSize = max(1, batchSize)
        self.send = send
        self.spare = spare
        self.help = help
        self.consumerIsBehind = consumerIsBehind
        direct = nil
        batch = HandoffBatch(capacity: self.batchSize)
        slots = batch.base
    }

    @usableFromInline
    init(direct consume: @escaping (borrowing Element) -> Bool) {
        batchSize = 1
        send = { _ in false }
        spare = { nil }
        direct = consume
        help = nil
        consumerIsBehind = { false }
        batch = HandoffBatch(capacity: 0)
        slots = batch.base
    }

    /// Elements in a batch never handed over are freed with it.
    deinit {
        batch.initialized = initialized
        directSlot.deallocate()
    }

    /// Queues `element` for the consumer (dropped once it has stopped).
    @inlinable @inline(__always)
    public func emit(_ element: consuming Element) {
        guard !stopped else { return }
        if let direct {
            stopped = !direct(element)
            return
        }
        // A slot past the fill may still hold the last fill's element: it is freed as this one
        // takes its place (see `HandoffBatch`).
        if filled < initialized {
            (slots + filled).deinitialize(count: 1)
        } else {
            initialized += 1
        }
        (slots + filled).initialize(to: element)
        filled += 1
        if filled == batchSize { flush() }
    }

    /// Memory to make the next element in, where it will be handed over, rather than made
    /// elsewhere and copied in by `emit`. The caller initializes it and then passes it to
    /// `emit(madeIn:)` or `drop(madeIn:)`, with no other call to the sink in between.
    @inlinable @inline(__always)
    public func nextSlot() -> UnsafeMutablePointer<Element> {
        nextSlot { $0.deinitialize(count: 1) }
    }

    /// As `nextSlot()`, `deinitialize` freeing the last fill's element where one is left (an
    /// element type that can tell cheaply when it holds nothing to free skips the general path).
    @inlinable @inline(__always)
    public func nextSlot(deinitializing deinitialize: (UnsafeMutablePointer<Element>) -> Void)
        -> UnsafeMutablePointer<Element>
    {
        if direct != nil { return directSlot }
        // The slot may still hold the last fill's element: it is freed as this one takes its
        // place (see `HandoffBatch`).
        if filled < initialized {
            deinitialize(slots + filled)
        } else {
            initialized += 1
        }
        return slots + filled
    }

    /// Queues the element made in `nextSlot()` (dropped once the consumer has stopped).
    @inlinable @inline(__always)
    public func emit(madeIn slot: UnsafeMutablePointer<Element>) {
        if let direct {
            // Moved out to lend: lent where it lies, it was copied (its contents retained).
            let element = slot.move()
            if !stopped { stopped = !direct(element) }
            return
        }
        // After a stop the element stays where it was made, freed like the last fill's.
        guard !stopped else { return }
        filled += 1
        if filled == batchSize { flush() }
    }

    /// Lets the element made in `nextSlot()` go instead of queueing it.
    @inlinable @inline(__always)
    public func drop(madeIn slot: UnsafeMutablePointer<Element>) {
        // In a batch it stays where it was made, freed as the next element takes its place.
        if direct != nil { slot.deinitialize(count: 1) }
    }

    /// Whether the consumer has stopped: the producer may finish early.
    public var isCancelled: Bool { stopped }

    @usableFromInline
    func flush() {
        guard filled > 0 else { return }
        batch.count = filled
        batch.initialized = initialized
        batch.dropStale()
        if !stopped { stopped = !send(batch) }
        if !stopped, let help, consumerIsBehind() { help() }
        if let reused = spare() {
            reused.refill()
            batch = reused
        } else {
            batch = HandoffBatch(capacity: batchSize)
        }
        slots = batch.base
        filled = batch.count
        initialized = batch.initialized
    }
}

/// Elements on their way across, in memory of their own rather than an array: lent from an
/// array, each would be copied (the compiler cannot see that nothing else writes there). Filled
/// on one thread, read on the other after the queue's lock, refilled on the first again.
///
/// A refilled batch frees each element it held as a new one takes its place, not all at once:
/// the producer then frees one element's memory for each it allocates, which the allocator's
/// per-thread cache serves both ways, where freeing a thousand in a row overflows that cache and
/// takes the slow path for each (and the allocations after them too).
@usableFromInline
final class HandoffBatch<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    // Used by one thread at a time, handed over under the queue's lock.
    /// The elements of this fill: the ones the consumer sees.
    @exclusivity(unchecked) @usableFromInline var count = 0
    /// Slots holding an element, this fill's or, past `count`, the last fill's still to be freed.
    @exclusivity(unchecked) @usableFromInline var initialized = 0

    @usableFromInline
    init(capacity: Int) {
        base = .allocate(capacity: max(1, capacity))
    }

    deinit {
        base.deinitialize(count: initialized)
        base.deallocate()
    }

    /// Starts a new fill; the last fill's elements are freed as new ones replace them.
    func refill() {
        count = 0
    }

    /// Frees what is left of the last fill past this one's end: before a batch is handed over,
    /// so that only the producer ever frees elements.
    @usableFromInline
    func dropStale() {
        guard initialized > count else { return }
        (base + count).deinitialize(count: initialized - count)
        initialized = count
    }

    /// Lends each element to `body` in order until it returns false; whether it never did.
    /// Each is moved out for the call and back after it, which copies its bytes but neither
    /// retains nor releases what it holds.
    @inlinable @inline(__always)
    func lendEach(_ body: (borrowing Element) -> Bool) -> Bool {
        for i in 0..<count {
            let element = (base + i).move()
            let going = body(element)
            (base + i).initialize(to: element)
            if !going { return false }
        }
        return true
    }
}

/// A bounded first-in first-out queue of batches between one producer and one consumer.
///
/// A side that has to wait sleeps until half the queue has changed, not just one batch: a
/// consumer faster than its producer (or slower) would otherwise wake and sleep once per batch,
/// and those switches cost more than the work they interleave.
@usableFromInline
final class BatchQueue<Element>: @unchecked Sendable {
    private let lock = Lock()
    /// nil once taken, so that a batch is freed as soon as the consumer is done with it.
    private var batches: [HandoffBatch<Element>?] = []
    private var head = 0
    private var finished = false
    private var stopped = false
    private let depth: Int
    /// How many batches a waiting side waits for: queued ones for the consumer, free room for the producer.
    private let wakeAfter: Int
    private var consumerWaits = false
    private var producerWaits = false
    private var spares: [HandoffBatch<Element>] = []

    @usableFromInline
    init(depth: Int) {
        self.depth = max(1, depth)
        wakeAfter = max(1, self.depth / 2)
    }

    private var queued: Int { batches.count - head }

    /// Queues a batch, waiting for room; false when the consumer has stopped (the batch is dropped).
    @usableFromInline
    func put(_ batch: HandoffBatch<Element>) -> Bool {
        lock.withLock {
            if !stopped, queued >= depth {
                producerWaits = true
                while !stopped, queued > depth - wakeAfter { lock.wait() }
                producerWaits = false
            }
            guard !stopped else { return false }
            batches.append(batch)
            if consumerWaits, queued >= wakeAfter { lock.signal() }
            return true
        }
    }

    /// The next batch, waiting for one; nil once the producer has finished and all were taken.
    @usableFromInline
    func take() -> HandoffBatch<Element>? {
        lock.withLock {
            if queued == 0, !finished {
                consumerWaits = true
                while queued < wakeAfter, !finished { lock.wait() }
                consumerWaits = false
            }
            guard queued > 0 else { return nil }
            let batch = batches[head].take()
            head += 1
            if head == batches.count {
                batches.removeAll(keepingCapacity: true)
                head = 0
            }
            if producerWaits, queued <= depth - wakeAfter { lock.signal() }
            return batch
        }
    }

    /// A batch the consumer has finished with, kept for the producer to refill (so that its
    /// elements are freed where they were made). Every one is kept: the producer makes a batch
    /// only when none is spare, so there are at most `depth` queued, one lent and one filling,
    /// and a batch dropped here would be freed on the consumer's thread.
    @usableFromInline
    func giveBack(_ batch: HandoffBatch<Element>) {
        lock.withLock {
            if !stopped { spares.append(batch) }
        }
    }

    /// Whether half the queue or more waits for the consumer.
    @usableFromInline
    func isHalfFull() -> Bool {
        lock.withLock { queued >= depth - wakeAfter }
    }

    @usableFromInline
    func spare() -> HandoffBatch<Element>? {
        lock.withLock { spares.popLast() }
    }

    @usableFromInline
    func finish() {
        lock.withLock {
            finished = true
            lock.broadcast()
        }
    }

    /// The consumer gives up: queued and future batches are dropped.
    @usableFromInline
    func stop() {
        lock.withLock {
            stopped = true
            batches.removeAll()
            spares.removeAll()
            head = 0
            lock.broadcast()
        }
    }
}

/// The producer's result, written on its thread and read after it has signalled.
@usableFromInline
final class ResultBox<Value>: @unchecked Sendable {
    @usableFromInline var value: Value?

    @usableFromInline init() {}
}

/// Carries the producer to its thread and lets go of it as soon as it has run, before `run`
/// returns (a closure borrowed with `withoutActuallyEscaping` must not outlive the call).
@usableFromInline
final class ProducerBody: @unchecked Sendable {
    private var body: (() -> Void)?

    @usableFromInline
    init(_ body: @escaping () -> Void) { self.body = body }

    @usableFromInline
    func runOnce() {
        let body = self.body
        self.body = nil
        body?()
    }
}
