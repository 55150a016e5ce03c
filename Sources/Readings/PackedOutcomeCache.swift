import BluetoothPackets
import PayloadDecoders

/// The fields each decoder packed for recent payloads, by the payload. Decoders are pure (the
/// decoder contract): the same payload from the same device gives the same fields, so a payload
/// a device repeats (a probe between temperature changes, a heart rate monitor's beats) has its
/// fields copied where the decoder would read it again. Only for decoders that look at nothing
/// but the payload's source, bytes and address (`readsAdvertisingContext` false), and only
/// fields: errors and payloads a decoder passes on are decoded each time.
///
/// The packed bytes name fields by the packer's numbers, which stand for the same names for
/// the packer's whole life: a cache serves one packer (one pipeline).
///
/// A decoder whose payloads do not repeat (a beacon's counter, BTHome's packet id) would only
/// pay for a lookup and a copy each: one that finds fewer than one in eight in a window of
/// 1,024 is passed over for the next 16,384 of its payloads, then tried again.
final class PackedOutcomeCache {
    /// Keys: the payload (`keyHeader` bytes of source and address, then its bytes), tagged with
    /// the decoder's place; values: the field count (UInt32), then the packed fields.
    private let cache = ByteCache(slotCount: 1024, slotSize: 512)
    static let keyHeader = 32
    /// Longer payloads are decoded each time.
    static let longestPayload = 256
    private let key: UnsafeMutableRawPointer
    /// The key `restore` made last: its length, and the slot it falls to (-1: none).
    @exclusivity(unchecked) private var keyLength = 0
    @exclusivity(unchecked) private var slot = -1
    /// Payloads whose fields were copied.
    var hits: Int { cache.hits }
    /// Per decoder: lookups and finds in its window, and payloads left to pass over.
    @exclusivity(unchecked) private var windows: [Window]
    private struct Window {
        var lookups: Int32 = 0
        var found: Int32 = 0
        var resting: Int32 = 0
    }
    private let window: Int32
    private let rest: Int32

    /// `decoders`: how many there are (their places are 0 up to it). `window` and `rest`: the
    /// lookups a decoder's finds are counted over, and the payloads it is then passed over for.
    init(decoders: Int, window: Int32 = 1024, rest: Int32 = 16_384) {
        key = .allocate(byteCount: Self.keyHeader + Self.longestPayload, alignment: 8)
        windows = Array(repeating: Window(), count: decoders)
        self.window = window
        self.rest = rest
    }

    deinit { key.deallocate() }

    /// Packs into `packer` (after its `beginOutcome`) the fields decoder `decoder` packed for
    /// this payload lately, if it did, and says whether it did. Else the payload is remembered
    /// for `keep`.
    @inline(__always)
    func restore(decoder: Int, _ payload: borrowing Payload, into packer: FieldPacker) -> Bool {
        slot = -1
        guard payload.bytes.count <= Self.longestPayload, worthLooking(decoder) else { return false }
        makeKey(payload)
        let (found, kept) = cache.find(UnsafeRawBufferPointer(start: key, count: keyLength), tag: UInt32(decoder))
        slot = found
        guard let kept else { return false }
        windows[decoder].found += 1
        packer.appendPacked(
            UnsafeRawBufferPointer(rebasing: kept[4...]), fields: Int(kept.loadUnaligned(as: UInt32.self)))
        return true
    }

    /// Whether to look for the decoder's payload: counts the lookup in its window, and rests a
    /// decoder that found too few in the last.
    @inline(__always)
    private func worthLooking(_ decoder: Int) -> Bool {
        if windows[decoder].lookups == window {
            if windows[decoder].found < window / 8 { windows[decoder].resting = rest }
            windows[decoder].lookups = 0
            windows[decoder].found = 0
        }
        if windows[decoder].resting > 0 {
            windows[decoder].resting -= 1
            return false
        }
        windows[decoder].lookups += 1
        return true
    }

    /// Keeps the fields `decoder` packed (`span`, in `packer`) for the payload `restore` was
    /// last asked about.
    func keep(decoder: Int, _ span: FieldPacker.Span, in packer: FieldPacker) {
        guard slot >= 0, let fields = UInt32(exactly: span.fields) else { return }
        let bytes = packer.bytes(span)
        withUnsafeTemporaryAllocation(byteCount: 4 + bytes.count, alignment: 4) { value in
            value.storeBytes(of: fields, as: UInt32.self)
            if let start = bytes.baseAddress { (value.baseAddress! + 4).copyMemory(from: start, byteCount: bytes.count) }
            cache.keep(
                UnsafeRawBufferPointer(start: key, count: keyLength), tag: UInt32(decoder),
                value: UnsafeRawBufferPointer(value), in: slot)
        }
    }

    /// The address, the source (what kind, its company or UUID, the operation), then the bytes.
    private func makeKey(_ payload: borrowing Payload) {
        key.storeBytes(of: payload.context.address?.value ?? .max, as: UInt64.self)
        var kind: UInt8
        var operation: UInt8 = 0
        var uuid = BluetoothUUID(high: 0, low: 0)
        switch payload.source {
        case .manufacturerData(let company):
            kind = 0
            uuid.low = UInt64(company)
        case .serviceData(let serviceUUID):
            kind = 1
            uuid = serviceUUID
        case .attribute(let characteristic, let valueOperation):
            kind = 2
            uuid = characteristic
            switch valueOperation {
            case .notify: operation = 0
            case .indicate: operation = 1
            case .read: operation = 2
            case .write: operation = 3
            }
        }
        key.storeBytes(of: uuid.high, toByteOffset: 8, as: UInt64.self)
        key.storeBytes(of: uuid.low, toByteOffset: 16, as: UInt64.self)
        key.storeBytes(of: UInt64(kind) | UInt64(operation) << 8, toByteOffset: 24, as: UInt64.self)
        payload.bytes.withUnsafeBytes { bytes in
            if let start = bytes.baseAddress { (key + Self.keyHeader).copyMemory(from: start, byteCount: bytes.count) }
        }
        keyLength = Self.keyHeader + payload.bytes.count
    }
}
