import BluetoothPackets
import ByteReading

/// GATT Heart Rate Measurement (0x2A37) (payloads.md §D.1):
///
///     flags u8          bit 0 rate is u16 (else u8); bits 1–2 sensor contact (2 no contact,
///                       3 in contact, 0/1 not supported); bit 3 energy present; bit 4 RR present
///     heart rate        u8 or u16 LE, beats per minute
///     [energy]          u16 LE, kJ
///     [RR intervals]    u16 LE each, 1/1024 s, to the end, oldest first
public struct SIGHeartRate: PayloadDecoder, PayloadEncoder {
    public init() {}

    public var id: String { "sig.heart_rate" }
    public var summary: String { "GATT Heart Rate Measurement" }
    public var matches: [MatchKey] { [.characteristic(BluetoothUUID(0x2A37))] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("heart_rate_bpm", unit: "bpm", "heart rate"),
            FieldDescription("sensor_contact", "whether the sensor touches the skin (when it can tell)"),
            FieldDescription("energy_kj", unit: "kJ", "energy expended since the last reset (when present)"),
            FieldDescription("rr_intervals_s", unit: "s", "RR intervals, oldest first (when present)"),
        ]
    }

    static let rateIsU16: UInt8 = 0x01
    static let contactSupported: UInt8 = 0x04
    static let contactDetected: UInt8 = 0x02
    static let energyPresent: UInt8 = 0x08
    static let rrPresent: UInt8 = 0x10

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, capacity: 4, Self.read)]
    }

    public func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome {
        packing(payload.bytes, into: packer, Self.read)
    }

    static func read<Output: FieldWriting>(_ reader: inout ByteReader, into fields: inout Output) throws(DecodeError) {
        let flags = try reader.u8("flags")
        let rate = flags & rateIsU16 != 0 ? try reader.u16le("heart_rate_bpm") : UInt16(try reader.u8("heart_rate_bpm"))
        fields.append("heart_rate_bpm", .int(Int64(rate)))
        if flags & contactSupported != 0 {
            fields.append("sensor_contact", .bool(flags & contactDetected != 0))
        }
        if flags & energyPresent != 0 {
            fields.append("energy_kj", .int(Int64(try reader.u16le("energy_kj"))))
        }
        if flags & rrPresent != 0 {
            // At least one interval when the flag says they are there. The whole ones are read at
            // once (a byte left over is an interval cut short, an error), and written as listed.
            try reader.require(2, "rr_intervals_s")
            let intervals = try reader.bytes(reader.remaining & ~1, "rr_intervals_s")
            if !reader.isAtEnd { _ = try reader.u16le("rr_intervals_s") }
            fields.appendList("rr_intervals_s", count: intervals.count / 2) { index in
                let raw = UInt16(littleEndian: intervals.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self))
                return .double(Double(raw) / 1024)
            }
        }
        try reader.expectEnd("payload")
    }

    /// The rate goes out as u8 when it fits, as sensors do; `sensor_contact`, `energy_kj` and
    /// `rr_intervals_s` are written when present.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        let rate = try fields.integer("heart_rate_bpm", in: 0...0xFFFF)
        var flags: UInt8 = rate > 0xFF ? Self.rateIsU16 : 0
        if fields.has("sensor_contact") {
            flags |= Self.contactSupported | (try fields.bool("sensor_contact") ? Self.contactDetected : 0)
        }
        if fields.has("energy_kj") { flags |= Self.energyPresent }
        if fields.has("rr_intervals_s") { flags |= Self.rrPresent }

        var writer = ByteWriter()
        writer.u8(flags)
        if rate > 0xFF { writer.u16le(UInt16(rate)) } else { writer.u8(UInt8(rate)) }
        if fields.has("energy_kj") { writer.u16le(UInt16(try fields.integer("energy_kj", in: 0...0xFFFF))) }
        if fields.has("rr_intervals_s") {
            let intervals = try fields.list("rr_intervals_s")
            guard !intervals.isEmpty else {
                throw EncodeError(.outOfRange("at least one interval"), field: "rr_intervals_s")
            }
            for interval in intervals {
                let one = Fields([Field("rr_intervals_s", interval)])
                writer.u16le(UInt16(try one.raw("rr_intervals_s", divisor: 1024, in: 0...0xFFFF)))
            }
        }
        return writer.bytes
    }
}
