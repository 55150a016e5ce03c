import JSON

/// The JSON object of recently written fields, by their packed bytes. A device sends the same
/// values again and again (a heart rate monitor's beats, a probe's temperatures between changes),
/// and the fields were most of the work of writing a reading; from here they are one copy. In
/// 1,024 slots of a kilobyte chosen by a hash of the bytes, each holding the last fields that
/// fell to it when their bytes and JSON fit in it.
///
/// Packed fields name their fields by number, so the JSON of the same bytes is the same only
/// while the numbers stand for the same names: a writer takes the cache over, emptied, when a
/// number changes its name and when another writer has used it (`PackedReadingJSON`).
final class FieldsJSONCache {
    /// Keys: the fields' packed bytes, tagged with their count; values: their JSON object.
    private let cache = ByteCache(slotCount: 1024, slotSize: 1024)
    /// Fields written from a slot.
    var hits: Int { cache.hits }
    /// Who filled the slots: a number `takeOver` gave.
    @exclusivity(unchecked) private(set) var owner = 0

    /// Empties the slots for a new owner, and gives its number.
    func takeOver() -> Int {
        cache.removeAll()
        owner += 1
        return owner
    }

    /// Writes the JSON object `make` writes for `count` fields packed as `bytes`: copied from its
    /// slot when the slot holds these bytes, else made and kept there.
    @inline(__always)
    func write(
        _ bytes: UnsafeRawBufferPointer, count: Int, to w: inout JSONWriter, _ make: (inout JSONWriter) -> Void
    ) {
        guard let tag = UInt32(exactly: count) else { return make(&w) }
        let (slot, kept) = cache.find(bytes, tag: tag)
        if let kept { return w.rawJSON(kept) }
        let start = w.count
        make(&w)
        w.withBytes { written in
            // Kept without a separating comma: `rawJSON` writes one when it is due.
            var json = UnsafeRawBufferPointer(rebasing: written[start...])
            if json.first == UInt8(ascii: ",") { json = UnsafeRawBufferPointer(rebasing: json.dropFirst()) }
            cache.keep(bytes, tag: tag, value: json, in: slot)
        }
    }
}
