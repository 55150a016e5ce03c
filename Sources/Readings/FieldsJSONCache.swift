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
    static let slotCount = 1024
    static let slotSize = 1024
    /// Each slot: the key's length (UInt16, 0: empty slot), the JSON's length (UInt16), the
    /// field count (UInt32), then the key and the JSON, one after the other.
    static let headerSize = 8
    static let capacity = slotSize - headerSize

    private let slots: UnsafeMutableRawPointer
    /// Fields written from a slot.
    @exclusivity(unchecked) private(set) var hits = 0
    /// Who filled the slots: a number `takeOver` gave.
    @exclusivity(unchecked) private(set) var owner = 0

    init() {
        slots = .allocate(byteCount: Self.slotCount * Self.slotSize, alignment: 16)
        removeAll()
    }

    deinit { slots.deallocate() }

    /// Empties the slots for a new owner, and gives its number.
    func takeOver() -> Int {
        removeAll()
        owner += 1
        return owner
    }

    /// Forgets every fields' JSON.
    private func removeAll() {
        for slot in 0..<Self.slotCount { slots.storeBytes(of: 0, toByteOffset: slot * Self.slotSize, as: UInt16.self) }
    }

    /// Writes the JSON object `make` writes for `count` fields packed as `bytes`: copied from its
    /// slot when the slot holds these bytes, else made and kept there.
    @inline(__always)
    func write(
        _ bytes: UnsafeRawBufferPointer, count: Int, to w: inout JSONWriter, _ make: (inout JSONWriter) -> Void
    ) {
        guard let key = bytes.baseAddress, bytes.count > 0, bytes.count < Self.capacity, count <= Int(UInt32.max)
        else { return make(&w) }
        let slot = slots + Self.slotIndex(key, bytes.count) * Self.slotSize
        let keyLength = Int(slot.load(as: UInt16.self))
        if keyLength == bytes.count, slot.load(fromByteOffset: 4, as: UInt32.self) == UInt32(count),
            Self.equal(UnsafeRawPointer(slot + Self.headerSize), key, keyLength)
        {
            let jsonLength = Int(slot.load(fromByteOffset: 2, as: UInt16.self))
            w.rawJSON(UnsafeRawBufferPointer(start: slot + Self.headerSize + keyLength, count: jsonLength))
            hits += 1
            return
        }
        let start = w.count
        make(&w)
        w.withBytes { written in
            // Kept without a separating comma: `rawJSON` writes one when it is due.
            var json = UnsafeRawBufferPointer(rebasing: written[start...])
            if json.first == UInt8(ascii: ",") { json = UnsafeRawBufferPointer(rebasing: json.dropFirst()) }
            guard bytes.count + json.count <= Self.capacity else {
                slot.storeBytes(of: 0, as: UInt16.self)
                return
            }
            slot.storeBytes(of: UInt16(bytes.count), as: UInt16.self)
            slot.storeBytes(of: UInt16(json.count), toByteOffset: 2, as: UInt16.self)
            slot.storeBytes(of: UInt32(count), toByteOffset: 4, as: UInt32.self)
            (slot + Self.headerSize).copyMemory(from: key, byteCount: bytes.count)
            (slot + Self.headerSize + bytes.count).copyMemory(from: json.baseAddress!, byteCount: json.count)
        }
    }

    /// Whether `count` bytes at `a` and `b` are the same, eight at a time.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    /// A slot for the bytes: all of them (a probe's temperatures lie in the middle of its
    /// fields), eight at a time, the last word read back from the end, overlapping.
    @inline(__always)
    private static func slotIndex(_ key: UnsafeRawPointer, _ length: Int) -> Int {
        var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                hash = (hash ^ key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xC2B2_AE3D_27D4_EB4F
                hash ^= hash >> 29
                offset += 8
            }
            hash = (hash ^ key.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) &* 0xD6E8_FEB8_6659_FD93
        } else {
            var word: UInt64 = 0
            for index in 0..<length { word = word << 8 | UInt64(key.load(fromByteOffset: index, as: UInt8.self)) }
            hash = (hash ^ word) &* 0xC2B2_AE3D_27D4_EB4F
        }
        return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 54)
    }
}
