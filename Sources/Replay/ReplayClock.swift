/// The time a replay waits by. The replay asks it to start when the first element is ready, then to
/// sleep until each later element is due; injecting another clock replays without waiting.
public protocol ReplayClock: Sendable {
    /// What marks time zero of one replay.
    associatedtype Start: Sendable

    /// Time zero of a replay: called once, when its first element is ready.
    func start() -> Start

    /// Returns when `offset` has passed since `start` (at once when it already has); throws
    /// `CancellationError` when the task is cancelled. Called only with increasing offsets.
    func sleep(until offset: Duration, since start: Start) async throws
}

/// Real time: sleeps on `ContinuousClock` until each element's deadline. Deadlines are counted from
/// the start, not from the previous element, so lateness never adds up.
public struct ContinuousReplayClock: ReplayClock {
    public init() {}

    public func start() -> ContinuousClock.Instant { .now }

    public func sleep(until offset: Duration, since start: ContinuousClock.Instant) async throws {
        try await ContinuousClock().sleep(until: start + offset, tolerance: .zero)
    }
}

extension ReplayClock where Self == ContinuousReplayClock {
    /// Real time.
    public static var continuous: ContinuousReplayClock { ContinuousReplayClock() }
}
