@testable import Bluetape
import JSON
import Readings
import TestSupport
import Testing

/// `decode` and `golden check` copy what they made for a payload or fields seen lately
/// (`PackedOutcomeCache`, `FieldsJSONCache`); an app's readings are decoded one by one. Both
/// give the same text.
struct DecodeCacheTests {
    /// The bench's mixed scenario (probes and heart rate monitors that repeat themselves, beacons
    /// and BTHome sensors that do not) and every shared capture: their JSON Lines as `decode`
    /// makes them, against each reading decoded into fields and written alone.
    @Test func `readings through the caches are the readings decoded one by one`() throws {
        var captures: [(name: String, capture: Capture)] = [("mixed scenario", try Capture(bytes: JSONLinesTests.capture))]
        for path in TestPaths.sharedCaptureFiles { captures.append((path, try Capture(path: path, formats: testFormats))) }
        var readings = 0
        for (name, capture) in captures {
            let cached = try capture.readingsJSONL(try JSONLinesTests.decoding())
            var alone = JSONWriter(capacity: 1 << 16)
            var context = ReadingJSON.Context()
            try capture.forEachReading(try JSONLinesTests.decoding(), concurrently: false) { reading in
                readings += 1
                ReadingJSON.write(reading, to: &alone, context: &context)
                return true
            }
            if cached != alone.bytes {
                let lines = (
                    String(decoding: alone.bytes, as: UTF8.self).split(separator: "\n"),
                    String(decoding: cached, as: UTF8.self).split(separator: "\n")
                )
                let first = zip(lines.0, lines.1).first { $0 != $1 }.map { "\($0.0)\nthrough the caches: \($0.1)" }
                Issue.record("\(name): \(lines.0.count) lines one by one, \(lines.1.count) cached; first differing \(first ?? "-")")
            }
        }
        #expect(readings > 8_000)
    }
}
