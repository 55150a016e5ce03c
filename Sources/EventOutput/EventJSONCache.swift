import BluetoothPackets
import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON of the parts of events that repeat, by what they are made from. A device sends the
/// same advert again and again, a controller the same flow-control event (Number Of Completed
/// Packets) for each packet it sends, and a connection's notifications differ from the last one
/// on that handle only in their value: writing an advert's AD list and the fields lifted from it
/// was two fifths of writing an event stream, an HCI event's decoded parameters took thousands of
/// instructions, and an ATT event's connection, operation and attribute most of its line; from
/// here each is one copy. Keys of up to 94 bytes, in 1,024 slots chosen by a hash of the key; a
/// slot holds the last key that fell to it.
public final class EventJSONCache {
    /// What a key is made from: the same bytes as advertising data and as an HCI packet are two keys.
    enum Part: UInt8 {
        case advertisingData
        case hciPacket
        /// The members of an ATT event up to its attribute (`EventJSON.attHeadKey`).
        case attHead
    }

    /// The longest key kept.
    static let keyCapacity = 94
    static let slotCount = 1024
    static let slotSize = 640
    /// Each slot: the key (its part and length, then its bytes, zero-padded to whole words), the
    /// fragment's length (0: empty slot) and the fragment.
    static let keyArea = 96
    static let fragmentOffset = keyArea + 2
    static let fragmentCapacity = slotSize - fragmentOffset

    private let slots: UnsafeMutableRawPointer
    /// Parts written from a slot.
    @exclusivity(unchecked) public private(set) var hits = 0

    public init() {
        // Zeroed by the kernel as each page is first touched (calloc of this size maps fresh
        // pages): filling the slots at start-up cost what a small capture's events did.
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
        // The key as whole words: part, length, bytes, then zeros.
        let words = (key.count + 2 + 7) / 8
        var padded = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                      UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        // The slot to fill, or nil when it held this key and was written.
        let slot = withUnsafeMutableBytes(of: &padded) { padded -> UnsafeMutableRawPointer? in
            padded[0] = part.rawValue
            padded[1] = UInt8(key.count)
            if let source = key.baseAddress { (padded.baseAddress! + 2).copyMemory(from: source, byteCount: key.count) }
            var hash: UInt64 = 0
            for i in 0..<words {
                hash = (hash ^ padded.load(fromByteOffset: 8 * i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            let slot = slots + Int(truncatingIfNeeded: (hash &* 0xD6E8_FEB8_6659_FD93) >> 54) * Self.slotSize
            let length = Int(slot.load(fromByteOffset: Self.keyArea, as: UInt16.self))
            guard length > 0, memcmp(slot, padded.baseAddress!, 8 * words) == 0 else { return slot }
            w.rawMembers(UnsafeRawBufferPointer(start: slot + Self.fragmentOffset, count: length))
            return nil
        }
        guard let slot else {
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
                slot.storeBytes(of: 0, toByteOffset: Self.keyArea, as: UInt16.self)
                return
            }
            // The whole key area, so that a shorter key leaves no bytes of a longer one behind.
            withUnsafeBytes(of: padded) { slot.copyMemory(from: $0.baseAddress!, byteCount: Self.keyArea) }
            slot.storeBytes(of: UInt16(fragment.count), toByteOffset: Self.keyArea, as: UInt16.self)
            (slot + Self.fragmentOffset).copyMemory(from: fragment.baseAddress!, byteCount: fragment.count)
        }
    }
}
