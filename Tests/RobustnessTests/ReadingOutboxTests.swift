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
        outbox.drain { emitted.append($0) }
        #expect(emitted.map(\.frame).elementsEqual(0..<5000))
        #expect(outbox.waiting == 101)
        // The held reading is still found by the index it was given.
        outbox.countRepeat(held, at: 9_999_000)
        #expect(outbox.lastSeen(held) == 9_999_000)
        outbox.release(held)
        outbox.drain { emitted.append($0) }
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

    @Test func `an outbox dropped with readings in it frees them`() {
        var outbox: ReadingOutbox? = ReadingOutbox()
        for frame in 0..<300 { outbox!.append(Self.reading(frame), held: frame == 10) }
        var emitted = 0
        outbox!.drain { _ in emitted += 1 }
        #expect(emitted == 10)
        #expect(outbox!.waiting == 290)
        outbox = nil
    }
}
