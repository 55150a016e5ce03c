import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs independent jobs on several threads and returns their results in input order, so the
/// output does not depend on which job finished first.
public enum Parallel {
    public static var processorCount: Int { max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1) }

    /// `transform` of every item; `width` threads take items i, i + width, i + 2·width, ….
    static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], width: Int = processorCount, _ transform: @Sendable (Item) -> Result
    ) -> [Result] {
        let width = max(1, min(width, items.count))
        if width == 1 { return items.map(transform) }
        let slots = UnsafeMutableBufferPointer<Result?>.allocate(capacity: items.count)
        slots.initialize(repeating: nil)
        defer { slots.deallocate() }
        // Each slot is written by exactly one thread and read only after all have finished.
        nonisolated(unsafe) let shared = slots
        DispatchQueue.concurrentPerform(iterations: width) { worker in
            for index in stride(from: worker, to: items.count, by: width) {
                shared[index] = transform(items[index])
            }
        }
        let results = slots.map { $0! }
        _ = slots.deinitialize()
        return results
    }
}
