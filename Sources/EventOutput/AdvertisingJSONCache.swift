import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON of recent advertising data, by its bytes. A device sends the same advert again and
/// again, and writing its AD list and the fields lifted from it was two fifths of writing an
/// event stream; from here it is one copy. Legacy-sized data only (up to 31 bytes), in 1,024 slots
/// chosen by a hash of the bytes; a slot holds the last data that fell to it.
public final class AdvertisingJSONCache {
    static let slotCount = 1024
    static let slotSize = 512
    /// Each slot: the key (the data's length, then the data, zero-padded to 32 bytes), the
    /// fragment's length (0: empty slot) and the fragment.
    static let fragmentOffset = 34
    static let fragmentCapacity = slotSize - fragmentOffset

    private let slots: UnsafeMutableRawPointer
    /// Adverts written from a slot.
    @exclusivity(unchecked) public private(set) var hits = 0

    public init() {
        // Zeroed by the kernel as each page is first touched (calloc of this size maps fresh
        // pages): filling the half megabyte at start-up cost what a small capture's events did.
        slots = calloc(Self.slotCount * Self.slotSize, 1)!
    }

    deinit { free(slots) }

    /// Writes what `make` writes for `data` (members of the open object, after a separating
    /// comma when one is due): copied from its slot when the slot holds this data, else made
    /// and kept there.
    @inline(__always)
    func write(
        _ data: UnsafeRawBufferPointer, to w: inout JSONWriter,
        _ make: (UnsafeRawBufferPointer, inout JSONWriter) -> Void
    ) {
        guard data.count <= 31 else { return make(data, &w) }
        var key: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &key) { key in
            key[0] = UInt8(data.count)
            if let source = data.baseAddress { (key.baseAddress! + 1).copyMemory(from: source, byteCount: data.count) }
        }
        let hash =
            (key.0 &* 0x9E37_79B9_7F4A_7C15) ^ (key.1 &* 0xC2B2_AE3D_27D4_EB4F) ^ (key.2 &* 0x1656_67B1_9E37_79F9)
            ^ (key.3 &* 0xD6E8_FEB8_6659_FD93)
        let slot = slots + Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 54) * Self.slotSize
        let length = Int(slot.load(fromByteOffset: 32, as: UInt16.self))
        if length > 0, slot.load(as: UInt64.self) == key.0, slot.load(fromByteOffset: 8, as: UInt64.self) == key.1,
            slot.load(fromByteOffset: 16, as: UInt64.self) == key.2, slot.load(fromByteOffset: 24, as: UInt64.self) == key.3
        {
            w.rawMembers(UnsafeRawBufferPointer(start: slot + Self.fragmentOffset, count: length))
            hits += 1
            return
        }
        let start = w.count
        make(data, &w)
        w.withBytes { written in
            // Kept without the separating comma: `rawMembers` writes one when it is due.
            var fragment = UnsafeRawBufferPointer(rebasing: written[start...])
            if fragment.first == UInt8(ascii: ",") { fragment = UnsafeRawBufferPointer(rebasing: fragment.dropFirst()) }
            guard !fragment.isEmpty, fragment.count <= Self.fragmentCapacity else {
                slot.storeBytes(of: 0, toByteOffset: 32, as: UInt16.self)
                return
            }
            withUnsafeBytes(of: key) { slot.copyMemory(from: $0.baseAddress!, byteCount: 32) }
            slot.storeBytes(of: UInt16(fragment.count), toByteOffset: 32, as: UInt16.self)
            (slot + Self.fragmentOffset).copyMemory(from: fragment.baseAddress!, byteCount: fragment.count)
        }
    }
}
