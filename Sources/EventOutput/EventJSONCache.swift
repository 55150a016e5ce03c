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
/// here each is one copy. A sensor's adverts differ in their readings, bytes that appear in the
/// JSON only as hex: those are kept once as a template, whose hex is written again from each
/// advert's bytes. Keys of up to 94 bytes, in 1,024 slots chosen by a hash of the key; a slot
/// holds the last key that fell to it.
public final class EventJSONCache {
    /// What a key is made from: the same bytes as advertising data and as an HCI packet are two keys.
    enum Part: UInt8 {
        case advertisingData
        /// Advertising data with the bytes shown only as hex zeroed (`EventJSON.zeroVarying`).
        case advertisingTemplate
        case hciPacket
        /// The members of an ATT event up to its attribute (`EventJSON.attHeadKey`).
        case attHead
    }

    /// Where a template's fragment holds the hex of some of its key's bytes.
    struct Hole {
        /// Where the hex digits begin: in the writer while the fragment is made, then in the fragment.
        var output: Int
        /// The bytes' offset in the key, and their count.
        var start: Int
        var count: Int
    }

    /// The holes found while a template is made.
    struct Holes {
        let base: UnsafeMutablePointer<Hole>
        fileprivate(set) var count = 0
        /// More holes than a slot keeps: the fragment is not kept as a template.
        fileprivate(set) var overflowed = false

        /// Room for a fragment's holes on the stack, for `body`.
        @inline(__always)
        static func withRoom<Result>(_ body: (inout Holes) -> Result) -> Result {
            withUnsafeTemporaryAllocation(of: Hole.self, capacity: EventJSONCache.holeCapacity) { room in
                var holes = Holes(base: room.baseAddress!)
                return body(&holes)
            }
        }

        mutating func add(output: Int, start: Int, count: Int) {
            guard count > 0 else { return }
            guard self.count < EventJSONCache.holeCapacity else { return overflowed = true }
            base[self.count] = Hole(output: output, start: start, count: count)
            self.count += 1
        }
    }

    /// The longest key kept.
    static let keyCapacity = 94
    static let holeCapacity = 32
    static let slotCount = 1024
    static let slotSize = 768
    /// Each slot: the key (its part and length, then its bytes, zero-padded to whole words), the
    /// fragment's length (0: empty slot) and its number of holes, the holes (offset in the
    /// fragment, then offset and count in the key, 16 bits each) and the fragment.
    static let keyArea = 96
    static let holesOffset = keyArea + 4
    static let fragmentOffset = holesOffset + 6 * holeCapacity
    static let fragmentCapacity = slotSize - fragmentOffset

    private let slots: UnsafeMutableRawPointer
    /// Parts written from a slot, as kept or through a template.
    @exclusivity(unchecked) public private(set) var hits = 0

    public init() {
        // Zeroed by the kernel as each page is first touched (calloc of this size maps fresh
        // pages): filling the slots at start-up cost what a small capture's events did.
        slots = calloc(Self.slotCount * Self.slotSize, 1)!
    }

    deinit { free(slots) }

    /// A key as whole words: part, length, bytes, then zeros.
    private struct Key {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let count: Int

        @inline(__always)
        init(_ part: Part, _ bytes: UnsafeRawBufferPointer, _ fill: (UnsafeMutableRawBufferPointer) -> Void = { _ in }) {
            count = (bytes.count + 2 + 7) / 8
            withUnsafeMutableBytes(of: &words) { words in
                words[0] = part.rawValue
                words[1] = UInt8(bytes.count)
                if let source = bytes.baseAddress { (words.baseAddress! + 2).copyMemory(from: source, byteCount: bytes.count) }
                fill(UnsafeMutableRawBufferPointer(rebasing: words[2..<(2 + bytes.count)]))
            }
        }
    }

    /// The slot `key` falls to, and whether it holds that key.
    @inline(__always)
    private func find(_ key: inout Key) -> (slot: UnsafeMutableRawPointer, holdsKey: Bool) {
        withUnsafeBytes(of: &key.words) { words in
            var hash: UInt64 = 0
            for i in 0..<key.count {
                hash = (hash ^ words.load(fromByteOffset: 8 * i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            let slot = slots + Int(truncatingIfNeeded: (hash &* 0xD6E8_FEB8_6659_FD93) >> 54) * Self.slotSize
            let length = slot.load(fromByteOffset: Self.keyArea, as: UInt16.self)
            return (slot, length > 0 && memcmp(slot, words.baseAddress!, 8 * key.count) == 0)
        }
    }

    /// Copies the fragment of `slot`, its holes written from `bytes`.
    @inline(__always)
    private func copy(_ slot: UnsafeMutableRawPointer, holesFrom bytes: UnsafeRawBufferPointer, to w: inout JSONWriter) {
        let length = Int(slot.load(fromByteOffset: Self.keyArea, as: UInt16.self))
        w.rawMembers(UnsafeRawBufferPointer(start: slot + Self.fragmentOffset, count: length))
        let holes = Int(slot.load(fromByteOffset: Self.keyArea + 2, as: UInt16.self))
        let fragment = w.count - length
        for i in 0..<holes {
            let hole = slot + Self.holesOffset + 6 * i
            let start = Int(hole.load(fromByteOffset: 2, as: UInt16.self))
            let count = Int(hole.load(fromByteOffset: 4, as: UInt16.self))
            w.overwriteHex(
                at: fragment + Int(hole.load(as: UInt16.self)),
                with: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
        }
        hits += 1
    }

    /// Keeps what was written from `start` on in `slot` for `key`, with `holes` (offsets in the writer).
    private func keep(_ key: Key, in slot: UnsafeMutableRawPointer, from start: Int, holes: Holes?, _ w: borrowing JSONWriter) {
        w.withBytes { written in
            // Kept without the separating comma: `rawMembers` writes one when it is due.
            var begin = start
            if begin < written.count, written[begin] == UInt8(ascii: ",") { begin += 1 }
            let fragment = UnsafeRawBufferPointer(rebasing: written[begin...])
            guard !fragment.isEmpty, fragment.count <= Self.fragmentCapacity, holes?.overflowed != true else {
                slot.storeBytes(of: 0, toByteOffset: Self.keyArea, as: UInt16.self)
                return
            }
            // The whole key area, so that a shorter key leaves no bytes of a longer one behind.
            withUnsafeBytes(of: key.words) { slot.copyMemory(from: $0.baseAddress!, byteCount: Self.keyArea) }
            slot.storeBytes(of: UInt16(fragment.count), toByteOffset: Self.keyArea, as: UInt16.self)
            slot.storeBytes(of: UInt16(holes?.count ?? 0), toByteOffset: Self.keyArea + 2, as: UInt16.self)
            for i in 0..<(holes?.count ?? 0) {
                let hole = holes!.base[i]
                let place = slot + Self.holesOffset + 6 * i
                place.storeBytes(of: UInt16(hole.output - begin), as: UInt16.self)
                place.storeBytes(of: UInt16(hole.start), toByteOffset: 2, as: UInt16.self)
                place.storeBytes(of: UInt16(hole.count), toByteOffset: 4, as: UInt16.self)
            }
            (slot + Self.fragmentOffset).copyMemory(from: fragment.baseAddress!, byteCount: fragment.count)
        }
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
        var kept = Key(part, key)
        let (slot, holdsKey) = find(&kept)
        if holdsKey { return copy(slot, holesFrom: key, to: &w) }
        let start = w.count
        make(key, &w)
        keep(kept, in: slot, from: start, holes: nil, w)
    }

    /// An advert's data: as it is, else through its template (the data with what `zeroVarying`
    /// zeroes, bytes `make` writes only as hex, whose places it gives as holes), else made; kept
    /// both ways.
    @inline(__always)
    func write(
        _ data: AdvertisingData, to w: inout JSONWriter, zeroVarying: (UnsafeMutableRawBufferPointer) -> Void,
        _ make: (UnsafeRawBufferPointer, inout JSONWriter, inout Holes) -> Void
    ) {
        data.withUnsafeBytes { bytes in
            guard bytes.count <= Self.keyCapacity else {
                return Holes.withRoom { make(bytes, &w, &$0) }
            }
            var exact = Key(.advertisingData, bytes)
            let (exactSlot, holdsData) = find(&exact)
            if holdsData { return copy(exactSlot, holesFrom: bytes, to: &w) }
            var template = Key(.advertisingTemplate, bytes, zeroVarying)
            let (templateSlot, holdsTemplate) = find(&template)
            if holdsTemplate {
                // Kept as it is too: a device that repeats its advert is then one copy.
                let start = w.count
                copy(templateSlot, holesFrom: bytes, to: &w)
                return keep(exact, in: exactSlot, from: start, holes: nil, w)
            }
            Holes.withRoom { holes in
                let start = w.count
                make(bytes, &w, &holes)
                keep(exact, in: exactSlot, from: start, holes: nil, w)
                keep(template, in: templateSlot, from: start, holes: holes, w)
            }
        }
    }
}

/// The cache's name before it kept more than adverts.
@available(*, deprecated, renamed: "EventJSONCache")
public typealias AdvertisingJSONCache = EventJSONCache
