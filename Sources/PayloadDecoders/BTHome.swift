import BluetoothPackets
import ByteReading

/// BTHome v2 service data 0xFCD2 (payloads.md §E):
///
///     device info u8   bit 0 encrypted, bit 2 trigger-based, bits 5–7 version (must be 2)
///     objects…         id u8, then a value whose length the id fixes (BTHomeObjects.swift)
///
/// An object id seen again gets a numbered name: `temperature_c`, `temperature_c_2`, … Encrypted
/// payloads (AES-CCM, needs the bind key) are reported with `encrypted: true`, their counter, and
/// no measurements.
public struct BTHome: PayloadDecoder, PayloadEncoder {
    public init() {}

    static let service = BluetoothUUID(0xFCD2)
    static let encryptedFlag: UInt8 = 0x01
    static let triggerFlag: UInt8 = 0x04
    static let version: UInt8 = 2

    public var id: String { "bthome" }
    public var summary: String { "BTHome v2 sensor objects (unencrypted)" }
    public var matches: [MatchKey] { [.serviceData(Self.service)] }
    public var fields: [FieldDescription] {
        var seen: Set<String> = []
        let objects = BTHomeObject.all.filter { seen.insert($0.name).inserted }.flatMap { object in
            let description = FieldDescription(
                object.name, unit: object.unit, "object 0x\(hex2(object.id))")
            guard case .dimmer = object.format else { return [description] }
            return [description, FieldDescription("\(object.name)_steps", "dimmer steps")]
        }
        return [
            FieldDescription("encrypted", "true when the objects are encrypted (and so absent)"),
            FieldDescription("trigger_based", "true for devices that advertise on events, not at intervals"),
            FieldDescription("counter", "encrypted payloads: the replay counter"),
        ] + objects
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let info = try reader.u8("device_info")
        guard info >> 5 == version else {
            throw DecodeError(
                .badValue("BTHome version \(info >> 5), only version 2 is decoded"), at: 0, field: "device_info")
        }
        var fields: Fields = [
            Field("encrypted", .bool(info & encryptedFlag != 0)),
            Field("trigger_based", .bool(info & triggerFlag != 0)),
        ]
        if info & encryptedFlag != 0 {
            // ciphertext | counter u32 LE | MIC (4): only the counter can be read without the key.
            try reader.require(8, "counter")
            try reader.skip(reader.remaining - 8, "ciphertext")
            fields.append("counter", .int(Int64(try reader.u32le("counter"))))
            try reader.skip(4, "mic")
            return fields
        }
        // A repeated object gets a numbered name (temperature_c_2); payloads hold a handful of
        // objects, so a list beats a dictionary here.
        var occurrences: [(name: String, count: Int)] = []
        while !reader.isAtEnd {
            let offset = reader.offset
            let id = try reader.u8("object_id")
            guard let object = BTHomeObject.byID[Int(id)] else {
                throw DecodeError(
                    .badValue("unknown object id 0x\(hex2(id))"), at: offset, field: "object_id")
            }
            for (name, value) in try object.read(&reader) {
                if let seen = occurrences.firstIndex(where: { $0.name == name }) {
                    occurrences[seen].count += 1
                    fields.append("\(name)_\(occurrences[seen].count)", value)
                } else {
                    occurrences.append((name, 1))
                    fields.append(name, value)
                }
            }
        }
        return fields
    }

    // MARK: - Encoding

    /// Writes the objects in the order of the fields. Each name is written with the first object
    /// that gives back exactly the same value (so `temperature_c: 23` as an integer becomes object
    /// 0x57, `23.45` becomes 0x02); numbered names (`_2`, `_3`) repeat an object. Unencrypted only.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        if fields.has("encrypted"), try fields.bool("encrypted") {
            throw EncodeError(.outOfRange("only unencrypted payloads can be encoded"), field: "encrypted")
        }
        var writer = ByteWriter()
        let trigger = fields.has("trigger_based") ? try fields.bool("trigger_based") : false
        writer.u8(Self.version << 5 | (trigger ? Self.triggerFlag : 0))
        for field in fields.entries where !["encrypted", "trigger_based"].contains(field.name) {
            guard let (base, suffix) = Self.splitNumbered(field.name) else {
                throw EncodeError(.unknownField, field: field.name)
            }
            if Self.stepsNames.contains(base) { continue }  // written with its dimmer
            let steps = fields["\(base)_steps\(suffix)"]
            writer.append(try Self.bestEncoding(of: field, base: base, steps: steps))
        }
        return writer.bytes
    }

    /// The second value of a dimmer object: `dimmer_steps`.
    static let stepsNames: Set<String> = Set(
        BTHomeObject.all.compactMap { object in
            guard case .dimmer = object.format else { return nil }
            return "\(object.name)_steps"
        })
    static let names: Set<String> = Set(BTHomeObject.all.map(\.name)).union(stepsNames)

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
    static func bestEncoding(of field: Field, base: String, steps: FieldValue?) throws(EncodeError) -> [UInt8] {
        let candidates = BTHomeObject.all.filter { $0.name == base }
        var firstFitting: [UInt8]?
        var firstError: EncodeError?
        for object in candidates {
            var writer = ByteWriter()
            do {
                try object.write(field.value, steps: steps, field: field.name, to: &writer)
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
        return values?.first?.value == value
    }
}
