import BluetoothTracking
import ByteReading
import CaptureModel
import PayloadDecoders
import Readings
import Testing

/// A device repeating one advertisement is one reading with `repeats`: a copy byte for byte the
/// same as the held reading's payload is counted without being decoded again, and everything
/// else still goes through the decoder and its dedup key.
struct RepeatedPayloadTests {
    /// Counts its calls. Payload after company 0xFFF0: sequence (the dedup key), then a value.
    final class Counting: PayloadDecoder, @unchecked Sendable {
        var calls = 0
        var id: String { "test.counting" }
        var summary: String { "counts its calls" }
        var matches: [MatchKey] { [.company(0xFFF0)] }
        var fields: [FieldDescription] { [FieldDescription("sequence", "dedup key"), FieldDescription("value", "a value")] }
        var dedupKey: [String]? { ["sequence"] }
        func decode(_ payload: Payload) -> [DecodeOutcome] {
            calls += 1
            return [
                decoding(payload.bytes) { reader throws(DecodeError) in
                    [Field("sequence", .int(Int64(try reader.u8("sequence")))), Field("value", .int(Int64(try reader.u8("value"))))]
                }
            ]
        }
    }

    /// An advertising report from C6:05:04:03:02:01 with manufacturer data of company 0xFFF0.
    static func advert(sequence: UInt8, value: UInt8) -> [UInt8] {
        let ad: [UInt8] = [0x05, 0xFF, 0xF0, 0xFF, sequence, value]
        let body: [UInt8] = [0x02, 0x01, 0x00, 0x01, 0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, UInt8(ad.count)] + ad + [0xC4]
        return [0x3E, UInt8(body.count)] + body
    }

    /// The readings of `adverts` (seconds of capture time, sequence, value) and the decoder's calls.
    static func run(_ adverts: [(seconds: Int64, sequence: UInt8, value: UInt8)], allRepeats: Bool = false)
        -> (readings: [(frame: Int, value: FieldValue?, repeats: Int?)], calls: Int)
    {
        let decoder = Counting()
        var options = ReadingsPipeline.Options()
        options.allRepeats = allRepeats
        let tracker = Tracker()
        let pipeline = ReadingsPipeline(decoders: DecoderSet([decoder]), options: options)
        var readings: [(frame: Int, value: FieldValue?, repeats: Int?)] = []
        func keep(_ reading: consuming Reading) {
            guard case .fields(let fields) = reading.outcome else { return }
            readings.append((reading.frame, fields["value"], reading.repeats))
        }
        for (index, advert) in adverts.enumerated() {
            let record = StoredRecord(
                frame: index + 1, timestamp: 1_700_000_000_000_000 + advert.seconds * 1_000_000, direction: .received,
                kind: .event, payload: Self.advert(sequence: advert.sequence, value: advert.value))
            record.withRecord { tracker.consume($0) { pipeline.consume($0, keep) } }
        }
        tracker.finish { pipeline.consume($0, keep) }
        pipeline.finish(keep)
        return (readings, decoder.calls)
    }

    @Test func `copies byte for byte the same are counted without decoding them again`() {
        let run = Self.run((0..<5).map { (Int64($0), 7, 1) })
        #expect(run.calls == 1)
        #expect(run.readings.count == 1)
        #expect(run.readings.first?.frame == 1)
        #expect(run.readings.first?.repeats == 5)
    }

    @Test func `a copy that differs outside the dedup key is decoded and still counted as a repeat`() {
        let run = Self.run([(0, 7, 1), (1, 7, 1), (2, 7, 2), (3, 7, 1)])
        // The third differs in its value only: decoded, compared by sequence, a repeat of the first.
        #expect(run.calls == 2)
        #expect(run.readings.count == 1)
        #expect(run.readings.first?.value == .int(1))
        #expect(run.readings.first?.repeats == 4)
    }

    @Test func `a new sequence and a copy after the window are readings of their own`() {
        // Frame 3 has a new sequence; frame 4 is frame 3 again, 11 s after it was last seen.
        let run = Self.run([(0, 7, 1), (1, 7, 1), (2, 8, 1), (13, 8, 1), (14, 8, 1)])
        #expect(run.calls == 3)
        #expect(run.readings.map(\.frame) == [1, 3, 4])
        #expect(run.readings.map(\.repeats) == [2, 1, 2])
    }

    @Test func `with every repeat listed each copy is decoded`() {
        let run = Self.run((0..<4).map { (Int64($0), 7, 1) }, allRepeats: true)
        #expect(run.calls == 4)
        #expect(run.readings.map(\.frame) == [1, 2, 3, 4])
        #expect(run.readings.allSatisfy { $0.repeats == nil })
    }
}
