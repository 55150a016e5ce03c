import BluetoothPackets
import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON of the parts of events that repeat, by the bytes they are made from. A device sends
/// the same advert again and again, and a controller the same flow-control event (Number Of
/// Completed Packets) for each packet it sends: writing an advert's AD list and the fields lifted
/// from it was two fifths of writing an event stream, and an HCI event's decoded parameters took
/// thousands of instructions; from here each is one copy. Keys of up to 31 bytes, in 1,024 slots
/// chosen by a hash of the key; a slot holds the last key that fell to it.
public final class EventJSONCache {
    /// What a key is made from: the same bytes as advertising data and as an HCI event are two keys.
    enum Part: UInt8 {
        case advertisingData
        case hciPacket
    }

    /// The longest key kept.
    static let keyCapacity = 31
    static let slotCount = 1024
    static let slotSize = 512
    /// Each slot: the key (its part and length in one byte, then its bytes, zero-padded to 32
    /// bytes), the fragment's length (0: empty slot) and the fragment.
    static let fragmentOffset = 34
    static let fragmentCapacity = slotSize - fragmentOffset

    private let slots: UnsafeMutableRawPointer
    /// Parts written from a slot.
    @exclusivity(unchecked) public private(set) var hits = 0

    public init() {
        // Zeroed by the kernel as each page is first touched (calloc of this size maps fresh
        // pages): filling the half megabyte at start-up cost what a small capture's events did.
        slots = calloc(Self.slotCount * Self.slotSize, 1)!
    }

    deinit { free(slots) }

    /// An advert's data (read here, where `self` needs no retain to be used).
    @inline(__always)
    func write(
        _ data: AdvertisingData, to w: inout JSONWriter, _ make: (UnsafeRawBufferPointer, inout JSONWriter) -> Void
    ) {
        data.withUnsafeBytes { write($0, as: .advertisingData, to: &w, make) }
    }

    /// Writes what `make` writes for `key` (members of the open object, after a separating comma
    /// when one is due): copied from its slot when the slot holds this key, else made and kept
    /// there. `make` is given the key; a key longer than `keyCapacity` is always made.
    @inline(__always)
    func write(
        _ key: UnsafeRawBufferPointer, as part: Part, to w: inout JSONWriter,
        _ make: (UnsafeRawBufferPointer, inout JSONWriter) -> Void
    ) {
        guard key.count <= Self.keyCapacity else { return make(key, &w) }
        var padded: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &padded) { padded in
            padded[0] = UInt8(key.count) | part.rawValue << 5
            if let source = key.baseAddress { (padded.baseAddress! + 1).copyMemory(from: source, byteCount: key.count) }
        }
        let hash =
            (padded.0 &* 0x9E37_79B9_7F4A_7C15) ^ (padded.1 &* 0xC2B2_AE3D_27D4_EB4F)
            ^ (padded.2 &* 0x1656_67B1_9E37_79F9) ^ (padded.3 &* 0xD6E8_FEB8_6659_FD93)
        let slot = slots + Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 54) * Self.slotSize
        let length = Int(slot.load(fromByteOffset: 32, as: UInt16.self))
        if length > 0, slot.load(as: UInt64.self) == padded.0, slot.load(fromByteOffset: 8, as: UInt64.self) == padded.1,
            slot.load(fromByteOffset: 16, as: UInt64.self) == padded.2,
            slot.load(fromByteOffset: 24, as: UInt64.self) == padded.3
        {
            w.rawMembers(UnsafeRawBufferPointer(start: slot + Self.fragmentOffset, count: length))
            hits += 1
            return
        }
        let start = w.count
        make(key, &w)
        w.withBytes { written in
            // Kept without the separating comma: `rawMembers` writes one when it is due.
            var fragment = UnsafeRawBufferPointer(rebasing: written[start...])
            if fragment.first == UInt8(ascii: ",") { fragment = UnsafeRawBufferPointer(rebasing: fragment.dropFirst()) }
            guard !fragment.isEmpty, fragment.count <= Self.fragmentCapacity else {
                slot.storeBytes(of: 0, toByteOffset: 32, as: UInt16.self)
                return
            }
            withUnsafeBytes(of: padded) { slot.copyMemory(from: $0.baseAddress!, byteCount: 32) }
            slot.storeBytes(of: UInt16(fragment.count), toByteOffset: 32, as: UInt16.self)
            (slot + Self.fragmentOffset).copyMemory(from: fragment.baseAddress!, byteCount: fragment.count)
        }
    }
}
