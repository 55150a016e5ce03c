import BluetoothPackets
import ByteReading

/// GATT UTF-8 strings: Device Name (0x2A00) and the Device Information strings — model 0x2A24,
/// serial 0x2A25, firmware 0x2A26, hardware 0x2A27, software 0x2A28, manufacturer 0x2A29
/// (payloads.md §D.1). No terminator is defined; trailing NULs are dropped.
public struct SIGText: PayloadDecoder {
    public init() {}

    public static let characteristics: [UInt32] = [0x2A00, 0x2A24, 0x2A25, 0x2A26, 0x2A27, 0x2A28, 0x2A29]

    public var id: String { "sig.text" }
    public var summary: String { "GATT device name and Device Information strings" }
    public var matches: [MatchKey] { Self.characteristics.map { .characteristic(BluetoothUUID($0)) } }
    public var fields: [FieldDescription] {
        [FieldDescription("text", "the string, without trailing NULs")]
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        let offset = reader.offset
        guard let text = UTF8Text.decode(reader.rest()) else {
            throw DecodeError(.badValue("not UTF-8"), at: offset, field: "text")
        }
        var scalars = Substring(text).unicodeScalars
        while scalars.last == "\0" { scalars.removeLast() }
        return [Field("text", .string(String(scalars)))]
    }
}
