import BluetoothPackets
import PayloadDecoders
import Testing

/// Packing (`decode(_:packingInto:)`, what `bluetape decode` and `golden check` use) gives every
/// payload the outcome `decode(_:)` gives: the same fields in the same order, the same error, or
/// nothing. Each payload below is decoded both ways, and so is every shorter prefix of it, which
/// breaks off in each field in turn.
struct FieldPackingTests {
    static func same(
        _ decoder: some PayloadDecoder, _ payload: Payload, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let packer = FieldPacker()
        // An outcome packed before: the next one starts where it ended, and leaves it alone.
        packer.beginOutcome(row: 1)
        packer.append("earlier", .string("outcome"))
        let earlier = packer.endOutcome()
        packer.beginOutcome(row: 0)
        let expected = decoder.decode(payload)
        switch decoder.decode(payload, packingInto: packer) {
        case .none:
            #expect(expected.isEmpty, sourceLocation: sourceLocation)
        case .fields:
            #expect(expected == [.fields(packer.fields(packer.endOutcome()))], sourceLocation: sourceLocation)
        case .error(let error):
            #expect(expected == [.error(error)], sourceLocation: sourceLocation)
            // What it had written is taken back.
            #expect(packer.count == earlier.end, sourceLocation: sourceLocation)
        case .outcomes(let outcomes):
            #expect(outcomes == expected, sourceLocation: sourceLocation)
        }
        #expect(packer.fields(earlier) == [Field("earlier", "outcome")], sourceLocation: sourceLocation)
    }

    static func sameForEveryPrefix(
        _ decoder: some PayloadDecoder, _ payload: Payload, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for count in 0...payload.bytes.count {
            same(
                decoder, Payload(payload.source, Array(payload.bytes.prefix(count)), context: payload.context),
                sourceLocation: sourceLocation)
        }
    }

    @Test func `an iBeacon, and another payload of Apple's`() {
        // BeaconTests' beacon, and Apple's nearby-info payload under the same company, not a beacon.
        Self.sameForEveryPrefix(
            AppleIBeacon(), .manufacturer(0x004C, hex("02 15 00 00 18 0F 00 00 10 00 80 00 00 80 5F 9B 34 FB FF FF 00 00 7F")))
        Self.same(AppleIBeacon(), .manufacturer(0x004C, hex("10 05 01 18 2C 7E 0D")))
    }

    @Test func `EnvSensor, and a byte too many`() {
        // The worked example of envsensor.md (EnvSensorTests).
        Self.sameForEveryPrefix(EnvSensor(), .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")))
        Self.same(EnvSensor(), .manufacturer(0xFFFF, hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF 00")))
    }

    @Test func `heart rate, with each of its optional parts`() {
        let rate = BluetoothUUID(0x2A37)
        for value in ["16 48 00 04 00 08", "01 2C 01", "08 48 10 00", "1E 48 20 00 00 04 00 02", "10 48"] {
            Self.sameForEveryPrefix(SIGHeartRate(), .attribute(rate, .notify, hex(value)))
        }
    }

    @Test func `Combustion advert, ending after each optional byte`() {
        Self.sameForEveryPrefix(CombustionAdvert(), .manufacturer(0x09C7, hex(CombustionAdvertTests.probeAdvert)))
        // A display: another product type under the same company, not this decoder's.
        Self.same(CombustionAdvert(), .manufacturer(0x09C7, hex("04") + hex(CombustionAdvertTests.probeAdvert).dropFirst()))
    }

    @Test func `BTHome, plain with a repeated object, and encrypted with and without its bindkey`() {
        let plain = Payload(.serviceData(uuid: BluetoothUUID(0xFCD2)), hex("40 00 01 02 CA 09 03 BF 13 02 CB 09"))
        Self.sameForEveryPrefix(BTHome(), plain)
        let shelly = BTHomeEncryptionTests.shelly
        let encrypted = Payload(
            .serviceData(uuid: BluetoothUUID(0xFCD2)), BTHomeEncryptionTests.shellyPayload,
            context: PayloadContext(address: shelly))
        Self.sameForEveryPrefix(BTHome(bindKeys: [shelly: BTHomeEncryptionTests.shellyKey]), encrypted)
        Self.sameForEveryPrefix(BTHome(), encrypted)
    }

    @Test func `a decoder without a packing path of its own gives its outcomes`() {
        let packer = FieldPacker()
        packer.beginOutcome(row: 0)
        let payload = Payload.attribute(BluetoothUUID(0x2A19), .read, hex("64"))
        guard case .outcomes(let outcomes) = SIGBatteryLevel().decode(payload, packingInto: packer) else {
            Issue.record("not its outcomes")
            return
        }
        #expect(outcomes == [.fields([Field("battery_pct", 100)])])
    }

    /// What `stats` and `report` read of packed fields: each field's position and name, and its
    /// value as a number when it is one; text, booleans, null and lists skipped whole.
    @Test func `packed fields are walked with their names and numbers`() {
        let fields: Fields = [
            Field("t", .double(21.5)), Field("name", .string("probe é")), Field("n", .int(-7)),
            Field("ok", .bool(true)), Field("none", .null),
            Field("list", .list([.int(1), .string("two"), .list([.double(3)])])), Field("after", .int(1 << 40)),
        ]
        let packer = FieldPacker()
        _ = packer.pack([Field("first", .int(1))], row: -1)
        let span = packer.pack(fields, row: 0)
        var walked: [(Int, String, Double?)] = []
        packer.forEachField(in: span) { position, name, number in walked.append((position, copy name, number)) }
        #expect(walked.map(\.0) == Array(0..<7))
        #expect(walked.map(\.1) == fields.names)
        #expect(walked.map(\.2) == [21.5, nil, -7, nil, nil, nil, Double(1 << 40)])
        var none = 0
        packer.forEachField(in: .none) { _, _, _ in none += 1 }
        #expect(none == 0)
    }
}
