@testable import Bluetape
import JSON
import Readings
import TestSupport
import Testing

/// `decode` and `golden check` have decoders pack their fields straight into bytes on the way
/// to JSON (`FieldPacker`, `PackedReadings`); an app gets each reading's `Fields`. Both give the
/// same text.
struct PackedPathTests {
    /// The bench's mixed scenario and every shared capture: their JSON Lines as `decode` makes
    /// them, against each reading decoded into fields and written alone.
    @Test func `readings packed on the way to JSON are the readings decoded one by one`() throws {
        var captures: [(name: String, capture: Capture)] = [("mixed scenario", try Capture(bytes: JSONLinesTests.capture))]
        for path in TestPaths.sharedCaptureFiles { captures.append((path, try Capture(path: path, formats: testFormats))) }
        var readings = 0
        for (name, capture) in captures {
            let packed = try capture.readingsJSONL(try JSONLinesTests.decoding())
            var alone = JSONWriter(capacity: 1 << 16)
            var context = ReadingJSON.Context()
            try capture.forEachReading(try JSONLinesTests.decoding(), concurrently: false) { reading in
                readings += 1
                ReadingJSON.write(reading, to: &alone, context: &context)
                return true
            }
            if packed != alone.bytes {
                let lines = (
                    String(decoding: alone.bytes, as: UTF8.self).split(separator: "\n"),
                    String(decoding: packed, as: UTF8.self).split(separator: "\n")
                )
                let first = zip(lines.0, lines.1).first { $0 != $1 }.map { "\($0.0)\npacked: \($0.1)" }
                Issue.record("\(name): \(lines.0.count) lines one by one, \(lines.1.count) packed; first differing \(first ?? "-")")
            }
        }
        #expect(readings > 8_000)
    }
}
