import BluetoothPackets
import ByteReading

/// Combustion Inc. probe UART messages on the Nordic UART service (combustion.md §5).
///
///     request  (write to 6e400002):       CA FE | crc u16 LE | type | length N | payload N
///     response (notify from 6e400003):    CA FE | crc u16 LE | type | success | length N | payload N
///
/// The CRC (CRC-16/CCITT-FALSE) covers everything from the type byte on, the success byte included
/// (§5.2, §8.3: the SDKs' reading, not the spec's wording). One notification may carry several
/// responses; each gives its own outcome. Values that do not start with CA FE are Adafruit text.
public struct CombustionUART: PayloadDecoder, PayloadEncoder {
    public init() {}

    /// 6e400002-b5a3-f393-e0a9-e50e24dcca9e, phone → probe: requests, written.
    public static let rx = BluetoothUUID(high: 0x6E40_0002_B5A3_F393, low: 0xE0A9_E50E_24DC_CA9E)
    /// 6e400003-b5a3-f393-e0a9-e50e24dcca9e, probe → phone: responses, notified.
    public static let tx = BluetoothUUID(high: 0x6E40_0003_B5A3_F393, low: 0xE0A9_E50E_24DC_CA9E)
    static let sync: [UInt8] = [0xCA, 0xFE]

    public var id: String { "combustion.uart" }

    /// Log downloads span many notifications: they are followed and summed up when they end.
    public func makeFollowUp() -> (any DecoderFollowUp)? { CombustionLogDownloads() }
    public var summary: String { "Combustion Inc. probe UART requests and responses (CA FE framing, CRC-16)" }
    public var matches: [MatchKey] { [.characteristic(Self.rx), .characteristic(Self.tx)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("message_type", "message type code"),
            FieldDescription("message", "message name, e.g. read_logs"),
            FieldDescription("direction", "request (written by the phone) or response (notified by the probe)"),
            FieldDescription("success", "responses: whether the probe carried out the request"),
            FieldDescription("payload", "failed responses: their payload as hex, when there is one"),
            FieldDescription("probe_id", "set_probe_id: the new id, 1…8"),
            FieldDescription("color", "set_probe_color: the new colour code, 0…7"),
            FieldDescription("session_id", "read_session_info: random id of this cook"),
            FieldDescription("sample_period_ms", unit: "ms", "read_session_info: time between log records"),
            FieldDescription("start_sequence", "read_logs request: first record wanted"),
            FieldDescription("end_sequence", "read_logs request: last record wanted"),
            FieldDescription("sequence", "read_logs response: the record's sequence number"),
        ] + CombustionAdvert.temperatureDescriptions + [
            FieldDescription("virtual_core", "read_logs: sensor chosen as the core"),
            FieldDescription("virtual_surface", "read_logs: sensor chosen as the surface"),
            FieldDescription("virtual_ambient", "read_logs: sensor chosen as the ambient"),
        ] + CombustionStatus.predictionDescriptions.filter { $0.name != "heat_start_c" } + [
            FieldDescription("over_temperature", "read_over_temperature: the flag kept in flash"),
            FieldDescription("power_mode", "set_power_mode: normal or always_on"),
        ] + CombustionStatus.foodSafeDataDescriptions + CombustionStatus.alarmDescriptions
    }

    enum Direction: String {
        case request, response
    }

    /// Message types of the probe itself (§5.4); MeatNet node messages (§10.1) are not decoded.
    enum MessageType: UInt8, CaseIterable {
        case setProbeID = 0x01, setProbeColor, readSessionInfo, readLogs, setPrediction, readOverTemperature
        case configureFoodSafe, resetFoodSafe, setPowerMode, resetThermometer, setProbeHighLowAlarm, silenceAlarms

        var name: String {
            switch self {
            case .setProbeID: "set_probe_id"
            case .setProbeColor: "set_probe_color"
            case .readSessionInfo: "read_session_info"
            case .readLogs: "read_logs"
            case .setPrediction: "set_prediction"
            case .readOverTemperature: "read_over_temperature"
            case .configureFoodSafe: "configure_food_safe"
            case .resetFoodSafe: "reset_food_safe"
            case .setPowerMode: "set_power_mode"
            case .resetThermometer: "reset_thermometer"
            case .setProbeHighLowAlarm: "set_probe_high_low_alarm"
            case .silenceAlarms: "silence_alarms"
            }
        }
    }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        guard case .attribute(_, let operation) = payload.source, payload.starts(with: Self.sync) else { return [] }
        let direction: Direction = operation.fromServer ? .response : .request
        var outcomes: [DecodeOutcome] = []
        _ = try? ByteReader.reading(payload.bytes) { (reader: inout ByteReader) throws(DecodeError) in
            while !reader.isAtEnd {
                do throws(DecodeError) {
                    var frame = try Frame(reading: &reader, direction)
                    outcomes.append(Self.outcome(of: &frame))
                } catch {
                    // The framing is lost: nothing after this point can be found.
                    outcomes.append(.error(error))
                    return
                }
            }
        }
        return outcomes
    }

    // MARK: - Framing

    /// One message's header and its payload bytes; the CRC is checked afterwards, so that a bad
    /// message still lets the next one in the same notification be read.
    struct Frame {
        var start: Int
        var direction: Direction
        var storedCRC: UInt16
        var computedCRC: UInt16
        var type: UInt8
        var success: Bool?
        var payload: ByteReader

        init(reading reader: inout ByteReader, _ direction: Direction) throws(DecodeError) {
            start = reader.offset
            self.direction = direction
            guard try reader.u16be("sync") == 0xCAFE else {
                throw DecodeError(.badValue("no CA FE sync"), at: start, field: "sync")
            }
            storedCRC = try reader.u16le("crc")
            let covered = reader.unread
            type = try reader.u8("message_type")
            success = direction == .response ? try reader.u8("success") != 0 : nil
            let length = Int(try reader.u8("payload_length"))
            payload = try reader.sub(length, "payload")
            let header = direction == .request ? 2 : 3
            computedCRC = CRC16.ccittFalse(covered.prefix(header + length))
        }
    }

    static func outcome(of frame: inout Frame) -> DecodeOutcome {
        do {
            return .fields(try fields(of: &frame))
        } catch {
            return .error(error)
        }
    }

    static func fields(of frame: inout Frame) throws(DecodeError) -> Fields {
        guard frame.storedCRC == frame.computedCRC else {
            throw DecodeError(
                .badChecksum(expected: UInt32(frame.storedCRC), computed: UInt32(frame.computedCRC)),
                at: frame.start + 2, field: "crc")
        }
        guard let message = MessageType(rawValue: frame.type) else {
            throw DecodeError(
                .badValue("unknown message type 0x\(hex2(frame.type))"), at: frame.start + 4, field: "message_type")
        }
        var fields: Fields = [
            Field("message_type", .int(Int64(frame.type))),
            Field("message", .string(message.name)),
            Field("direction", .string(frame.direction.rawValue)),
        ]
        if let success = frame.success {
            fields.append("success", .bool(success))
            // What a failed response carries is not specified (§5.4): keep it as bytes.
            if !success {
                if !frame.payload.isAtEnd { fields.append("payload", .string(Hex.encode(frame.payload.rest()))) }
                return fields
            }
        }
        try readPayload(message, frame.direction, &frame.payload, into: &fields)
        try frame.payload.expectEnd("payload")
        return fields
    }

    // MARK: - Payloads (§5.4)

    static func readPayload(
        _ message: MessageType, _ direction: Direction, _ reader: inout ByteReader, into fields: inout Fields
    ) throws(DecodeError) {
        switch (message, direction) {
        case (.setProbeID, .request):
            let offset = reader.offset
            let id = try reader.u8("probe_id")
            guard id <= 7 else {
                throw DecodeError(.badValue("probe id \(id) is not 0…7"), at: offset, field: "probe_id")
            }
            fields.append("probe_id", .int(Int64(id) + 1))  // raw 0 is "ID 1"
        case (.setProbeColor, .request):
            let offset = reader.offset
            let color = try reader.u8("color")
            guard color <= 7 else {
                throw DecodeError(.badValue("colour \(color) is not 0…7"), at: offset, field: "color")
            }
            fields.append("color", .int(Int64(color)))
        case (.readSessionInfo, .response):
            fields.append("session_id", .int(Int64(try reader.u32le("session_id"))))
            fields.append("sample_period_ms", .int(Int64(try reader.u16le("sample_period_ms"))))
        case (.readLogs, .request):
            fields.append("start_sequence", .int(Int64(try reader.u32le("start_sequence"))))
            fields.append("end_sequence", .int(Int64(try reader.u32le("end_sequence"))))
        case (.readLogs, .response):
            // One log record: sequence, raw temperatures (§2.3), prediction log (§6.4).
            fields.append("sequence", .int(Int64(try reader.u32le("sequence"))))
            Combustion.appendTemperatures(try Combustion.readTemperatures(&reader), to: &fields)
            try Combustion.readPredictionLog(&reader, into: &fields)
        case (.setPrediction, .request):
            // §6.3.2: set point in bits 0–9 (0.1 °C), prediction mode in bits 10–11.
            let word = try reader.u16le("set_prediction")
            fields.append("prediction_set_point_c", Combustion.tenths(UInt64(word & 0x3FF)))
            fields.append("prediction_mode", Combustion.predictionModes.name(word >> 10 & 0x3))
        case (.readOverTemperature, .response):
            fields.append("over_temperature", .bool(try reader.u8("over_temperature") != 0))
        case (.configureFoodSafe, .request):
            try Combustion.readFoodSafeData(&reader, into: &fields)
        case (.setPowerMode, .request):
            fields.append("power_mode", Combustion.powerModes.name(try reader.u8("power_mode")))
        case (.setProbeHighLowAlarm, .request):
            try Combustion.readAlarms(&reader, "high", into: &fields)
            try Combustion.readAlarms(&reader, "low", into: &fields)
        default:
            break  // no payload
        }
    }

    static func writePayload(
        _ message: MessageType, _ direction: Direction, _ fields: Fields, to writer: inout ByteWriter
    ) throws(EncodeError) {
        switch (message, direction) {
        case (.setProbeID, .request):
            writer.u8(UInt8(try fields.integer("probe_id", in: 1...8) - 1))
        case (.setProbeColor, .request):
            writer.u8(UInt8(try fields.integer("color", in: 0...7)))
        case (.readSessionInfo, .response):
            writer.u32le(UInt32(try fields.integer("session_id", in: 0...0xFFFF_FFFF)))
            writer.u16le(UInt16(try fields.integer("sample_period_ms", in: 0...0xFFFF)))
        case (.readLogs, .request):
            writer.u32le(UInt32(try fields.integer("start_sequence", in: 0...0xFFFF_FFFF)))
            writer.u32le(UInt32(try fields.integer("end_sequence", in: 0...0xFFFF_FFFF)))
        case (.readLogs, .response):
            writer.u32le(UInt32(try fields.integer("sequence", in: 0...0xFFFF_FFFF)))
            try Combustion.writeTemperatures(fields, to: &writer)
            try Combustion.writePredictionLog(fields, to: &writer)
        case (.setPrediction, .request):
            let setPoint = try fields.raw("prediction_set_point_c", divisor: 10, in: 0...0x3FF)
            let mode = try fields.code("prediction_mode", Combustion.predictionModes, max: 3)
            writer.u16le(UInt16(setPoint | mode << 10))
        case (.readOverTemperature, .response):
            writer.u8(try fields.bool("over_temperature") ? 1 : 0)
        case (.configureFoodSafe, .request):
            try Combustion.writeFoodSafeData(fields, to: &writer)
        case (.setPowerMode, .request):
            writer.u8(UInt8(try fields.code("power_mode", Combustion.powerModes, max: 255)))
        case (.setProbeHighLowAlarm, .request):
            try Combustion.writeAlarms(fields, "high", to: &writer)
            try Combustion.writeAlarms(fields, "low", to: &writer)
        default:
            break
        }
    }

    // MARK: - Encoding

    /// One message. Needs `direction`, `message_type` (or `message`), `success` for responses and
    /// the payload fields of that message; a failed response may carry `payload` as hex.
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        guard let direction = Direction(rawValue: try fields.string("direction")) else {
            throw EncodeError(.outOfRange("request or response"), field: "direction")
        }
        let message: MessageType?
        if fields.has("message_type") {
            message = MessageType(rawValue: UInt8(try fields.integer("message_type", in: 0...255)))
        } else {
            let name = try fields.string("message")
            message = MessageType.allCases.first { $0.name == name }
        }
        guard let message else {
            throw EncodeError(
                .outOfRange("a probe message type"), field: fields.has("message_type") ? "message_type" : "message")
        }

        var body = ByteWriter()
        let success = direction == .response ? try fields.bool("success") : nil
        if success == false {
            if fields.has("payload") { body.append(try fields.hexBytes("payload")) }
        } else {
            try Self.writePayload(message, direction, fields, to: &body)
        }
        guard body.count <= 255 else { throw EncodeError(.outOfRange("at most 255 payload bytes"), field: "payload") }

        var covered = ByteWriter()
        covered.u8(message.rawValue)
        if let success { covered.u8(success ? 1 : 0) }
        covered.u8(UInt8(body.count))
        covered.append(body.bytes)

        var writer = ByteWriter()
        writer.append(Self.sync)
        writer.u16le(CRC16.ccittFalse(covered.bytes))
        writer.append(covered.bytes)
        return writer.bytes
    }
}
