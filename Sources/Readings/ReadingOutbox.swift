import PayloadDecoders

/// Readings wait here while an earlier one is held for its repeat count, so output stays in order.
///
/// A reading is moved into its slot once and out of it once. (An array of optional readings
/// copied each one in and out several times on the way, each a call to memcpy: a reading is
/// 121 bytes.) Slots `start..<end` hold readings, and `notes` what is known of each beside it.
/// When readings' fields are packed, their bytes in the packer are let go with them.
final class ReadingOutbox {
    // Used by the decoding thread alone.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Reading>
    @exclusivity(unchecked) private var notes: UnsafeMutablePointer<Note>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    /// The index (as `append` answers it) of slot 0.
    @exclusivity(unchecked) private var base = 0
    private let packer: FieldPacker?

    private struct Note {
        /// Held for its repeat count: it and every reading after it wait.
        var held: Bool
        /// The time of its last copy.
        var lastSeen: Int64
        /// Where its fields lie in `packer` (`.none` when they are not packed).
        var span: FieldPacker.Span
    }

    init(capacity: Int = 64, packer: FieldPacker? = nil) {
        self.capacity = capacity
        self.packer = packer
        slots = .allocate(capacity: capacity)
        notes = .allocate(capacity: capacity)
    }

    deinit {
        (slots + start).deinitialize(count: end - start)
        slots.deallocate()
        notes.deallocate()
    }

    @discardableResult
    func append(_ reading: consuming Reading, span: FieldPacker.Span = .none, held: Bool = false) -> Int {
        if end == capacity { grow() }
        (notes + end).initialize(to: Note(held: held, lastSeen: reading.timestamp, span: span))
        (slots + end).initialize(to: reading)
        end += 1
        return base + end - 1
    }

    /// Readings not handed over yet.
    var waiting: Int { end - start }

    func countRepeat(_ index: Int, at timestamp: Int64) {
        let i = index - base
        guard i >= start, i < end else { return }
        slots[i].repeats = (slots[i].repeats ?? 1) + 1
        notes[i].lastSeen = timestamp
    }

    func lastSeen(_ index: Int) -> Int64 {
        let i = index - base
        return i >= start && i < end ? notes[i].lastSeen : .min
    }

    /// Where the fields of a reading still waiting lie.
    func span(_ index: Int) -> FieldPacker.Span {
        let i = index - base
        return i >= start && i < end ? notes[i].span : .none
    }

    func release(_ index: Int) {
        let i = index - base
        if i >= start, i < end { notes[i].held = false }
    }

    /// Hands over the readings up to the first one held, each with where its fields lie.
    func drain(_ emit: (consuming Reading, FieldPacker.Span) -> Void) {
        while start < end, !notes[start].held {
            emit((slots + start).move(), notes[start].span)
            start += 1
        }
        if start == end {
            base += end
            start = 0
            end = 0
            packer?.removeAll()
        } else if start > 4096, start * 2 > end {
            // A reading held for its repeat count keeps the outbox from ever emptying on a
            // busy capture; drop the emitted prefix so memory follows the held window, not the file.
            slots.moveInitialize(from: slots + start, count: end - start)
            notes.moveInitialize(from: notes + start, count: end - start)
            base += start
            end -= start
            start = 0
            if let packer { dropPackedBefore(packer) }
        }
    }

    /// Lets go of the packed bytes before the first waiting reading's; the spans move with them.
    private func dropPackedBefore(_ packer: FieldPacker) {
        var first = packer.count
        for i in 0..<end where !notes[i].span.isNone {
            first = notes[i].span.start
            break
        }
        guard first > 0 else { return }
        packer.removeFirst(first)
        for i in 0..<end where !notes[i].span.isNone {
            notes[i].span.start -= first
            notes[i].span.end -= first
        }
    }

    private func grow() {
        capacity *= 2
        let largerSlots = UnsafeMutablePointer<Reading>.allocate(capacity: capacity)
        let largerNotes = UnsafeMutablePointer<Note>.allocate(capacity: capacity)
        (largerSlots + start).moveInitialize(from: slots + start, count: end - start)
        (largerNotes + start).moveInitialize(from: notes + start, count: end - start)
        slots.deallocate()
        notes.deallocate()
        slots = largerSlots
        notes = largerNotes
    }
}
