import BluetoothPackets
import PayloadDecoders
import Testing

@testable import Readings

/// `PackedOutcomeCache` gives back a decoder's packed fields for the same payload from the same
/// device, and for nothing else.
struct PackedOutcomeCacheTests {
    static let address = BluetoothAddress(0xC26B_30F9_0EC7)

    static func payload(
        _ bytes: [UInt8], source: PayloadSource = .manufacturerData(company: 0x09C7), address: BluetoothAddress? = address
    ) -> Payload {
        Payload(source, bytes, context: PayloadContext(address: address))
    }

    /// What the cache packs for `payload` as decoder 0 (nil when it has nothing), in a packer of
    /// its own numbering.
    static func restored(_ cache: PackedOutcomeCache, _ payload: Payload, decoder: Int = 0, packer: FieldPacker) -> [UInt8]? {
        packer.beginOutcome(row: decoder)
        defer { packer.discardOutcome() }
        guard cache.restore(decoder: decoder, payload, into: packer) else { return nil }
        let span = packer.endOutcome()
        #expect(span.fields == 2)
        return [UInt8](packer.bytes(span))
    }

    /// Looks the payload up, and on a miss packs two fields for it and keeps them (where the
    /// lookup left off).
    static func decode(_ cache: PackedOutcomeCache, _ payload: Payload, decoder: Int = 0, packer: FieldPacker) -> [UInt8] {
        if let kept = restored(cache, payload, decoder: decoder, packer: packer) { return kept }
        packer.beginOutcome(row: decoder)
        packer.append("t1_c", .double(Double(payload.bytes.first ?? 0) / 20))
        packer.append("mode", .string("normal"))
        let span = packer.endOutcome()
        cache.keep(decoder: decoder, span, in: packer)
        let bytes = [UInt8](packer.bytes(span))
        packer.discardOutcome()
        return bytes
    }

    @Test func `the same payload from the same device gives the fields packed for it`() {
        let cache = PackedOutcomeCache(decoders: 2)
        let packer = FieldPacker()
        let first = Self.decode(cache, Self.payload([1, 2, 3]), packer: packer)
        #expect(Self.restored(cache, Self.payload([1, 2, 3]), packer: packer) == first)
        #expect(cache.hits == 1)
        // Another byte, device, source or decoder: not that payload.
        #expect(Self.restored(cache, Self.payload([1, 2, 4]), packer: packer) == nil)
        #expect(Self.restored(cache, Self.payload([1, 2]), packer: packer) == nil)
        #expect(Self.restored(cache, Self.payload([1, 2, 3], address: nil), packer: packer) == nil)
        #expect(Self.restored(cache, Self.payload([1, 2, 3], address: BluetoothAddress(0xC26B_30F9_0EC8)), packer: packer) == nil)
        #expect(Self.restored(cache, Self.payload([1, 2, 3], source: .manufacturerData(company: 0x09C8)), packer: packer) == nil)
        let uuid = BluetoothUUID(UInt32(0x2A37))
        #expect(Self.restored(cache, Self.payload([1, 2, 3], source: .serviceData(uuid: uuid)), packer: packer) == nil)
        #expect(Self.restored(cache, Self.payload([1, 2, 3], source: .attribute(uuid: uuid, operation: .notify)), packer: packer) == nil)
        #expect(Self.restored(cache, Self.payload([1, 2, 3]), decoder: 1, packer: packer) == nil)
        // A notification and a read of the same characteristic are two sources.
        let notified = Self.decode(cache, Self.payload([9], source: .attribute(uuid: uuid, operation: .notify)), packer: packer)
        #expect(Self.restored(cache, Self.payload([9], source: .attribute(uuid: uuid, operation: .notify)), packer: packer) == notified)
        #expect(Self.restored(cache, Self.payload([9], source: .attribute(uuid: uuid, operation: .read)), packer: packer) == nil)
    }

    /// A decoder that finds too few repeats is passed over for a while (nothing is looked up for
    /// it, kept payloads included), then tried again.
    @Test func `a decoder whose payloads do not repeat rests, then is tried again`() {
        let cache = PackedOutcomeCache(decoders: 1, window: 8, rest: 5)
        let packer = FieldPacker()
        let kept = Self.decode(cache, Self.payload([200]), packer: packer)
        // Seven more lookups that find nothing fill the window of eight: none found.
        for byte in UInt8(1)...7 { _ = Self.decode(cache, Self.payload([byte]), packer: packer) }
        for _ in 0..<5 { #expect(Self.restored(cache, Self.payload([200]), packer: packer) == nil) }
        #expect(Self.restored(cache, Self.payload([200]), packer: packer) == kept)
    }
}
