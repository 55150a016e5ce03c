/// Bytes kept by other bytes: the last value stored under a key, in slots chosen by a hash of the
/// key, each holding the last key that fell to it (when key and value fit). For output made
/// again and again from the same input: a device repeats its payloads, and what was made from
/// one is copied instead of made again. Used by one thread at a time.
final class ByteCache {
    let slotCount: Int
    let slotSize: Int
    /// Each slot: the key's length (UInt16, 0: empty), the value's length (UInt16), the tag
    /// (UInt32, compared with the key), then the key and the value, one after the other.
    static let headerSize = 8
    private let shift: UInt64
    private let slots: UnsafeMutableRawPointer
    /// Values found.
    @exclusivity(unchecked) private(set) var hits = 0

    /// `slotCount`: a power of two.
    init(slotCount: Int, slotSize: Int) {
        precondition(slotCount > 1 && slotCount & (slotCount - 1) == 0 && slotSize > Self.headerSize)
        self.slotCount = slotCount
        self.slotSize = slotSize
        shift = UInt64(64 - slotCount.trailingZeroBitCount)
        slots = .allocate(byteCount: slotCount * slotSize, alignment: 16)
        removeAll()
    }

    deinit { slots.deallocate() }

    func removeAll() {
        for slot in 0..<slotCount { slots.storeBytes(of: 0, toByteOffset: slot * slotSize, as: UInt16.self) }
    }

    /// The slot for `key` and, when it holds `key` with `tag`, the value kept there (valid until
    /// the next `keep`).
    @inline(__always)
    func find(_ key: UnsafeRawBufferPointer, tag: UInt32) -> (slot: Int, value: UnsafeRawBufferPointer?) {
        guard let start = key.baseAddress, key.count > 0, key.count <= slotSize - Self.headerSize else {
            return (-1, nil)
        }
        let slot = index(start, key.count)
        let base = slots + slot * slotSize
        guard Int(base.load(as: UInt16.self)) == key.count, base.load(fromByteOffset: 4, as: UInt32.self) == tag,
            Self.equal(UnsafeRawPointer(base + Self.headerSize), start, key.count)
        else { return (slot, nil) }
        hits += 1
        let length = Int(base.load(fromByteOffset: 2, as: UInt16.self))
        return (slot, UnsafeRawBufferPointer(start: base + Self.headerSize + key.count, count: length))
    }

    /// Keeps `value` under `key` and `tag` in `slot` (from `find`), in place of what was there;
    /// empties the slot when the two do not fit.
    func keep(_ key: UnsafeRawBufferPointer, tag: UInt32, value: UnsafeRawBufferPointer, in slot: Int) {
        guard slot >= 0, let start = key.baseAddress else { return }
        let base = slots + slot * slotSize
        guard key.count + value.count <= slotSize - Self.headerSize else {
            base.storeBytes(of: 0, as: UInt16.self)
            return
        }
        base.storeBytes(of: UInt16(key.count), as: UInt16.self)
        base.storeBytes(of: UInt16(value.count), toByteOffset: 2, as: UInt16.self)
        base.storeBytes(of: tag, toByteOffset: 4, as: UInt32.self)
        (base + Self.headerSize).copyMemory(from: start, byteCount: key.count)
        if let bytes = value.baseAddress {
            (base + Self.headerSize + key.count).copyMemory(from: bytes, byteCount: value.count)
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

    /// A slot for the key: all of its bytes (what differs may lie anywhere: a probe's
    /// temperatures in the middle of its fields), eight at a time, the last word read back from
    /// the end, overlapping.
    @inline(__always)
    private func index(_ key: UnsafeRawPointer, _ length: Int) -> Int {
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
        return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
