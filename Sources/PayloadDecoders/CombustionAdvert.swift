import ByteReading

/// Combustion Inc. probe advertisement (combustion.md §2.2): manufacturer data of company 0x09C7,
/// product types 1 (probe) and 2 (MeatNet repeater re-broadcasting a probe) only.
///
/// Offsets after the company id:
///
///     0      product type         1 probe, 2 repeater (others have other layouts → not ours)
///     1…4    serial               u32 LE, shown as 8 upper-case hex digits
///     5…17   raw temperatures     8 × 13 bits (§2.3)
///     18     mode / colour / id   §6.1
///     19     battery + virtual    §6.2     18…22 are optional: older firmware stops earlier,
///     20     network information  §6.9     so each is read only when it is there
///     21     overheating sensors  §6.8
///     22     preferences          §6.7     not in the spec; newer firmware
public struct CombustionAdvert: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "combustion.advert" }
    public var summary: String { "Combustion Inc. predictive thermometer advertisement (probe or repeater)" }
    public var matches: [MatchKey] { [.company(Combustion.company)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("product_type", "1 probe, 2 MeatNet repeater"),
            FieldDescription("product", "product type name"),
            FieldDescription("serial", "probe serial number, 8 hex digits"),
        ] + CombustionAdvert.temperatureDescriptions + [
            FieldDescription("mode", "normal, instant_read, reserved or error"),
            FieldDescription("color", "probe colour code 0…7"),
            FieldDescription("color_name", "yellow or grey, the colours the spec names"),
            FieldDescription("probe_id", "probe id 1…8"),
            FieldDescription("battery_ok", "false when the battery is low"),
            FieldDescription("virtual_core", "sensor chosen as the core (T1…T6)"),
            FieldDescription("virtual_surface", "sensor chosen as the surface (T4…T7)"),
            FieldDescription("virtual_ambient", "sensor chosen as the ambient (T5…T8)"),
            FieldDescription("network_info", "network information byte as sent"),
            FieldDescription("hop_count", "repeaters only: hops from the probe, 1…4 (bits 6–7, as the SDKs)"),
            FieldDescription("overheating", "sensors reported overheating"),
            FieldDescription("power_mode", "normal or always_on (newer firmware)"),
            FieldDescription("high_radio_power", "transmits at +8 dBm (newer firmware)"),
        ]
    }

    static let temperatureDescriptions = (1...8).map { sensor in
        FieldDescription(
            "t\(sensor)_c", unit: "°C",
            "thermistor T\(sensor), 0.05 °C steps" + (sensor == 1 ? "; in Instant Read mode the instant reading" : ""))
    }

    static let productTypes: CodeNames = [1: "probe", 2: "repeater"]

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        // Other product types (displays, boosters, gauges) use other layouts (§10.2).
        if let type = payload.firstByte, Self.productTypes.knownName(type) == nil { return [] }
        return [decoding(payload.bytes, capacity: 24, Self.read)]
    }

    public func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome {
        if let type = payload.firstByte, Self.productTypes.knownName(type) == nil { return .none }
        return packing(payload.bytes, into: packer, Self.read)
    }

    static func read<Output: FieldWriting>(_ reader: inout ByteReader, into fields: inout Output) throws(DecodeError) {
        let productType = try reader.u8("product_type")
        fields.append("product_type", .int(Int64(productType)))
        fields.append("product", productTypes.name(productType))
        let serial = UInt64(try reader.u32le("serial"))
        // A serial is made for every advertisement: written in place.
        fields.appendText("serial", maximumCount: 8) { writeHexDigits(serial, 8, to: $0) }
        Combustion.appendTemperatures(try Combustion.readTemperatures(&reader), to: &fields)

        guard let modeByte = try optionalByte(&reader, "mode") else { return }
        Combustion.appendModeColorID(modeByte, to: &fields)

        guard let battery = try optionalByte(&reader, "battery_ok") else { return }
        Combustion.appendBatteryAndVirtualSensors(battery, to: &fields)

        guard let network = try optionalByte(&reader, "network_info") else { return }
        Combustion.appendNetworkInfo(network, repeater: productType == 2, to: &fields)

        guard let overheating = try optionalByte(&reader, "overheating") else { return }
        Combustion.appendOverheating(overheating, to: &fields)

        guard let preferences = try optionalByte(&reader, "power_mode") else { return }
        Combustion.appendPreferences(preferences, to: &fields)
        try reader.expectEnd("payload")
    }

    /// The next byte, or nil at the end: the tail fields are optional, newest last.
    private static func optionalByte(_ reader: inout ByteReader, _ field: String) throws(DecodeError) -> UInt8? {
        reader.isAtEnd ? nil : try reader.u8(field)
    }

    /// Writes as many tail bytes as the fields carry (mode, battery, network, overheating,
    /// preferences: each needs the ones before it).
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: 23)
        writer.u8(UInt8(try fields.integer("product_type", in: 1...2)))
        let serial = try fields.string("serial")
        guard serial.count == 8, serial.allSatisfy(\.isHexDigit), let number = UInt32(serial, radix: 16) else {
            throw EncodeError(.wrongType(expected: "8 hex digits"), field: "serial")
        }
        writer.u32le(number)
        try Combustion.writeTemperatures(fields, to: &writer)

        let tail: [(name: String, byte: (Fields) throws(EncodeError) -> UInt8)] = [
            ("mode", Combustion.modeColorIDByte),
            ("battery_ok", Combustion.batteryAndVirtualSensorsByte),
            ("network_info", Combustion.networkInfoByte),
            ("overheating", Combustion.overheatingByte),
            ("power_mode", Combustion.preferencesByte),
        ]
        for (name, byte) in tail {
            guard fields.has(name) else { break }
            writer.u8(try byte(fields))
        }
        return writer.bytes
    }
}
