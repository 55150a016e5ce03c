import JSON

/// Renders a `DiffReport` as one JSON object: what the text report says, for programs.
///
/// `{"expected":…,"actual":…,"align":"frame","summary":{…},"decoders":{"acme.pump":{…}},
///   "differences":[{"status":"changed","key":{…},"expected_line":2,"actual_line":2,"changes":[…]}, …],
///   "problems":[{"file":…,"line":3,"message":…}]}`
///
/// A value absent on one side of a change is left out rather than written as null. Readings with
/// `"decoder": null` count under `"(no decoder)"` in `decoders`, and have a null decoder in their keys.
public enum JSONReport {
    public static func render(_ report: DiffReport, expected: String, actual: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        write(report, expected: expected, actual: actual, to: &writer)
        writer.newline()
        return writer.bytes
    }

    public static func write(_ report: DiffReport, expected: String, actual: String, to w: inout JSONWriter) {
        w.beginObject()
        w.key("expected")
        w.string(expected)
        w.key("actual")
        w.string(actual)
        w.key("align")
        w.string(report.alignment.rawValue)
        w.key("summary")
        writeCounts(report.counts, to: &w) {
            $0.key("expected_readings")
            $0.int(report.expectedCount)
            $0.key("actual_readings")
            $0.int(report.actualCount)
            $0.key("problems")
            $0.int(report.problems.count)
        }
        w.key("decoders")
        w.beginObject()
        for decoder in report.decoders {
            w.key(escaping: decoder.name)
            writeCounts(decoder.counts, to: &w)
        }
        w.endObject()
        w.key("differences")
        w.beginArray()
        for entry in report.entries { write(entry, to: &w) }
        w.endArray()
        w.key("problems")
        w.beginArray()
        for problem in report.problems {
            w.beginObject()
            w.key("file")
            w.string(problem.side == .expected ? expected : actual)
            w.key("line")
            w.int(problem.line)
            w.key("message")
            w.string(problem.message)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    static func writeCounts(_ counts: DiffCounts, to w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in })
    {
        w.beginObject()
        w.key("readings")
        w.int(counts.total)
        w.key("unchanged")
        w.int(counts.unchanged)
        w.key("within_tolerance")
        w.int(counts.withinTolerance)
        w.key("changed")
        w.int(counts.changed)
        w.key("added")
        w.int(counts.added)
        w.key("missing")
        w.int(counts.missing)
        w.key("duplicate_keys")
        w.int(counts.duplicateKeys)
        extra(&w)
        w.endObject()
    }

    private static func write(_ entry: DiffEntry, to w: inout JSONWriter) {
        switch entry {
        case .unchanged:
            return
        case .changed(let change):
            w.beginObject()
            w.key("status")
            w.string("changed")
            write(change.key, to: &w)
            w.key("expected_line")
            w.int(change.expected.line)
            w.key("actual_line")
            w.int(change.actual.line)
            if change.key.sequence != nil { writeFrames(change.expected.frame, change.actual.frame, to: &w) }
            w.key("changes")
            w.beginArray()
            for field in change.changes {
                w.beginObject()
                w.key("field")
                w.string(field.field)
                if let expected = field.expected {
                    w.key("expected")
                    expected.write(to: &w)
                }
                if let actual = field.actual {
                    w.key("actual")
                    actual.write(to: &w)
                }
                if let tolerance = field.tolerance {
                    w.key("tolerance")
                    w.double(tolerance)
                }
                w.endObject()
            }
            w.endArray()
            w.endObject()
        case .added(let reading), .missing(let reading):
            let added = if case .added = entry { true } else { false }
            w.beginObject()
            w.key("status")
            w.string(added ? "added" : "missing")
            write(reading.key, to: &w)
            w.key(added ? "actual_line" : "expected_line")
            w.int(reading.location.line)
            w.key("reading")
            JSONValue.object(reading.reading).write(to: &w)
            w.endObject()
        case .duplicateKey(let duplicate):
            w.beginObject()
            w.key("status")
            w.string("duplicate_key")
            write(duplicate.key, to: &w)
            w.key("expected_lines")
            w.beginArray()
            for line in duplicate.expectedLines { w.int(line) }
            w.endArray()
            w.key("actual_lines")
            w.beginArray()
            for line in duplicate.actualLines { w.int(line) }
            w.endArray()
            w.endObject()
        }
    }

    private static func write(_ key: ReadingKey, to w: inout JSONWriter) {
        w.key("key")
        w.beginObject()
        if key.sequence == nil, let frame = key.frame {
            w.key("frame")
            w.int(frame)
        }
        w.key("decoder")
        if let decoder = key.decoder { w.string(decoder) } else { w.null() }
        if let address = key.address {
            w.key("addr")
            w.string(address)
        }
        if let sequence = key.sequence {
            w.key("sequence")
            w.int(sequence)
        }
        if let index = key.index {
            w.key("index")
            w.int(index)
        }
        w.endObject()
    }

    private static func writeFrames(_ expected: Int64?, _ actual: Int64?, to w: inout JSONWriter) {
        if let expected {
            w.key("expected_frame")
            w.int(expected)
        }
        if let actual {
            w.key("actual_frame")
            w.int(actual)
        }
    }
}
