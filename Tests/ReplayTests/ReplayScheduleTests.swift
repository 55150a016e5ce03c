import Replay
import Testing

/// The timeline: capture timestamps to offsets.
struct ReplayScheduleTests {
    @Test func `an out-of-order timestamp is due at once and does not turn time back`() {
        var schedule = ReplaySchedule(speed: 1, maxGap: nil)
        let offsets = [1_000_000, 2_000_000, 1_500_000, 2_100_000].map { schedule.offset(for: Int64($0)) }
        #expect(offsets == [.zero, .seconds(1), .seconds(1), .milliseconds(1100)])
    }

    @Test func `rounding does not add up over many small gaps`() {
        var schedule = ReplaySchedule(speed: 3, maxGap: nil)
        var last = Duration.zero
        for step in 0...30_000 { last = schedule.offset(for: Int64(step) * 1) }
        // 30 000 µs at a third of the time: 10 ms exactly.
        #expect(last == .milliseconds(10))
    }

    @Test func `a new pass starts where the last one ended`() {
        var schedule = ReplaySchedule(speed: 2, maxGap: nil)
        _ = schedule.offset(for: 0)
        #expect(schedule.offset(for: 4_000_000) == .seconds(2))
        schedule.startPass()
        #expect(schedule.offset(for: 0) == .seconds(2))
        #expect(schedule.offset(for: 1_000_000) == .milliseconds(2500))
    }
}

/// The real clock: only a lower bound is checked, since how late a sleep ends depends on the machine
/// (scripts/bench-replay measures that).
struct ContinuousReplayClockTests {
    @Test func `the continuous clock does not wake before the deadline`() async throws {
        let clock = ContinuousReplayClock()
        let start = clock.start()
        try await clock.sleep(until: .milliseconds(30), since: start)
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }

    @Test func `a real-time replay takes at least as long as its capture`() async throws {
        let path = try TimedCapture.adverts(at: [0, 20_000, 60_000])
        let started = ContinuousClock.now
        let items = try await collect(Replay.events(from: path, clock: .continuous))
        #expect(items.count == 3)
        #expect(ContinuousClock.now - started >= .milliseconds(60))
    }
}
