import PayloadDecoders
@testable import Readings
import Testing

/// The outbox keeps readings in their slots while one ahead of them is held for its repeats:
/// each reading leaves once, in order, with what was counted on it while it waited.
struct ReadingOutboxTests {
    static func reading(_ frame: Int) -> Reading {
        // A text made at run time, so that a reading left behind or freed twice shows.
        Reading(
            frame: frame, timestamp: Int64(frame) * 1000, address: nil, decoder: "test.outbox", source: "adv",
            match: .company(0xFFF0), outcome: .fields([Field("label", .string("reading number \(frame)"))]))
    }

    @Test func `readings behind a held one wait past a compaction and leave in order`() {
        let outbox = ReadingOutbox()
        var emitted: [Reading] = []
        for frame in 0..<5000 { outbox.append(Self.reading(frame)) }
        let held = outbox.append(Self.reading(5000), held: true)
        for frame in 5001..<5101 { outbox.append(Self.reading(frame)) }
        // Out go the 5000 ahead of the held one; the 101 left move to the front of the slots.
        outbox.drain { reading, _ in emitted.append(reading) }
        #expect(emitted.map(\.frame).elementsEqual(0..<5000))
        #expect(outbox.waiting == 101)
        // The held reading is still found by the index it was given.
        outbox.countRepeat(held, at: 9_999_000)
        #expect(outbox.lastSeen(held) == 9_999_000)
        outbox.release(held)
        outbox.drain { reading, _ in emitted.append(reading) }
        #expect(emitted.map(\.frame).elementsEqual(0..<5101))
        #expect(emitted[5000].repeats == 2)
        #expect(emitted[5001].repeats == nil)
        guard case .fields(let fields) = emitted[5100].outcome else {
            Issue.record("no fields")
            return
        }
        #expect(fields["label"] == .string("reading number 5100"))
        #expect(outbox.waiting == 0)
        // Indices go on counting after the outbox has emptied.
        #expect(outbox.append(Self.reading(5101)) == 5101)
        #expect(outbox.lastSeen(held) == .min)
    }

    @Test func `packed fields go with their readings when the outbox lets go of what has left`() {
        let packer = FieldPacker()
        let outbox = ReadingOutbox(packer: packer)
        @discardableResult
        func add(_ frame: Int, held: Bool = false) -> Int {
            packer.beginOutcome(row: 0)
            packer.append("frame", .int(Int64(frame)))
            packer.append("label", .string("reading number \(frame)"))
            let reading = Reading(
                frame: frame, timestamp: Int64(frame) * 1000, address: nil, decoder: "test.outbox", source: "adv",
                match: .company(0xFFF0), outcome: .fields(Fields()))
            return outbox.append(reading, span: packer.endOutcome(), held: held)
        }
        for frame in 0..<5000 { add(frame) }
        let held = add(5000, held: true)
        for frame in 5001..<5101 { add(frame) }
        let bytesOfAll = packer.count
        var mismatches = 0
        func check(_ reading: consuming Reading, _ span: FieldPacker.Span) {
            if packer.value(named: "frame", in: span) != .int(Int64(reading.frame)) { mismatches += 1 }
        }
        outbox.drain(check)
        // The bytes of the 5000 gone are let go; those of the 101 waiting are still theirs.
        #expect(packer.count * 40 < bytesOfAll)
        #expect(packer.value(named: "label", in: outbox.span(held)) == .string("reading number 5000"))
        outbox.release(held)
        outbox.drain(check)
        #expect(mismatches == 0)
        #expect(outbox.waiting == 0)
        // Empty, the outbox lets go of every byte.
        #expect(packer.count == 0)
    }

    @Test func `an outbox dropped with readings in it frees them`() {
        var outbox: ReadingOutbox? = ReadingOutbox()
        for frame in 0..<300 { outbox!.append(Self.reading(frame), held: frame == 10) }
        var emitted = 0
        outbox!.drain { _, _ in emitted += 1 }
        #expect(emitted == 10)
        #expect(outbox!.waiting == 290)
        outbox = nil
    }
}
