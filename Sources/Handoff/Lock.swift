import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition, for the few places where two threads share state.
///
/// The pthread objects live in memory of their own: they must never move, which a stored
/// property of a struct or class does not promise.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal; the lock must be held, and is held again on return.
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Runs `body` on a thread of its own (a queue of its own is served by its own thread, even when
/// every thread of the shared pool is busy or blocked).
public func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    DispatchQueue(label: name).async(execute: body)
}
