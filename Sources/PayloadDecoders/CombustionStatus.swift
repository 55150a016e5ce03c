import BluetoothPackets
import ByteReading

/// Combustion Inc. Probe Status characteristic (combustion.md §4), notified once per measurement and
/// readable. Firmware appends fields over time, so the value is decoded by its length:
///
///     0…3    min sequence          u32 LE                                   30 bytes: old firmware
///     4…7    max sequence          u32 LE
///     8…20   raw temperatures      §2.3
///     21     mode / colour / id    §6.1
///     22     battery + virtual     §6.2
///     23…29  prediction status     §6.3
///     30…39  food safe data        §6.5                                     48: food safe
///     40…47  food safe status      §6.6
///     48     overheating sensors   §6.8                                     49
///     49     preferences           §6.7                                     50
///     50…71  high alarms           11 × u16 LE (§6.10)                      72 (iOS reads these alone)
///     72…93  low alarms            11 × u16 LE                              94
///     94…97  session id            u32 LE (not in the spec; newer iOS)     100
///     98…99  sample period         u16 LE, ms
///
/// Bytes that end part-way through a block are reported as trailing bytes.
public struct CombustionStatus: PayloadDecoder, PayloadEncoder {
    public init() {}

    /// 00000101-caab-3792-3d44-97ae51c1407a
    public static let characteristic = BluetoothUUID(high: 0x0000_0101_CAAB_3792, low: 0x3D44_97AE_51C1_407A)

    public var id: String { "combustion.status" }
    public var summary: String { "Combustion Inc. probe status: temperatures, prediction, food safety, alarms" }
    public var matches: [MatchKey] { [.characteristic(Self.characteristic)] }
    public var fields: [FieldDescription] {
        [
            FieldDescription("min_sequence", "oldest log record still on the probe"),
            FieldDescription("max_sequence", "newest log record"),
        ] + CombustionAdvert.temperatureDescriptions + [
            FieldDescription("mode", "normal, instant_read, reserved or error"),
            FieldDescription("color", "probe colour code 0…7"),
            FieldDescription("color_name", "yellow or grey, the colours the spec names"),
            FieldDescription("probe_id", "probe id 1…8"),
            FieldDescription("battery_ok", "false when the battery is low"),
            FieldDescription("virtual_core", "sensor chosen as the core (T1…T6)"),
            FieldDescription("virtual_surface", "sensor chosen as the surface (T4…T7)"),
            FieldDescription("virtual_ambient", "sensor chosen as the ambient (T5…T8)"),
        ] + Self.predictionDescriptions + Self.foodSafeDataDescriptions + Self.foodSafeStatusDescriptions + [
            FieldDescription("overheating", "sensors reported overheating (49 bytes and up)"),
            FieldDescription("power_mode", "normal or always_on (50 bytes and up)"),
            FieldDescription("high_radio_power", "transmits at +8 dBm (50 bytes and up)"),
        ] + Self.alarmDescriptions + [
            FieldDescription("session_id", "random id of this cook (100 bytes)"),
            FieldDescription("sample_period_ms", unit: "ms", "time between log records (100 bytes)"),
        ]
    }

    static let predictionDescriptions = [
        FieldDescription("prediction_state", "probe_not_inserted, probe_inserted, warming, predicting, …"),
        FieldDescription("prediction_mode", "none, time_to_removal, removal_and_resting"),
        FieldDescription("prediction_type", "what prediction_value_s counts down to: none, removal, resting"),
        FieldDescription("prediction_set_point_c", unit: "°C", "target core temperature, 0.1 °C steps"),
        FieldDescription("heat_start_c", unit: "°C", "core temperature when heating started"),
        FieldDescription("prediction_value_s", unit: "s", "seconds until the predicted event"),
        FieldDescription("estimated_core_c", unit: "°C", "estimated core temperature, 0.1 °C steps"),
    ]

    static let foodSafeDataDescriptions = [
        FieldDescription("food_safe_mode", "simplified or integrated (48 bytes and up)"),
        FieldDescription("food_safe_product", "product code; its meaning depends on the mode"),
        FieldDescription("food_safe_product_name", "product name, when the code has one"),
        FieldDescription("food_safe_serving", "served_immediately or cooked_and_chilled"),
        FieldDescription("food_safe_threshold_c", unit: "°C", "selected threshold reference temperature"),
        FieldDescription("food_safe_z_value", "Z-value, 0.05 steps"),
        FieldDescription("food_safe_reference_c", unit: "°C", "reference temperature for the D-value"),
        FieldDescription("food_safe_d_value", "D-value at the reference temperature, 0.05 steps"),
        FieldDescription("food_safe_target_log_reduction", "target log reduction, 0.1 steps"),
    ]

    static let foodSafeStatusDescriptions = [
        FieldDescription("food_safe_state", "not_safe, safe or safety_impossible"),
        FieldDescription("food_safe_log_reduction", "log reduction achieved, 0.1 steps"),
        FieldDescription("food_safe_above_threshold_s", unit: "s", "seconds above the threshold"),
        FieldDescription("food_safe_log_sequence", "log record at which the food became safe"),
    ]

    static let alarmDescriptions = ["high", "low"].flatMap { kind in
        [
            FieldDescription("\(kind)_alarm_set", "\(kind) alarms armed, T1…T8, core, surface, ambient"),
            FieldDescription("\(kind)_alarm_tripped", "\(kind) alarms tripped, same order"),
            FieldDescription("\(kind)_alarm_alarming", "\(kind) alarms sounding, same order"),
            FieldDescription("\(kind)_alarm_c", unit: "°C", "\(kind) alarm temperatures, same order"),
        ]
    }

    static let minimumLength = 30
    static let maximumLength = 100

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes, Self.read)]
    }

    static func read(_ reader: inout ByteReader) throws(DecodeError) -> Fields {
        guard reader.remaining >= minimumLength else {
            throw DecodeError(
                .badLength(declared: minimumLength, available: reader.remaining), at: reader.offset, field: "payload")
        }
        var fields = Fields()
        fields.append("min_sequence", .int(Int64(try reader.u32le("min_sequence"))))
        fields.append("max_sequence", .int(Int64(try reader.u32le("max_sequence"))))
        Combustion.appendTemperatures(try Combustion.readTemperatures(&reader), to: &fields)
        Combustion.appendModeColorID(try reader.u8("mode"), to: &fields)
        Combustion.appendBatteryAndVirtualSensors(try reader.u8("battery_ok"), to: &fields)
        try Combustion.readPredictionStatus(&reader, into: &fields)

        // The blocks firmware added later, oldest first. Each is read only when it is there whole;
        // a value that ends part-way through one reports the leftover bytes.
        guard reader.remaining >= 18 else { return try ending(reader, fields, "food_safe_data") }
        try Combustion.readFoodSafeData(&reader, into: &fields)
        try Combustion.readFoodSafeStatus(&reader, into: &fields)
        guard !reader.isAtEnd else { return fields }
        Combustion.appendOverheating(try reader.u8("overheating"), to: &fields)
        guard !reader.isAtEnd else { return fields }
        Combustion.appendPreferences(try reader.u8("power_mode"), to: &fields)
        guard reader.remaining >= 22 else { return try ending(reader, fields, "high_alarms") }
        try Combustion.readAlarms(&reader, "high", into: &fields)
        guard reader.remaining >= 22 else { return try ending(reader, fields, "low_alarms") }
        try Combustion.readAlarms(&reader, "low", into: &fields)
        guard reader.remaining >= 6 else { return try ending(reader, fields, "session_id") }
        fields.append("session_id", .int(Int64(try reader.u32le("session_id"))))
        fields.append("sample_period_ms", .int(Int64(try reader.u16le("sample_period_ms"))))
        return try ending(reader, fields, "payload")
    }

    /// The fields read so far, when nothing is left over.
    private static func ending(_ reader: ByteReader, _ fields: Fields, _ block: String) throws(DecodeError) -> Fields {
        try reader.expectEnd(block)
        return fields
    }

    /// The length follows the fields given: 30 bytes, then each optional block whose first field
    /// is present (food_safe_mode, overheating, power_mode, high_alarm_set, low_alarm_set, session_id).
    public func encode(_ fields: Fields) throws(EncodeError) -> [UInt8] {
        var writer = ByteWriter(capacity: Self.maximumLength)
        writer.u32le(UInt32(try fields.integer("min_sequence", in: 0...0xFFFF_FFFF)))
        writer.u32le(UInt32(try fields.integer("max_sequence", in: 0...0xFFFF_FFFF)))
        try Combustion.writeTemperatures(fields, to: &writer)
        writer.u8(try Combustion.modeColorIDByte(fields))
        writer.u8(try Combustion.batteryAndVirtualSensorsByte(fields))
        try Combustion.writePredictionStatus(fields, to: &writer)

        guard fields.has("food_safe_mode") else { return writer.bytes }
        try Combustion.writeFoodSafeData(fields, to: &writer)
        try Combustion.writeFoodSafeStatus(fields, to: &writer)
        guard fields.has("overheating") else { return writer.bytes }
        writer.u8(try Combustion.overheatingByte(fields))
        guard fields.has("power_mode") else { return writer.bytes }
        writer.u8(try Combustion.preferencesByte(fields))
        guard fields.has("high_alarm_set") else { return writer.bytes }
        try Combustion.writeAlarms(fields, "high", to: &writer)
        guard fields.has("low_alarm_set") else { return writer.bytes }
        try Combustion.writeAlarms(fields, "low", to: &writer)
        guard fields.has("session_id") else { return writer.bytes }
        writer.u32le(UInt32(try fields.integer("session_id", in: 0...0xFFFF_FFFF)))
        writer.u16le(UInt16(try fields.integer("sample_period_ms", in: 0...0xFFFF)))
        return writer.bytes
    }
}
