@testable import Handoff
#if canImport(Glibc)
import Glibc
#endif
import Testing

struct HandoffTests {
    @Test(arguments: [1, 7, 1024], [1, 2, 8])
    func `every element arrives once, in order, and the producer's result comes back`(batchSize: Int, depth: Int) {
        var received: [Int] = []
        let produced = Handoff.run(batchSize: batchSize, depth: depth) { sink in
            for i in 0..<10_000 { sink.emit(i) }
            return "done"
        } consume: { (element: Int) in
            received.append(element)
            return true
        }
        #expect(produced == "done")
        #expect(received == Array(0..<10_000))
    }

    @Test func `a consumer that stops early cancels the producer`() {
        var received = 0
        let made = Handoff.run(batchSize: 16, depth: 2) { sink in
            var made = 0
            while !sink.isCancelled, made < 10_000_000 {
                sink.emit(made)
                made += 1
            }
            return made
        } consume: { (_: Int) in
            received += 1
            return received < 100
        }
        #expect(received == 100)
        // The producer saw the cancellation long before making everything.
        #expect(made < 10_000_000)
    }

    /// The batch being filled when the consumer stops, and the elements made after it, are freed
    /// with the rest: its fill is kept by the sink and must reach the batch before it goes.
    @Test func `a consumer that stops early: every element made is freed once`() {
        let log = DeinitLog()
        let made = Handoff.run(batchSize: 16, depth: 2) { sink in
            var made = 0
            while !sink.isCancelled, made < 1_000_000 {
                sink.emit(Tracked(made, log))
                made += 1
            }
            return made
        } consume: { (element: Tracked) in
            element.value < 99
        }
        #expect(made < 1_000_000)
        #expect(log.threads.count == made)
    }

    /// 4005: the last batch is a refilled one cut short, with the rest of its last fill to free.
    @Test(
        .enabled(if: Handoff.isUseful, "the producer has a thread of its own only with a second core"),
        arguments: [4000, 4005])
    func `what the elements hold is freed on the producer's thread, once each`(count: Int) {
        let log = DeinitLog()
        var producerThread: pthread_t?
        var received = 0
        Handoff.run(batchSize: 16, depth: 4) { sink in
            producerThread = pthread_self()
            for i in 0..<count { sink.emit(Tracked(i, log)) }
        } consume: { (element: Tracked) in
            #expect(element.value == received)
            received += 1
            return true
        }
        #expect(received == count)
        let threads = log.threads
        #expect(threads.count == count, "each element freed once")
        let onProducer = threads.filter { pthread_equal($0, producerThread!) != 0 }.count
        // All but the batches still in flight at the end (at most the queue, its spares and one more).
        #expect(onProducer >= count - 16 * (2 * 4 + 2))
    }

    /// Elements made in `nextSlot()` arrive in order and are freed once each, the dropped ones
    /// and those made after the consumer stopped too, with batches and on one thread.
    @Test(arguments: [true, false])
    func `elements made in the sink's slots arrive in order and are freed once`(concurrently: Bool) {
        let log = DeinitLog()
        var received: [Int] = []
        let body = { (sink: HandoffSink<Tracked>) in
            var made = 0
            while !sink.isCancelled, made < 5_000 {
                let slot = sink.nextSlot()
                slot.initialize(to: Tracked(made, log))
                // Every third one is let go, as a filter would.
                if made % 3 == 2 { sink.drop(madeIn: slot) } else { sink.emit(madeIn: slot) }
                made += 1
            }
            // Past the stop an element made there is still freed.
            let slot = sink.nextSlot()
            slot.initialize(to: Tracked(-1, log))
            sink.emit(madeIn: slot)
            return made + 1
        }
        let consume = { (element: borrowing Tracked) -> Bool in
            received.append(element.value)
            return element.value < 3_000
        }
        let made =
            concurrently
            ? Handoff.run(batchSize: 16, depth: 2, produce: body, consume: consume)
            : Handoff.inline(produce: body, consume: consume)
        #expect(received == (0...3_000).filter { $0 % 3 != 2 })
        #expect(made > 3_000)
        #expect(log.threads.count == made, "each element freed once")
    }

    @Test func `nothing produced`() {
        var calls = 0
        let result = Handoff.run(produce: { (_: HandoffSink<Int>) in 42 }, consume: { _ in
            calls += 1
            return true
        })
        #expect(result == 42)
        #expect(calls == 0)
    }
}

/// Records on which thread each `Tracked` was freed.
private final class DeinitLog: @unchecked Sendable {
    private let lock = Lock()
    private var freed: [pthread_t] = []
    func record() { lock.withLock { freed.append(pthread_self()) } }
    var threads: [pthread_t] { lock.withLock { freed } }
}

private final class Tracked: @unchecked Sendable {
    let value: Int
    let log: DeinitLog
    init(_ value: Int, _ log: DeinitLog) {
        self.value = value
        self.log = log
    }
    deinit { log.record() }
}

struct CoreCountTests {
    @Test func `the affinity mask gives a count between one and the cores online`() {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(Handoff.availableCores >= 1)
        #expect(Handoff.availableCores <= online)
        #if os(Linux)
        // Under `taskset -c 0` this is 1; unrestricted, every core online.
        #expect(Handoff.allowedCPUs() != nil)
        #endif
    }

    /// Masks as Linux prints them (proc(5): 32-bit words in hex, comma-separated).
    @Test func `the mask's bits are counted from its line of /proc/self/status`() {
        func count(_ status: String) -> Int? {
            Array(status.utf8).withUnsafeBytes { Handoff.countMaskBits($0) }
        }
        #expect(count("Name:\tbluetape\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(count("Name:\tx\nCpus_allowed:\tff,ffffffff,00000001\nMems_allowed:\t1\n") == 41)
        #expect(count("Name:\tx\nCpus_allowed:\t80000000,00000000\n") == 1)
        #expect(count("Name:\tx\nCpus_allowed:\tAbC\n") == 7)
        #expect(count("Name:\tx\nCpus_allowed_list:\t0-1\n") == nil)
        #expect(count("Name:\tx\nThreads:\t1\n") == nil)
    }
}

struct StageThreadsTests {
    @Test func `a job keeps to one thread while others wait, and the last may split its stages`() {
        let held = Parallel.map(Array(0..<6), width: 2, cost: { $0 }) { _ in StageThreads.areHeldBack }
        // The costliest first: the cheapest starts last, with nothing waiting behind it.
        #expect(held == [false, true, true, true, true, true])
        var delivered: [Bool] = []
        Parallel.forEach(Array(0..<4), width: 2, { _ in StageThreads.areHeldBack }) { _, result in
            delivered.append(result)
        }
        #expect(delivered == [true, true, true, false])
        // Within the window, the costliest starts first and the cheapest last; output keeps its order.
        var order: [Int] = []
        Parallel.forEach([1, 5, 3], width: 2, ahead: 8, cost: { $0 }, { ($0, StageThreads.areHeldBack) }) {
            index, result in
            order.append(result.0)
            #expect(result.1 == (result.0 != 1), "only the cheapest, started last, may split its stages")
        }
        #expect(order == [1, 5, 3])
    }

    @Test func `one job at a time is one thread, and the setting ends with the job`() {
        #expect(Parallel.map([1, 2], width: 1) { _ in StageThreads.areHeldBack } == [true, true])
        #expect(!StageThreads.areHeldBack)
        // A single capture on a machine with a spare core still splits its stages.
        #expect(Parallel.map([1], width: 2) { _ in StageThreads.areHeldBack } == [false])
        StageThreads.holdingBack(true) {
            #expect(!Handoff.isUseful)
            var received: [Int] = []
            Handoff.run(produce: { (sink: HandoffSink<Int>) in for i in 0..<3 { sink.emit(i) } }) { value in
                received.append(value)
                return true
            }
            #expect(received == [0, 1, 2])
            // On one thread each element is consumed as it is emitted, so a stop is seen at once.
            var seen = 0
            let emitted = Handoff.run { (sink: HandoffSink<Int>) in
                var emitted = 0
                while !sink.isCancelled {
                    sink.emit(emitted)
                    emitted += 1
                }
                return emitted
            } consume: { _ in
                seen += 1
                return seen < 5
            }
            #expect(seen == 5)
            #expect(emitted == 5)
        }
    }
}
