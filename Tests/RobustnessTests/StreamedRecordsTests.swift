import BluetoothTracking
import CaptureFiles
import CaptureModel
import EventOutput
import JSON
import TestSupport
import Testing

/// `Tracker.consumeAll` (one sink for a whole stream) gives the events `consume` gives record by
/// record, on every real capture.
struct StreamedRecordsTests {
    static func lines(_ events: [Event]) -> [String] {
        events.map { event in
            var w = JSONWriter()
            EventJSON.write(event, to: &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
    }

    @Test(.enabled(if: TestPaths.sharedCaptures != nil, "needs ../shared/captures"))
    func `a stream of records gives the events record by record gives`() throws {
        var compared = 0
        for path in TestPaths.sharedCaptureFiles {
            guard let bytes = TestPaths.readFile(path), let outcome = readCapture(bytes) else { continue }
            var oneByOne: [Event] = []
            let first = Tracker()
            for record in outcome.records { record.withRecord { first.consume($0) { oneByOne.append($0) } } }
            first.finish { oneByOne.append($0) }

            var streamed: [Event] = []
            let second = Tracker()
            var index = 0
            // Each stored record lends its bytes only inside `withRecord`: copy them out for the stream.
            let copies = outcome.records.map { CopiedRecord($0) }
            second.consumeAll({
                guard index < copies.count else { return nil }
                defer { index += 1 }
                return copies[index].record
            }) { streamed.append($0) }
            second.finish { streamed.append($0) }

            #expect(Self.lines(streamed) == Self.lines(oneByOne), "\(path)")
            #expect(second.statistics.events == first.statistics.events)
            compared += oneByOne.count
        }
        #expect(compared > 100_000)
    }
}

/// A record whose payload stays valid as long as this object lives.
private final class CopiedRecord {
    let storage: UnsafeMutableRawBufferPointer
    let record: CaptureRecord

    init(_ stored: StoredRecord) {
        let record = stored.withRecord { $0 }
        storage = .allocate(byteCount: max(1, record.payload.count), alignment: 8)
        storage.copyMemory(from: stored.withRecord { UnsafeRawBufferPointer($0.payload) })
        var copy = record
        copy.payload = UnsafeRawBufferPointer(rebasing: storage[0..<record.payload.count])
        self.record = copy
    }

    deinit { storage.deallocate() }
}
