@testable import Bluetape
import Foundation
import JSON
import PayloadDecoders
import Readings
import TestSupport
import Testing

/// `Capture.writeReadingsJSONL` makes each chunk's JSON on whichever thread comes to it first;
/// what comes out is the same text, in the same order, as one thread writing reading after
/// reading, however the chunks were shared out.
@Suite(.serialized)
struct JSONLinesTests {
    /// The bench's mixed scenario, 20,000 records: over 8,000 readings, a dozen chunks and more.
    static let capture: [UInt8] = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bluetape-jsonlines-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("mixed.btsnoop").path
        let scenario = TestPaths.packageRoot + "/scripts/bench-scenarios/mixed.scenario.json"
        let result = run(["synth", scenario, "-o", path, "--records", "20000"])
        precondition(result.code == 0, result.err)
        defer { try? FileManager.default.removeItem(at: directory) }
        return [UInt8](FileManager.default.contents(atPath: path)!)
    }()

    static func decoding() throws -> DecoderConfiguration { try DecoderConfiguration() }

    /// Reading after reading on this thread, each chunk's texts named once for the whole run.
    static func oneThread(leading: [UInt8]? = nil) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 1 << 16)
        var json = PackedReadingJSON()
        try Capture(bytes: capture).forEachPackedReading(try decoding(), concurrently: false) { reading in
            json.write(reading, to: &writer, leading: leading)
            return true
        }
        return writer.withBytes { [UInt8]($0) }
    }

    /// The readings packed into chunks that name their own texts, as the two-thread run packs them.
    static func selfContainedChunks() throws -> [PackedReadings] {
        let fields = FieldPacker()
        let pipeline = ReadingsPipeline(decoders: try decoding().decoderSet, packingInto: fields)
        var chunks: [PackedReadings] = []
        let filling = ChunkFilling(fields: fields, selfContained: true) { chunks.append($0) }
        try Capture(bytes: capture).forEachEvent { event in
            pipeline.consume(event, packed: { reading, span in filling.take(reading, fields: span) })
            return true
        }
        pipeline.finish(packed: { reading, span in filling.take(reading, fields: span) })
        filling.end()
        return chunks
    }

    @Test func `the run on two threads writes what one thread writes`() throws {
        let expected = try Self.oneThread()
        var written: [UInt8] = []
        var pieces = 0
        try Capture(bytes: Self.capture).writeReadingsJSONL(try Self.decoding(), to: { bytes in
            written.append(contentsOf: bytes)
            pieces += 1
            return true
        })
        #expect(written == expected)
        #expect(pieces >= 10)
    }

    @Test func `with a member first in each line`() throws {
        let member = JSONWriter.member("capture", "a \"quoted\" name.btsnoop")
        let expected = try Self.oneThread(leading: member)
        var written: [UInt8] = []
        try Capture(bytes: Self.capture).writeReadingsJSONL(try Self.decoding(), leading: member, to: { bytes in
            written.append(contentsOf: bytes)
            return true
        })
        #expect(written == expected)
        #expect(written.starts(with: Array(#"{"capture":"a \"quoted\" name.btsnoop","frame":"#.utf8)))
    }

    /// Every way of sharing the chunks out: the other thread taking the oldest untaken one after
    /// every n-th chunk, this thread making the rest (ahead of the other's, out of order).
    @Test(arguments: [0, 1, 2, 3, 5])
    func `chunks made by either thread come out in order`(helpEvery: Int) throws {
        let expected = try Self.oneThread()
        let chunks = try Self.selfContainedChunks()
        #expect(chunks.count >= 12)
        let lines = JSONLineQueue(leading: nil)
        var written: [UInt8] = []
        let write = { (bytes: UnsafeRawBufferPointer) -> Bool in
            written.append(contentsOf: bytes)
            return true
        }
        for (index, chunk) in chunks.enumerated() {
            lines.append(chunk)
            if helpEvery > 0, index % helpEvery == 0 { lines.help() }
            #expect(lines.writeOut(finishing: false, write))
        }
        #expect(lines.writeOut(finishing: true, write))
        #expect(written == expected)
    }

    @Test func `a write that fails ends the run, after a prefix of the text`() throws {
        let expected = try Self.oneThread()
        var written: [UInt8] = []
        var calls = 0
        try Capture(bytes: Self.capture).writeReadingsJSONL(try Self.decoding(), to: { bytes in
            calls += 1
            written.append(contentsOf: bytes)
            return calls < 3
        })
        #expect(calls == 3)
        #expect(written.count < expected.count)
        #expect(expected.starts(with: written))
    }
}
