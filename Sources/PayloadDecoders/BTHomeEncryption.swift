import BluetoothPackets
import ByteReading

/// Encrypted BTHome v2 (bthome.io "Encryption"; bthome-ble's `parser.py` and
/// `bthome_v2_encryption.py`): AES-128-CCM with the device's 16-byte bind key, a 4-byte MIC and no
/// associated data, over the objects. The 13-byte nonce is
///
///     device address (6, as printed: AA BB CC DD EE FF) | UUID D2 FC | device info | counter u32 LE
///
/// so the same objects encrypt differently each time the counter moves on, and a payload only
/// decrypts with the address of the device that sent it.
extension BTHome {
    static let counterSize = 4
    static let micSize = 4

    static func nonce(address: BluetoothAddress, info: UInt8, counter: UInt32) -> [UInt8] {
        var writer = ByteWriter(capacity: AESCCM.nonceSize)
        writer.unsigned(address.value, size: 6, .big)
        writer.u16le(0xFCD2)
        writer.u8(info)
        writer.u32le(counter)
        return writer.bytes
    }

    /// Everything after the device info of an encrypted payload: decrypted into objects when a
    /// key is given for the sender, otherwise kept as ciphertext and MIC.
    func readEncrypted<Output: FieldWriting>(
        _ reader: inout ByteReader, info: UInt8, from address: BluetoothAddress?, into fields: inout Output
    ) throws(DecodeError) {
        try reader.require(Self.counterSize + Self.micSize, "counter")
        let objectsOffset = reader.offset
        let ciphertext = try reader.array(reader.remaining - Self.counterSize - Self.micSize, "ciphertext")
        let counter = try reader.u32le("counter")
        let micOffset = reader.offset
        let mic = try reader.array(Self.micSize, "mic")
        fields.append("counter", .int(Int64(counter)))

        // The keys to try: the sender's; with no address known (a payload given by hand), each key
        // with its own address, since only the right pair makes the MIC match.
        let candidates: [(BluetoothAddress, [UInt8])]
        if let address {
            candidates = bindKeys[address].map { [(address, $0)] } ?? []
        } else {
            candidates = bindKeys.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        guard !candidates.isEmpty else {
            fields.append("ciphertext", .string(Hex.encode(ciphertext)))
            fields.append("mic", .string(Hex.encode(mic)))
            return
        }
        if let reason = AESCCM.unavailableReason {
            throw DecodeError(.badValue("\(reason), so the bindkey cannot be used"), at: micOffset, field: "mic")
        }
        var plaintext: [UInt8]?
        for (device, key) in candidates where plaintext == nil {
            plaintext = AESCCM.open(
                ciphertext, tag: mic, key: key, nonce: Self.nonce(address: device, info: info, counter: counter))
        }
        guard let plaintext else {
            if let address {
                throw DecodeError(
                    .badValue("MIC does not match: the bindkey for \(address) is wrong, or the payload was altered"),
                    at: micOffset, field: "mic")
            }
            fields.append("ciphertext", .string(Hex.encode(ciphertext)))
            fields.append("mic", .string(Hex.encode(mic)))
            return
        }
        // CCM keeps lengths and positions: an object's error offset in the plaintext is its
        // offset in the payload.
        let decrypted = try ByteReader.reading([info] + plaintext) { (objects: inout ByteReader) throws(DecodeError) in
            try objects.skip(objectsOffset)
            var decrypted = Fields()
            try Self.readObjects(&objects, into: &decrypted)
            return decrypted
        }
        for field in decrypted.entries { fields.append(field.name, field.value) }
    }

    /// An encrypted payload from its objects and counter, with the bindkey of `address` (with no
    /// address: the only bindkey given).
    func encrypt(_ objects: [UInt8], info: UInt8, fields: Fields, address: BluetoothAddress?) throws(EncodeError)
        -> [UInt8]
    {
        let counter = UInt32(try fields.integer("counter", in: 0...0xFFFF_FFFF))
        let device: BluetoothAddress
        let key: [UInt8]
        if let address, let known = bindKeys[address] {
            (device, key) = (address, known)
        } else if address == nil, bindKeys.count == 1, let only = bindKeys.first {
            (device, key) = (only.key, only.value)
        } else {
            let whose = address.map { "of \($0)" } ?? "of the device"
            throw EncodeError(
                .outOfRange("encrypting needs the bindkey \(whose): --param bthome.bindkey=ADDRESS=32 hex digits"),
                field: "encrypted")
        }
        let nonce = Self.nonce(address: device, info: info, counter: counter)
        guard let (ciphertext, mic) = AESCCM.seal(objects, key: key, nonce: nonce) else {
            throw EncodeError(
                .outOfRange(AESCCM.unavailableReason ?? "libcrypto refused the key or the nonce"), field: "encrypted")
        }
        var writer = ByteWriter(capacity: 1 + ciphertext.count + Self.counterSize + Self.micSize)
        writer.u8(info)
        writer.append(ciphertext)
        writer.u32le(counter)
        writer.append(mic)
        return writer.bytes
    }

    /// A payload decoded without its bindkey, written back as it was: ciphertext, counter, MIC.
    static func encodeStillEncrypted(_ fields: Fields, info: UInt8) throws(EncodeError) -> [UInt8] {
        let allowed: Set<String> = encryptedHeader.union(["ciphertext", "mic"])
        if let other = fields.names.first(where: { !allowed.contains($0) }) {
            throw EncodeError(.outOfRange("a payload given as ciphertext has no objects of its own"), field: other)
        }
        var writer = ByteWriter()
        writer.u8(info)
        writer.append(try fields.hexBytes("ciphertext"))
        writer.u32le(UInt32(try fields.integer("counter", in: 0...0xFFFF_FFFF)))
        writer.append(try fields.hexBytes("mic", count: micSize))
        return writer.bytes
    }
}
