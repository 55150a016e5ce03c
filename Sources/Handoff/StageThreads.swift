#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether work started on this thread may split its stages across more threads.
///
/// A job that runs while others wait for a core gains nothing from a second thread of its own:
/// the cores are busy with whole jobs, and handing items between threads costs every item its
/// reference counts and a share of the locks. `Parallel` says so for each job it starts, and
/// `Handoff.run` then keeps the stages on the calling thread. A thread-local setting, so nothing
/// between the scheduler and the capture reader has to pass it along.
public enum StageThreads {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-local key left")
        return key
    }()

    /// True on a thread whose current job shares the machine with other jobs.
    public static var areHeldBack: Bool { pthread_getspecific(key) != nil }

    /// Runs `body` with stage threads held back (`hold`) or allowed, then restores the setting.
    public static func holdingBack<T>(_ hold: Bool, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, hold ? UnsafeRawPointer(bitPattern: 1) : nil)
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
