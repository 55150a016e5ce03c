import BluetoothPackets
import ByteReading

/// BTHome v2 service data 0xFCD2 (payloads.md §E, bthome.io "Format" and "Encryption"):
///
///     device info u8   bit 0 encrypted, bit 2 trigger-based, bits 5–7 version (must be 2)
///     objects…         id u8, then a value whose length the id fixes (BTHomeObjects.swift)
///
/// or, encrypted: device info | AES-CCM ciphertext of the objects | counter u32 LE | MIC (4).
///
/// An object id seen again gets a numbered name: `temperature_c`, `temperature_c_2`, … An encrypted
/// payload is decrypted with the `bindkey` given for its device (BTHomeEncryption.swift); without
/// one it is reported with `encrypted: true`, its counter, the ciphertext and the MIC.
public struct BTHome: PayloadDecoder, PayloadEncoder {
    /// The bind keys (16 bytes each) of encrypted devices, by device address.
    public var bindKeys: [BluetoothAddress: [UInt8]]

    public init(bindKeys: [BluetoothAddress: [UInt8]] = [:]) { self.bindKeys = bindKeys }

    static let service = BluetoothUUID(0xFCD2)
    static let encryptedFlag: UInt8 = 0x01
    static let triggerFlag: UInt8 = 0x04
    static let version: UInt8 = 2

    public var id: String { "bthome" }
    public var summary: String { "BTHome v2 sensor objects, decrypted when the device's bindkey is given" }
    public var matches: [MatchKey] { [.serviceData(Self.service)] }

    public var parameters: [DecoderParameter] {
        let devices = bindKeys.keys.sorted().map(\.description).joined(separator: ", ")
        return [
            DecoderParameter(
                name: "bindkey", kind: .keys, value: devices.isEmpty ? nil : "keys for \(devices)",
                summary: "AES-CCM key of an encrypted device, ADDRESS=32 hex digits (repeatable)")
        ]
    }

    public func configured(with values: DecoderParameterValues) throws(DecoderParameterError) -> any PayloadDecoder {
        guard values.given["bindkey"] != nil else { return self }
        return BTHome(bindKeys: bindKeys.merging(values.keys("bindkey")) { _, given in given })
    }

    /// Checks each device's encryption counter across its payloads (BTHomeCounterCheck.swift).
    public func makeFollowUp() -> (any DecoderFollowUp)? { BTHomeCounterCheck() }

    public var fields: [FieldDescription] {
        var seen: Set<String> = []
        let objects = BTHomeObject.all.filter { seen.insert($0.name).inserted }.flatMap { object in
            let ids = BTHomeObject.all.filter { $0.name == object.name }.map { "0x\(hex2($0.id))" }
            let description = FieldDescription(
                object.name, unit: object.unit, (ids.count == 1 ? "object " : "objects ") + ids.joined(separator: ", "))
            switch object.format {
            case .dimmer: return [description, FieldDescription("\(object.name)_steps", "dimmer steps")]
            case .command:
                return [description, FieldDescription("\(object.name)_args", "command arguments, hex")]
            default: return [description]
            }
        }
        return [
            FieldDescription("encrypted", "true when the objects were sent encrypted"),
            FieldDescription("trigger_based", "true for devices that advertise on events, not at intervals"),
            FieldDescription("counter", "encrypted payloads: the counter in the nonce, which must go up"),
            FieldDescription("ciphertext", "encrypted payloads without their bindkey: the objects, still encrypted"),
            FieldDescription("mic", "encrypted payloads without their bindkey: the message integrity check"),
        ] + objects
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        // The sender's address is the start of an encrypted payload's nonce.
        let address = payload.context.address
        return [
            decoding(payload.bytes, capacity: 8) { (reader: inout ByteReader, fields: inout Fields) throws(DecodeError) in
                try read(&reader, from: address, into: &fields)
            }
        ]
    }

    public func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome {
        let address = payload.context.address
        return packing(payload.bytes, into: packer) {
            (reader: inout ByteReader, fields: inout FieldPacker) throws(DecodeError) in
            try read(&reader, from: address, into: &fields)
        }
    }

    func read<Output: FieldWriting>(
        _ reader: inout ByteReader, from address: BluetoothAddress?, into fields: inout Output
    ) throws(DecodeError) {
        let info = try reader.u8("device_info")
        guard info >> 5 == Self.version else {
            throw DecodeError(
                .badValue("BTHome version \(info >> 5), only version 2 is decoded"), at: 0, field: "device_info")
        }
        fields.append("encrypted", .bool(info & Self.encryptedFlag != 0))
        fields.append("trigger_based", .bool(info & Self.triggerFlag != 0))
        if info & Self.encryptedFlag != 0 {
            try readEncrypted(&reader, info: info, from: address, into: &fields)
        } else {
            try Self.readObjects(&reader, into: &fields)
        }
    }

    /// Every object to the end of the reader.
    static func readObjects<Output: FieldWriting>(_ reader: inout ByteReader, into fields: inout Output)
        throws(DecodeError)
    {
        // A repeated object gets a numbered name (temperature_c_2). Each name is counted under
        // the place of the first object that has it (`BTHomeObject.namePlaces`), in a table on
        // the stack: a list of names took an allocation, and a string compare per object.
        var counts = InlineArray<256, UInt16>(repeating: 0)
        try BTHomeObject.all.withUnsafeBufferPointer { (objects) throws(DecodeError) in
            while !reader.isAtEnd {
                let offset = reader.offset
                let id = try reader.u8("object_id")
                let place = BTHomeObject.placeByID[Int(id)]
                guard place >= 0 else {
                    throw DecodeError(.badValue("unknown object id 0x\(hex2(id))"), at: offset, field: "object_id")
                }
                let values = try BTHomeObject.read(objects[place].name, objects[place].format, &reader)
                let key = BTHomeObject.namePlaces[place]
                add(values.name, values.value, counted: key, in: &counts, to: &fields)
                if !values.secondName.isEmpty {
                    add(values.secondName, values.secondValue, counted: key + objects.count, in: &counts, to: &fields)
                }
            }
        }
    }

    /// A field named as its object, numbered from its second time (`counts[key]`). A function of
    /// its own, not a closure over the counts and the fields: a closure's captured variables
    /// were checked for exclusive access at run time, for every payload.
    private static func add(
        _ name: String, _ value: FieldValue, counted key: Int, in counts: inout InlineArray<256, UInt16>,
        to fields: inout some FieldWriting
    ) {
        counts[key] &+= 1
        if counts[key] == 1 { fields.append(name, value) } else { fields.append("\(name)_\(counts[key])", value) }
    }

    // MARK: - Encoding

    /// Writes the objects in the order of the fields. Each name is written with the first object
    /// that gives back exactly the same value (so `temperature_c: 23` as an integer becomes object
    /// 0x57, `23.45` becomes 0x02); numbered names (`_2`, `_3`) repeat an object. Encrypted
    /// payloads need their `counter` and either the device's bindkey (see `encode(_:context:)`)
    /// or the `ciphertext` and `mic` of a payload decoded without it.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        try encode(fields, context: PayloadContext())
    }

    /// Encrypts with the bindkey of `context.address` (with no address: the only bindkey given).
    public func encode(_ fields: Fields, context: PayloadContext) throws(EncodeError) -> [UInt8] {
        let encrypted = fields.has("encrypted") ? try fields.bool("encrypted") : false
        let trigger = fields.has("trigger_based") ? try fields.bool("trigger_based") : false
        let info = Self.version << 5 | (trigger ? Self.triggerFlag : 0) | (encrypted ? Self.encryptedFlag : 0)
        guard encrypted else {
            return [info] + (try Self.encodeObjects(fields, after: Self.plainHeader))
        }
        if fields.has("ciphertext") { return try Self.encodeStillEncrypted(fields, info: info) }
        let objects = try Self.encodeObjects(fields, after: Self.encryptedHeader)
        return try encrypt(objects, info: info, fields: fields, address: context.address)
    }

    static let plainHeader: Set<String> = ["encrypted", "trigger_based"]
    static let encryptedHeader: Set<String> = ["encrypted", "trigger_based", "counter"]

    static func encodeObjects(_ fields: Fields, after header: Set<String>) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter()
        for field in fields.entries where !header.contains(field.name) {
            guard let (base, suffix) = splitNumbered(field.name) else {
                throw EncodeError(.unknownField, field: field.name)
            }
            if secondNames.contains(base) { continue }  // written with its dimmer or command
            let second = fields["\(base)_steps\(suffix)"] ?? fields["\(base)_args\(suffix)"]
            writer.append(try bestEncoding(of: field, base: base, second: second))
        }
        return writer.bytes
    }

    /// The second values of dimmer and command objects: `dimmer_steps`, `command_args`.
    static let secondNames: Set<String> = Set(BTHomeObject.all.compactMap(\.secondName))
    static let names: Set<String> = Set(BTHomeObject.all.map(\.name)).union(secondNames)

    /// "temperature_c_2" → ("temperature_c", "_2"), "temperature_c" → ("temperature_c", "");
    /// nil when no object has that name.
    static func splitNumbered(_ name: String) -> (base: String, suffix: String)? {
        if names.contains(name) { return (name, "") }
        guard let underscore = name.lastIndex(of: "_"), let number = Int(name[name.index(after: underscore)...]),
            number >= 2, names.contains(String(name[..<underscore]))
        else { return nil }
        return (String(name[..<underscore]), String(name[underscore...]))
    }

    /// The bytes of the first object whose value reads back exactly; otherwise the first that can
    /// hold the value rounded.
    static func bestEncoding(of field: Field, base: String, second: FieldValue?) throws(EncodeError) -> [UInt8] {
        let candidates = BTHomeObject.all.filter { $0.name == base }
        var firstFitting: [UInt8]?
        var firstError: EncodeError?
        for object in candidates {
            var writer = ByteWriter()
            do {
                try object.write(field.value, second: second, field: field.name, to: &writer)
            } catch {
                firstError = firstError ?? error
                continue
            }
            if readsBack(writer.bytes, object, field.value) { return writer.bytes }
            firstFitting = firstFitting ?? writer.bytes
        }
        if let firstFitting { return firstFitting }
        throw firstError ?? EncodeError(.unknownField, field: field.name)
    }

    private static func readsBack(_ bytes: [UInt8], _ object: BTHomeObject, _ value: FieldValue) -> Bool {
        let values = try? ByteReader.reading(bytes) { (reader: inout ByteReader) throws(DecodeError) in
            try reader.skip(1)
            return try object.read(&reader)
        }
        return values?.value == value
    }
}
