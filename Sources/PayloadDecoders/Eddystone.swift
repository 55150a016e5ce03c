import BluetoothPackets
import ByteReading

/// Eddystone frames in service data 0xFEAA (payloads.md §G). The high nibble of the first byte is
/// the frame type; each frame type has its own decoder, which leaves the others alone.
/// All multi-byte fields are big-endian.
enum Eddystone {
    static let service = BluetoothUUID(0xFEAA)

    static func isFrame(_ payload: Payload, _ type: UInt8) -> Bool {
        payload.firstByte.map { $0 & 0xF0 == type } ?? false
    }

    static func readTxPower(_ reader: inout ByteReader) throws(DecodeError) -> Field {
        Field("tx_power_dbm", .int(Int64(try reader.i8("tx_power_dbm"))))
    }

    static func txPower(_ fields: Fields) throws(EncodeError) -> UInt8 {
        UInt8(bitPattern: Int8(try fields.integer("tx_power_dbm", in: -128...127)))
    }

    static let txPowerDescription = FieldDescription("tx_power_dbm", unit: "dBm", "transmit power measured at 0 m")
}

/// Eddystone-UID (frame 0x00): TX power, 10-byte namespace, 6-byte instance, 2 reserved bytes
/// (older beacons leave the reserved bytes out).
public struct EddystoneUID: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "eddystone.uid" }
    public var summary: String { "Eddystone-UID beacon: namespace and instance" }
    public var matches: [MatchKey] { [.serviceData(Eddystone.service)] }
    public var fields: [FieldDescription] {
        [
            Eddystone.txPowerDescription,
            FieldDescription("namespace", "10-byte namespace, hex"),
            FieldDescription("instance", "6-byte instance, hex"),
        ]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        Eddystone.isFrame(payload, 0x00) ? [decoding(payload.bytes, Self.read)] : []
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        try reader.skip(1, "frame_type")
        let fields: Fields = [
            try Eddystone.readTxPower(&reader),
            Field("namespace", .string(Hex.encode(try reader.bytes(10, "namespace")))),
            Field("instance", .string(Hex.encode(try reader.bytes(6, "instance")))),
        ]
        if reader.remaining == 2 { try reader.skip(2, "reserved") }
        try reader.expectEnd("payload")
        return fields
    }

    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: 20)
        writer.u8(0x00)
        writer.u8(try Eddystone.txPower(fields))
        writer.append(try fields.hexBytes("namespace", count: 10))
        writer.append(try fields.hexBytes("instance", count: 6))
        writer.append([0x00, 0x00])
        return writer.bytes
    }
}

/// Eddystone-URL (frame 0x10): TX power, scheme byte, then up to 17 URL bytes in which 0x00–0x0D
/// stand for ".com/", ".org/", … and printable ASCII stands for itself.
public struct EddystoneURL: PayloadDecoder, PayloadEncoder {
    public init() {}

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]
    static let maximumEncodedLength = 17

    public var id: String { "eddystone.url" }
    public var summary: String { "Eddystone-URL beacon: the advertised URL" }
    public var matches: [MatchKey] { [.serviceData(Eddystone.service)] }
    public var fields: [FieldDescription] {
        [Eddystone.txPowerDescription, FieldDescription("url", "the URL, expanded")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        Eddystone.isFrame(payload, 0x10) ? [decoding(payload.bytes, Self.read)] : []
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        try reader.skip(1, "frame_type")
        let txPower = try Eddystone.readTxPower(&reader)
        let schemeOffset = reader.offset
        let scheme = Int(try reader.u8("url_scheme"))
        guard scheme < schemes.count else {
            throw DecodeError(.badValue("URL scheme \(scheme) is reserved"), at: schemeOffset, field: "url_scheme")
        }
        guard reader.remaining <= maximumEncodedLength else {
            throw DecodeError(
                .badLength(declared: maximumEncodedLength, available: reader.remaining), at: reader.offset, field: "url"
            )
        }
        var url = schemes[scheme]
        while !reader.isAtEnd {
            let offset = reader.offset
            let byte = try reader.u8("url")
            if Int(byte) < expansions.count {
                url += expansions[Int(byte)]
            } else if (0x21...0x7E).contains(byte) {
                url.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                throw DecodeError(
                    .badValue("URL byte 0x\(hex2(byte)) is reserved"), at: offset, field: "url")
            }
        }
        return [txPower, Field("url", .string(url))]
    }

    /// Picks the scheme and the longest expansions, as beacon configuration tools do.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        let url = try fields.string("url")
        // The longest scheme that fits: "https://www." rather than "https://".
        let fitting = Self.schemes.indices.filter { url.hasPrefix(Self.schemes[$0]) }
        guard let scheme = fitting.max(by: { Self.schemes[$0].count < Self.schemes[$1].count }) else {
            throw EncodeError(.outOfRange("an http:// or https:// URL"), field: "url")
        }

        var writer = ByteWriter(capacity: 20)
        writer.u8(0x10)
        writer.u8(try Eddystone.txPower(fields))
        writer.u8(UInt8(scheme))
        var rest = Substring(url.dropFirst(Self.schemes[scheme].count))
        while !rest.isEmpty {
            if let code = Self.expansions.indices.first(where: { rest.hasPrefix(Self.expansions[$0]) }) {
                writer.u8(UInt8(code))
                rest = rest.dropFirst(Self.expansions[code].count)
                continue
            }
            guard let ascii = rest.first?.asciiValue, (0x21...0x7E).contains(ascii) else {
                throw EncodeError(.outOfRange("printable ASCII"), field: "url")
            }
            writer.u8(ascii)
            rest = rest.dropFirst()
        }
        guard writer.count - 3 <= Self.maximumEncodedLength else {
            throw EncodeError(.outOfRange("at most \(Self.maximumEncodedLength) encoded bytes"), field: "url")
        }
        return writer.bytes
    }
}

/// Eddystone-TLM (frame 0x20). Version 0 is plain telemetry; version 1 is encrypted (eTLM) and
/// cannot be read without the beacon's key, so only its framing is reported.
///
///     version 0:  battery mV u16 | temperature 8.8 signed (0x8000: none) | advertisement count u32
///                 | time since boot u32 in 0.1 s
///     version 1:  12 encrypted bytes | salt u16 | MIC u16
public struct EddystoneTLM: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "eddystone.tlm" }
    public var summary: String { "Eddystone-TLM beacon telemetry (plain, or encrypted eTLM framing)" }
    public var matches: [MatchKey] { [.serviceData(Eddystone.service)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("version", "0 plain, 1 encrypted"),
            FieldDescription("encrypted", "true for eTLM, whose telemetry fields are absent"),
            FieldDescription("battery_mv", unit: "mV", "battery voltage; null when the beacon has none"),
            FieldDescription("temperature_c", unit: "°C", "beacon temperature, 1/256 °C; null when not supported"),
            FieldDescription("adv_count", "advertisements sent since boot"),
            FieldDescription("uptime_s", unit: "s", "time since boot, 0.1 s steps"),
            FieldDescription("etlm", "eTLM: the 12 encrypted bytes, hex"),
            FieldDescription("salt", "eTLM: salt"),
            FieldDescription("mic", "eTLM: message integrity check"),
        ]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        Eddystone.isFrame(payload, 0x20) ? [decoding(payload.bytes, Self.read)] : []
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        try reader.skip(1, "frame_type")
        let versionOffset = reader.offset
        let version = try reader.u8("version")
        var fields: Fields = [Field("version", .int(Int64(version)))]
        switch version {
        case 0:
            fields.append("encrypted", false)
            let battery = try reader.u16be("battery_mv")
            fields.append("battery_mv", battery == 0 ? .null : .int(Int64(battery)))
            let temperature = Int16(bitPattern: try reader.u16be("temperature_c"))
            fields.append("temperature_c", temperature == Int16.min ? .null : .double(Double(temperature) / 256))
            fields.append("adv_count", .int(Int64(try reader.u32be("adv_count"))))
            fields.append("uptime_s", .double(Double(try reader.u32be("uptime_s")) / 10))
        case 1:
            fields.append("encrypted", true)
            fields.append("etlm", .string(Hex.encode(try reader.bytes(12, "etlm"))))
            fields.append("salt", .int(Int64(try reader.u16be("salt"))))
            fields.append("mic", .int(Int64(try reader.u16be("mic"))))
        default:
            throw DecodeError(.badValue("TLM version \(version) is not 0 or 1"), at: versionOffset, field: "version")
        }
        try reader.expectEnd("payload")
        return fields
    }

    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: 18)
        writer.u8(0x20)
        if fields.has("encrypted"), try fields.bool("encrypted") {
            writer.u8(1)
            writer.append(try fields.hexBytes("etlm", count: 12))
            writer.u16be(UInt16(try fields.integer("salt", in: 0...0xFFFF)))
            writer.u16be(UInt16(try fields.integer("mic", in: 0...0xFFFF)))
            return writer.bytes
        }
        writer.u8(0)
        writer.u16be(fields["battery_mv"] == .null ? 0 : UInt16(try fields.integer("battery_mv", in: 1...0xFFFF)))
        let temperature =
            fields["temperature_c"] == .null
            ? Int64(Int16.min) : try fields.raw("temperature_c", divisor: 256, in: -0x7FFF...0x7FFF)
        writer.u16be(UInt16(bitPattern: Int16(temperature)))
        writer.u32be(UInt32(try fields.integer("adv_count", in: 0...0xFFFF_FFFF)))
        writer.u32be(UInt32(try fields.raw("uptime_s", divisor: 10, in: 0...0xFFFF_FFFF)))
        return writer.bytes
    }
}

/// Eddystone-EID (frame 0x30): TX power and an 8-byte ephemeral id.
public struct EddystoneEID: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "eddystone.eid" }
    public var summary: String { "Eddystone-EID beacon: the current ephemeral id" }
    public var matches: [MatchKey] { [.serviceData(Eddystone.service)] }
    public var fields: [FieldDescription] {
        [Eddystone.txPowerDescription, FieldDescription("ephemeral_id", "8-byte ephemeral id, hex")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        Eddystone.isFrame(payload, 0x30) ? [decoding(payload.bytes, Self.read)] : []
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        try reader.skip(1, "frame_type")
        let fields: Fields = [
            try Eddystone.readTxPower(&reader),
            Field("ephemeral_id", .string(Hex.encode(try reader.bytes(8, "ephemeral_id")))),
        ]
        try reader.expectEnd("payload")
        return fields
    }

    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: 10)
        writer.u8(0x30)
        writer.u8(try Eddystone.txPower(fields))
        writer.append(try fields.hexBytes("ephemeral_id", count: 8))
        return writer.bytes
    }
}
