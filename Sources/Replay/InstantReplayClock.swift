import Handoff

/// A clock for tests: it never sleeps, and records every wait a replay asked for, so a test can
/// replay an hour-long capture in milliseconds and still check its pacing. Use one per replay.
public final class InstantReplayClock: ReplayClock, @unchecked Sendable {
    private let lock = Lock()
    private var requested: [Duration] = []

    public init() {}

    public func start() {}

    public func sleep(until offset: Duration, since start: Void) async throws {
        try Task.checkCancellation()
        lock.withLock { requested.append(offset) }
    }

    /// The offsets the replay asked to sleep until, in order.
    public var offsets: [Duration] { lock.withLock { requested } }

    /// The waits those offsets stand for: each one minus the one before (the first minus zero).
    public var waits: [Duration] {
        let offsets = offsets
        return zip(offsets, [.zero] + offsets).map { $0 - $1 }
    }

    /// How long the replay would have taken in real time.
    public var elapsed: Duration { offsets.last ?? .zero }
}

extension ReplayClock where Self == InstantReplayClock {
    /// A clock that never sleeps (keep a reference to read the waits it was asked for).
    public static var instant: InstantReplayClock { InstantReplayClock() }
}
