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

    /// Adverts that differ from one seen before only in bytes shown as hex (a sensor's
    /// readings) come through its template; any other difference is another template.
    @Test func `a template's hex is each advert's own, and only hex-only bytes are shared`() {
        let adverts = [
            // Flags, manufacturer data of company 0xFFFF, then the same with other readings.
            "02 01 06 07 FF FF FF 01 02 03 04",
            "02 01 06 07 FF FF FF 0A 0B 0C 0D",
            // The same shape from another company, and with other flags: not that template.
            "02 01 06 07 FF 4C 00 0A 0B 0C 0D",
            "02 01 04 07 FF FF FF 05 06 07 08",
            // Service data for 0x181A, twice, then for 0x181B.
            "05 16 1A 18 1B 07",
            "05 16 1A 18 2C 08",
            "05 16 1B 18 2C 08",
            // A type Bluetape does not read (0x2A), a name, then the same with another name.
            "03 2A 01 02 04 09 45 6E 76",
            "03 2A 03 04 04 09 45 6E 76",
            "03 2A 03 04 04 09 45 6E 78",
            // Manufacturer data too short for a company: listed, nothing lifted.
            "02 FF 4C",
            "02 FF 4D",
        ]
        var trace = HCITrace()
        for data in adverts {
            let bytes = hex(data)
            trace.leMeta(0x02, [0x01, 0x00, 0x01] + hex("C7 0E F9 30 6B C2") + [UInt8(bytes.count)] + bytes + [0xC1])
        }
        let events = track(trace)
        #expect(events.count == adverts.count)
        let cache = EventJSONCache()
        for event in events {
            var cached = JSONWriter()
            EventJSON.write(event, to: &cached, cache: cache)
            #expect(String(decoding: cached.bytes, as: UTF8.self) == jsonLine(event) + "\n")
        }
        // Through a template: the second of each pair (manufacturer data, service data, the 0x2A
        // structure, the short manufacturer data: a structure read as nothing is all hex).
        #expect(cache.hits == 4)
    }
}
