import BluetoothPackets
import ByteReading

/// AD structures that name a device, hold an address or carry pairing material
/// (Assigned Numbers §2.3, Core Supplement Part A).
enum ADRule {
    static let names: Set<UInt8> = [ADType.shortenedName, ADType.completeName, 0x30]  // 0x30: Broadcast Name
    /// Public Target Address and Random Target Address: one or more addresses.
    static let addressLists: Set<UInt8> = [0x17, 0x18]
    /// LE Bluetooth Device Address: an address and its type.
    static let deviceAddress: UInt8 = 0x1B
    /// Simple Pairing hash and randomizer (C-192, R-192, C-256, R-256), LE Secure Connections
    /// confirmation and random values: out-of-band pairing material. (0x10, the Security Manager
    /// TK value out of band, is the Device ID in an extended inquiry response: left alone.)
    static let keys: Set<UInt8> = [0x0E, 0x0F, 0x1D, 0x1E, 0x22, 0x23]
}

extension ScrubContext {
    /// Rewrites the AD structures of `region` (its offsets are those of `out`). A structure that
    /// runs past the end is rewritten as far as it goes, so that a cut name or key is not left behind.
    func advertisingData(_ region: ByteReader, _ out: inout [UInt8]) {
        let bytes = region.unread
        let origin = region.offset
        let error = AdvertisingData.forEach(in: bytes) { structure in
            let start = origin + structure.offset + 2
            structureData(structure.type, ByteReader(structure.data, origin: start), &out)
        }
        // The one that overran: type and whatever data is there.
        if let error, case .badLength = error.reason, error.offset + 2 <= bytes.count {
            let type = bytes[error.offset + 1]
            let data = UnsafeRawBufferPointer(rebasing: bytes[(error.offset + 2)...])
            structureData(type, ByteReader(data, origin: origin + error.offset + 2), &out)
        }
    }

    private func structureData(_ type: UInt8, _ data: ByteReader, _ out: inout [UInt8]) {
        var r = data
        if ADRule.names.contains(type) {
            name(&r, r.remaining, &out)
        } else if ADRule.addressLists.contains(type) {
            while r.remaining >= 6, (try? address(&r, &out)) != nil {}
        } else if type == ADRule.deviceAddress {
            _ = try? address(&r, &out)
        } else if ADRule.keys.contains(type) {
            zero(&r, r.remaining, &out)
        }
    }
}
