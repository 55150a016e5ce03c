import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM as a descriptor that turns readable, so a command can wait on them together
/// with its sockets and stop cleanly: flush, close, remove its files. While installed, the signals no
/// longer end the process; the previous handlers come back with the last `uninstall()`.
final class StopSignals {
    /// Readable once a stop signal has arrived, and from then on (the byte is never read).
    let descriptor: Int32
    private var installed = true

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Installs the handlers (shared by every command running in this process).
    static func install() -> StopSignals {
        stopSignalLock.lock()
        defer { stopSignalLock.unlock() }
        if stopSignalUsers == 0 {
            guard openStopSignalPipe() else {
                // No pipe, no stop by signal: hand out a descriptor that never turns readable.
                return StopSignals(descriptor: -1)
            }
            for (index, signal) in [SIGINT, SIGTERM].enumerated() {
                var action = sigaction()
                #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = stopSignalHandler
                #else
                action.__sigaction_u.__sa_handler = stopSignalHandler
                #endif
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(signal, &action, &savedStopActions[index])
            }
        }
        stopSignalUsers += 1
        return StopSignals(descriptor: stopSignalReadEnd)
    }

    /// The pipe is made once and never closed: a handler running on another thread while the last
    /// user uninstalls could otherwise write into whatever file reused the descriptor's number.
    /// A stop left over from an earlier use is drained here. Call with the lock held.
    private static func openStopSignalPipe() -> Bool {
        if stopSignalReadEnd >= 0 {
            var byte: UInt8 = 0
            while read(stopSignalReadEnd, &byte, 1) > 0 {}
            return true
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        stopSignalReadEnd = ends[0]
        stopSignalWriteEnd.store(ends[1], ordering: .releasing)
        return true
    }

    /// True once a stop signal has arrived.
    var requested: Bool {
        guard descriptor >= 0 else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    func uninstall() {
        guard installed else { return }
        installed = false
        guard descriptor >= 0 else { return }
        stopSignalLock.lock()
        defer { stopSignalLock.unlock() }
        stopSignalUsers -= 1
        guard stopSignalUsers == 0 else { return }
        for (index, signal) in [SIGINT, SIGTERM].enumerated() { sigaction(signal, &savedStopActions[index], nil) }
    }

    deinit { uninstall() }
}

// The handler can reach only globals. The write end is atomic because the handler runs on
// whichever thread the signal lands on; the rest changes only under the lock.
private let stopSignalWriteEnd = Atomic<Int32>(-1)
nonisolated(unsafe) private var stopSignalReadEnd: Int32 = -1
nonisolated(unsafe) private var stopSignalUsers = 0
nonisolated(unsafe) private var savedStopActions = [sigaction(), sigaction()]
private let stopSignalLock = Mutex()

private let stopSignalHandler: @convention(c) (Int32) -> Void = { _ in
    let saved = errno
    var byte: UInt8 = 1
    let end = stopSignalWriteEnd.load(ordering: .acquiring)
    if end >= 0 { _ = write(end, &byte, 1) }
    errno = saved
}

/// A pthread mutex for the few globals above.
private final class Mutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
