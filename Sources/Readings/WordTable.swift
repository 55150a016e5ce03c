/// A small hash table keyed by a non-zero 64-bit word: open addressing, linear probing, a
/// multiplicative hash. The pipeline looks up a held reading by device and decoder for every
/// payload of a decoder that de-duplicates; a Dictionary hashed each key with SipHash, several
/// times the cost of finding it. A class over its own memory, so that a value is read where it
/// lies: through a struct held by the pipeline, the table (or the value) was copied for a look.
/// Used by one thread at a time.
final class WordTable<Value> {
    /// 0 marks an empty slot; a slot's value is initialized only while its key is not 0.
    // One thread at a time: no access is checked at run time.
    @exclusivity(unchecked) private var keys: UnsafeMutablePointer<UInt64>
    @exclusivity(unchecked) private var values: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var size: Int
    @exclusivity(unchecked) private var shift: UInt64
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int = 64) {
        size = 8
        while size < capacity * 2 { size *= 2 }
        keys = .allocate(capacity: size)
        keys.initialize(repeating: 0, count: size)
        values = .allocate(capacity: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    deinit {
        removeAll()
        keys.deallocate()
        values.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The slot holding `key`, if it is in the table.
    @inline(__always)
    func slot(of key: UInt64) -> Int? {
        precondition(key != 0)
        var slot = home(key)
        while true {
            let found = keys[slot]
            if found == key { return slot }
            if found == 0 { return nil }
            slot = (slot + 1) & (size - 1)
        }
    }

    /// The value in a slot `slot(of:)` gave, where it lies.
    subscript(slot slot: Int) -> Value {
        unsafeAddress { UnsafePointer(values + slot) }
        unsafeMutableAddress { values + slot }
    }

    /// Puts `value` under `key`, in place of one there.
    func set(_ key: UInt64, _ value: consuming Value) {
        if let slot = slot(of: key) {
            values[slot] = value
            return
        }
        if (count + 1) * 2 > size { grow() }
        var slot = home(key)
        while keys[slot] != 0 { slot = (slot + 1) & (size - 1) }
        keys[slot] = key
        (values + slot).initialize(to: value)
        count += 1
    }

    /// Takes `key` out; what followed it in its run moves back, so no slot is left marked.
    func remove(_ key: UInt64) {
        guard var hole = slot(of: key) else { return }
        keys[hole] = 0
        (values + hole).deinitialize(count: 1)
        count -= 1
        var next = (hole + 1) & (size - 1)
        while keys[next] != 0 {
            let wanted = home(keys[next])
            // The entry at `next` may fill the hole when its home is not in (hole, next].
            let movable = hole <= next ? (wanted <= hole || wanted > next) : (wanted <= hole && wanted > next)
            if movable {
                keys[hole] = keys[next]
                keys[next] = 0
                (values + hole).moveInitialize(from: values + next, count: 1)
                hole = next
            }
            next = (next + 1) & (size - 1)
        }
    }

    func removeAll() {
        for slot in 0..<size where keys[slot] != 0 {
            keys[slot] = 0
            (values + slot).deinitialize(count: 1)
        }
        count = 0
    }

    /// Every key and value, in no particular order.
    func forEach(_ body: (UInt64, borrowing Value) -> Void) {
        for slot in 0..<size where keys[slot] != 0 { body(keys[slot], values[slot]) }
    }

    private func grow() {
        let (oldKeys, oldValues, oldSize) = (keys, values, size)
        size *= 2
        shift -= 1
        keys = .allocate(capacity: size)
        keys.initialize(repeating: 0, count: size)
        values = .allocate(capacity: size)
        count = 0
        for slot in 0..<oldSize where oldKeys[slot] != 0 {
            var target = home(oldKeys[slot])
            while keys[target] != 0 { target = (target + 1) & (size - 1) }
            keys[target] = oldKeys[slot]
            (values + target).moveInitialize(from: oldValues + slot, count: 1)
            count += 1
        }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}
