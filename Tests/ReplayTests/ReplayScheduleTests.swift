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
