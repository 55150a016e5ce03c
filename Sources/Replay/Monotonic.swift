#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock in nanoseconds, and waiting on descriptors until a deadline on it.
package enum Monotonic {
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Waits until one of `descriptors` is ready or `deadline` (nil: no deadline) has come.
    /// Returns how many are ready: 0 at the deadline, and 0 too when a signal interrupted the wait.
    ///
    /// poll counts in milliseconds, so it covers all but the last two of them; a sleep to the
    /// absolute deadline does the rest, to within the scheduler's wake-up latency.
    @discardableResult
    package static func poll(_ descriptors: inout [pollfd], until deadline: Int64?) -> Int {
        for index in descriptors.indices { descriptors[index].revents = 0 }
        let left = deadline.map { $0 - now() }
        if let left, left <= 2_000_000 {
            let ready = systemPoll(&descriptors, timeout: 0)
            if ready > 0 || left <= 0 { return ready }
            sleep(until: deadline!)
            return 0
        }
        let milliseconds = left.map { Int32(clamping: $0 / 1_000_000 - 1) } ?? -1
        return systemPoll(&descriptors, timeout: milliseconds)
    }

    /// Sleeps until the monotonic clock reads `deadline`.
    package static func sleep(until deadline: Int64) {
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        #if canImport(Glibc)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {
            if now() >= deadline { return }
        }
        #else
        while now() < deadline {
            let left = deadline - now()
            target = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            nanosleep(&target, nil)
        }
        #endif
    }

    private static func systemPoll(_ descriptors: inout [pollfd], timeout: Int32) -> Int {
        let ready = descriptors.withUnsafeMutableBufferPointer { buffer in
            #if canImport(Glibc)
            Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
            #else
            Darwin.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
            #endif
        }
        return max(Int(ready), 0)
    }
}
