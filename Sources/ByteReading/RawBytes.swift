/// Helpers for the growable byte buffers packed readings and packed fields are written into.
public enum RawBytes {
    /// Copies `count` bytes. Most pieces written are a few bytes long (names, ids, values): a
    /// loop over them beats a call to memcpy; longer ones go to memcpy.
    @inlinable @inline(__always)
    public static func copy(_ count: Int, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
        if count <= 32 {
            for i in 0..<count {
                target.storeBytes(of: source.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            }
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
    }

    /// Memory for at least `needed` bytes, `capacity` doubled until it is enough, holding the
    /// first `used` bytes of `base`, which is freed.
    public static func grow(
        _ base: UnsafeMutableRawPointer, used: Int, capacity: inout Int, needed: Int
    ) -> UnsafeMutableRawPointer {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newBase.copyMemory(from: base, byteCount: used)
        base.deallocate()
        capacity = newCapacity
        return newBase
    }
}
