import BluetoothPackets
import BluetoothTracking
import JSON
import Readings
import Replay
import Testing
import TestSupport

/// The AsyncSequence API with an injected clock: instant replays that still report the capture's pacing.
struct ReplaySequenceTests {
    static let hour: Int64 = 3_600_000_000
    /// Adverts at 0, 0.1 s, 0.1 s again, 0.35 s, then one hour later, and 2 s after that.
    static let offsets: [Int64] = [0, 100_000, 100_000, 350_000, 350_000 + hour, 2_350_000 + hour]

    @Test func `a capture with an hour of silence replays at once yet asks for every original gap`() async throws {
        let clock = InstantReplayClock()
        let items = try await collect(Replay.events(from: try TimedCapture.adverts(at: Self.offsets), clock: clock))
        #expect(items.map(\.timestamp) == Self.offsets.map { TimedCapture.start + $0 })
        #expect(items.map(\.offset) == Self.offsets.map { Duration.microseconds($0) })
        // Equal timestamps ask for no wait of their own.
        #expect(clock.waits == [.milliseconds(100), .milliseconds(250), .seconds(3600), .seconds(2)])
        #expect(clock.elapsed == .microseconds(2_350_000 + Self.hour))
    }

    @Test func `speed divides every wait and max gap cuts the silence before it does`() async throws {
        let clock = InstantReplayClock()
        let options = ReplayOptions(speed: 10, maxGap: .seconds(5))
        let items = try await collect(Replay.events(from: try TimedCapture.adverts(at: Self.offsets), options: options, clock: clock))
        #expect(clock.waits == [.milliseconds(10), .milliseconds(25), .milliseconds(500), .milliseconds(200)])
        #expect(items.last?.offset == .milliseconds(735))
        // The events keep their own timestamps.
        #expect(items.last?.timestamp == TimedCapture.start + 2_350_000 + Self.hour)
    }

    @Test func `max gap alone keeps short gaps and cuts long ones`() async throws {
        let clock = InstantReplayClock()
        let options = ReplayOptions(maxGap: .milliseconds(200))
        _ = try await collect(Replay.events(from: try TimedCapture.adverts(at: Self.offsets), options: options, clock: clock))
        #expect(clock.waits == [.milliseconds(100), .milliseconds(200), .milliseconds(200), .milliseconds(200)])
    }

    @Test func `an unpaced replay asks for no wait at all`() async throws {
        let clock = InstantReplayClock()
        let items = try await collect(Replay.events(from: try TimedCapture.adverts(at: Self.offsets), options: .unpaced, clock: clock))
        #expect(items.count == Self.offsets.count)
        #expect(items.allSatisfy { $0.offset == .zero })
        #expect(clock.offsets.isEmpty)
    }

    @Test func `a second pass follows the first without a gap and counts as pass 1`() async throws {
        let clock = InstantReplayClock()
        let path = try TimedCapture.adverts(at: [0, 500_000, 1_500_000])
        let items = try await collect(Replay.events(from: path, options: ReplayOptions(passes: 2), clock: clock))
        #expect(items.map(\.pass) == [0, 0, 0, 1, 1, 1])
        #expect(items.map(\.offset) == [0, 0.5, 1.5, 1.5, 2, 3].map { Duration.milliseconds(Int64($0 * 1000)) })
        #expect(clock.waits == [.milliseconds(500), .seconds(1), .milliseconds(500), .seconds(1)])
    }

    @Test func `the type filter keeps only those events and the gaps are between them`() async throws {
        let path = TestPaths.captures + "/combustion.btsnoop"
        let all = try await collect(Replay.events(from: path, options: .unpaced, clock: .instant))
        let clock = InstantReplayClock()
        let att = try await collect(Replay.events(from: path, options: ReplayOptions(filter: .types([.att])), clock: clock))
        #expect(!att.isEmpty)
        #expect(att.count == all.filter { $0.value.type == .att }.count)
        #expect(att.allSatisfy { $0.value.type == .att })
        let first = att[0].timestamp
        #expect(att.allSatisfy { $0.offset == .microseconds($0.timestamp - first) })
        #expect(clock.elapsed == .microseconds(att.last!.timestamp - first))
    }

    @Test func `a predicate filter picks one device's adverts`() async throws {
        let path = try TimedCapture.adverts(at: Self.offsets)
        let wanted = BluetoothAddress(TimedCapture.second)!
        let filter = ReplayFilter.matching { event in
            if case .advertisement(let adv) = event.body { return adv.address == wanted }
            return false
        }
        let clock = InstantReplayClock()
        let items = try await collect(Replay.events(from: path, options: ReplayOptions(filter: filter), clock: clock))
        #expect(items.map(\.timestamp) == [1, 3, 5].map { TimedCapture.start + Self.offsets[$0] })
        #expect(clock.waits == [.milliseconds(250), .microseconds(2_000_000 + Self.hour)])
    }

    @Test func `readings replay as decode writes them, each due at its capture time`() async throws {
        let path = TestPaths.captures + "/envsensor.btsnoop"
        let clock = InstantReplayClock()
        let items = try await collect(Replay.readings(from: path, clock: clock))
        var writer = JSONWriter(capacity: 1 << 16)
        for item in items { ReadingJSON.write(item.value, to: &writer) }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == TestPaths.readText(path + ".golden.jsonl"))
        let first = items[0].timestamp
        #expect(items.allSatisfy { $0.offset == .microseconds($0.timestamp - first) })
        #expect(clock.elapsed == .microseconds(items.last!.timestamp - first))
    }

    @Test func `a readings replay sees only the events its filter keeps`() async throws {
        let path = TestPaths.captures + "/envsensor.btsnoop"
        let beacon = BluetoothAddress("E6:45:9D:5A:2E:EE")!
        let filter = ReplayFilter.matching { event in
            if case .advertisement(let adv) = event.body { return adv.address == beacon }
            return false
        }
        let items = try await collect(Replay.readings(from: path, options: ReplayOptions(speed: .infinity, filter: filter), clock: .instant))
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { $0.value.address == beacon && $0.value.decoder == "ibeacon" })
    }

    @Test func `readings the decoding leaves out leave no gap`() async throws {
        let path = TestPaths.captures + "/combustion.btsnoop"
        let decoding = ReplayDecoding(keep: { $0.decoder == "combustion.status" })
        let clock = InstantReplayClock()
        let items = try await collect(Replay.readings(from: path, decoding: decoding, clock: clock))
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { $0.value.decoder == "combustion.status" })
        #expect(items[0].offset == .zero)
        #expect(clock.elapsed == .microseconds(items.last!.timestamp - items[0].timestamp))
    }

    @Test func `a missing capture fails when the replay is made, not when it is read`() {
        #expect(throws: ReplayError.self) { try Replay.events(from: "/nonexistent/x.btsnoop") }
        let error = #expect(throws: ReplayError.self) { try Replay.events(from: "/nonexistent/x.btsnoop") }
        #expect(error?.description == "/nonexistent/x.btsnoop: no such file")
    }

    @Test func `options that make no sense are refused`() throws {
        let path = TestPaths.captures + "/tractor.btsnoop"
        #expect(throws: ReplayError.self) { try Replay.events(from: path, options: ReplayOptions(speed: 0)) }
        #expect(throws: ReplayError.self) { try Replay.events(from: path, options: ReplayOptions(speed: .nan)) }
        #expect(throws: ReplayError.self) { try Replay.events(from: path, options: ReplayOptions(passes: 0)) }
        #expect(throws: ReplayError.self) { try Replay.events(from: path, options: ReplayOptions(maxGap: .seconds(-1))) }
    }
}
