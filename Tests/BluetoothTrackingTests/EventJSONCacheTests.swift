import BluetoothTracking
import EventOutput
import JSON
import Testing
import TestSupport

/// `EventJSONCache` changes how an advert's, an HCI packet's or an ATT event's JSON is made,
/// never what it is.
@Suite(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
struct EventJSONCacheTests {
    /// Every event of the shared captures with adverts, through one cache in turn: legacy data
    /// that repeats and data that collides in a slot (some 90,000 adverts into 1,024 slots),
    /// empty data, data whose structures run past its end, and extended data too long to keep;
    /// HCI commands and events, in the same slots, with parameters too long to keep among them;
    /// ATT events of every kind, whose heads (connection, operation, attribute) come from it.
    @Test func `events written through the cache are the events written without it`() throws {
        let cache = EventJSONCache()
        var adverts = 0
        var extended = 0
        var hciPackets = 0
        var longHCIPackets = 0
        var attEvents = 0
        for name in SharedCaptureEventTests.hciCaptures + SharedCaptureEventTests.packetLoggerCaptures {
            let path = try #require(SharedCapture.path(name))
            var plain = JSONWriter(capacity: 1 << 16)
            var cached = JSONWriter(capacity: 1 << 16)
            for event in try events(inCapture: path) {
                if let advert = event.advertisement {
                    adverts += 1
                    if advert.data.count > 31 { extended += 1 }
                }
                if case .hci(let packet) = event.body {
                    hciPackets += 1
                    if packet.parameters.count > 84 { longHCIPackets += 1 }
                }
                if case .att = event.body { attEvents += 1 }
                EventJSON.write(event, to: &plain)
                EventJSON.write(event, to: &cached, cache: cache)
            }
            if cached.bytes != plain.bytes {
                let lines = (String(decoding: plain.bytes, as: UTF8.self), String(decoding: cached.bytes, as: UTF8.self))
                let first = zip(lines.0.split(separator: "\n"), lines.1.split(separator: "\n")).first { $0 != $1 }
                Issue.record("\(name): first differing line \(first.map { "\($0.0)\nthrough the cache: \($0.1)" } ?? "-")")
            }
        }
        #expect(adverts > 50_000)
        #expect(extended > 0)
        #expect(hciPackets > 1_000)
        #expect(longHCIPackets > 0)
        #expect(attEvents > 10_000)
        // Most adverts repeat one seen lately, and those come from the cache.
        #expect(cache.hits > adverts / 2)
        #expect(cache.hits < adverts + hciPackets + attEvents)
    }
}
