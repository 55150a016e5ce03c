@testable import Bluetape
import JSON
import PayloadDecoders
@testable import Readings
import TestSupport
import Testing

/// A `PackedReadingJSON` that keeps the JSON of recent fields (`cachingFields`) changes how
/// the fields are written, never what is written.
struct FieldsJSONCacheTests {
    /// Every reading through a caching writer and a plain one, side by side: the bench's mixed
    /// scenario (heart beats and probe temperatures that repeat, beacons that do not), then
    /// every shared capture with readings, through the same caching writer (its cache kept, its
    /// names learned anew for each).
    @Test func `readings written through the cache are the readings written without it`() throws {
        var cached = PackedReadingJSON(cachingFields: true)
        var readings = 0
        var captures: [(name: String, capture: Capture)] = [("mixed scenario", try Capture(bytes: JSONLinesTests.capture))]
        for path in TestPaths.sharedCaptureFiles { captures.append((path, try Capture(path: path, formats: testFormats))) }
        for (name, capture) in captures {
            var plain = PackedReadingJSON()
            // Each capture's packer numbers its names from 0 again, mostly not as the last one did.
            cached.reset()
            var plainLines = JSONWriter(capacity: 1 << 16)
            var cachedLines = JSONWriter(capacity: 1 << 16)
            try capture.forEachPackedReading(try JSONLinesTests.decoding(), concurrently: false) { reading in
                readings += 1
                plain.write(reading, to: &plainLines)
                cached.write(reading, to: &cachedLines)
                return true
            }
            if cachedLines.bytes != plainLines.bytes {
                let lines = (
                    String(decoding: plainLines.bytes, as: UTF8.self).split(separator: "\n"),
                    String(decoding: cachedLines.bytes, as: UTF8.self).split(separator: "\n")
                )
                let first = zip(lines.0, lines.1).first { $0 != $1 }
                Issue.record("\(name): first differing line \(first.map { "\($0.0)\nthrough the cache: \($0.1)" } ?? "-")")
            }
        }
        #expect(readings > 8_000)
        #expect(cached.fieldsFromCache > readings / 4)
        #expect(cached.fieldsFromCache < readings)
    }

    /// One field each, packed by two packers: both number their name 0 and pack the same bytes.
    static func chunk(_ name: String) -> PackedReadings {
        let chunk = PackedReadings(capacity: 256)
        ReadingPacker().pack(
            Reading(
                frame: 1, timestamp: 0, address: nil, decoder: "d", source: "adv", match: .company(1), index: nil,
                outcome: .fields([Field(name, 7)]), repeats: nil),
            into: chunk)
        return chunk
    }

    static func write(_ chunk: PackedReadings, with json: inout PackedReadingJSON) -> String {
        var writer = JSONWriter(capacity: 128)
        json.reset()
        chunk.forEach { reading in
            json.write(reading, to: &writer)
            return true
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The same bytes under a number that now stands for another name: not the JSON kept for
    /// the old name.
    @Test func `a number that changes its name is not written from the cache`() {
        var json = PackedReadingJSON(cachingFields: true)
        #expect(Self.write(Self.chunk("a"), with: &json).contains(#""fields":{"a":7}"#))
        #expect(Self.write(Self.chunk("a"), with: &json).contains(#""fields":{"a":7}"#))
        #expect(json.fieldsFromCache == 1)
        #expect(Self.write(Self.chunk("b"), with: &json).contains(#""fields":{"b":7}"#))
        #expect(Self.write(Self.chunk("a"), with: &json).contains(#""fields":{"a":7}"#))
    }

    /// Copies share the cache: one that filled it under other names is not answered from it.
    @Test func `copies of a writer that number names apart do not share fields`() {
        var first = PackedReadingJSON(cachingFields: true)
        #expect(Self.write(Self.chunk("a"), with: &first).contains(#""fields":{"a":7}"#))
        var second = first
        #expect(Self.write(Self.chunk("b"), with: &second).contains(#""fields":{"b":7}"#))
        #expect(Self.write(Self.chunk("a"), with: &first).contains(#""fields":{"a":7}"#))
        #expect(Self.write(Self.chunk("b"), with: &second).contains(#""fields":{"b":7}"#))
    }
}
