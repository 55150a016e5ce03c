import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

struct CombustionStatusTests {
    let decoder = CombustionStatus()

    /// combustion.md §9.3: the 50-byte Probe Status notification.
    static let status50 = """
        00 00 00 00 D2 04 00 00 84 C3 71 60 0E F4 01 4B 80 0C 58 42 6A 44 D4
        53 8A 22 23 4D A0 51
        08 00 00 00 00 00 00 00 00 00
        01 F8 02 80 25 00 00 00
        00 05
        """

    /// combustion.md §9.3: the 94-byte form, T1's high alarm armed at 70.0 °C.
    static let status94 = status50 + " 21 1C" + String(repeating: " 00", count: 42)

    func status(_ text: String) -> Payload {
        .attribute(CombustionStatus.characteristic, .notify, hex(text))
    }

    @Test func `the 50-byte status decodes as in the worked example`() {
        expectFields(
            decodeFields(decoder, status(Self.status50)),
            [
                "min_sequence": 0, "max_sequence": 1234,
                "t1_c": 25.0, "t2_c": 25.5, "t3_c": 26.0, "t4_c": 30.0,
                "t5_c": 40.0, "t6_c": 60.0, "t7_c": 100.0, "t8_c": 150.0,
                "mode": "normal", "color": 1, "color_name": "grey", "probe_id": 3,
                "battery_ok": true, "virtual_core": "T3", "virtual_surface": "T5", "virtual_ambient": "T8",
                "prediction_state": "predicting", "prediction_mode": "time_to_removal", "prediction_type": "removal",
                "prediction_set_point_c": 65.0, "heat_start_c": 20.0, "prediction_value_s": 1234,
                "estimated_core_c": 45.3,
                "food_safe_mode": "simplified", "food_safe_product": 1, "food_safe_product_name": "any_poultry",
                "food_safe_serving": "served_immediately", "food_safe_threshold_c": 0.0, "food_safe_z_value": 0.0,
                "food_safe_reference_c": 0.0, "food_safe_d_value": 0.0, "food_safe_target_log_reduction": 0.0,
                "food_safe_state": "safe", "food_safe_log_reduction": 0.0, "food_safe_above_threshold_s": 95,
                "food_safe_log_sequence": 1200,
                "overheating": .list([]),
                "power_mode": "always_on", "high_radio_power": true,
            ])
    }

    @Test func `the 30-byte status of old firmware stops after the prediction`() {
        let bytes = Array(hex(Self.status50).prefix(30))
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .read, bytes))
        #expect(fields?.names.last == "estimated_core_c")
        #expect(fields?.names.count == 25)
    }

    @Test func `the 48 and 49-byte forms end after food safety and overheating`() {
        let bytes = hex(Self.status50)
        #expect(
            decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, Array(bytes.prefix(48))))?.names
                .last == "food_safe_log_sequence")
        #expect(
            decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, Array(bytes.prefix(49))))?.names
                .last == "overheating")
    }

    @Test func `the 94-byte status carries the alarm arrays`() {
        let fields = decodeFields(decoder, status(Self.status94))
        let others = Array(repeating: FieldValue.bool(false), count: 10)
        #expect(fields?["high_alarm_set"] == .list([true] + others))
        #expect(fields?["high_alarm_tripped"] == .list([false] + others))
        #expect(fields?["high_alarm_alarming"] == .list([false] + others))
        #expect(fields?["high_alarm_c"] == .list([70.0] + Array(repeating: -20.0, count: 10)))
        #expect(fields?["low_alarm_set"] == .list([false] + others))
        #expect(fields?["session_id"] == nil)
    }

    @Test func `an alarm word with set and alarming bits`() {
        // combustion.md §9.3: 25 1C = set + alarming, 70.0 °C.
        let bytes = hex(Self.status50) + hex("25 1C") + [UInt8](repeating: 0, count: 42)
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        guard case .list(let alarming) = fields?["high_alarm_alarming"], case .list(let set) = fields?["high_alarm_set"]
        else { return #expect(Bool(false), "no alarm lists") }
        #expect(alarming.first == true)
        #expect(set.first == true)
    }

    @Test func `the 100-byte status adds session information`() {
        let bytes = hex(Self.status94 + " 78 56 34 12 E8 03")
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        #expect(fields?["session_id"] == 0x1234_5678)
        #expect(fields?["sample_period_ms"] == 1000)
        #expect(fields?.names.last == "sample_period_ms")
    }

    @Test func `the Android prediction status vector decodes`() {
        // combustion.md §9.4 at offset 23 of a 30-byte status.
        let bytes = Array(hex(Self.status50).prefix(23)) + hex("93 A9 AA D9 DB B5 F9")
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        #expect(fields?["prediction_state"] == "predicting")
        #expect(fields?["prediction_mode"] == "time_to_removal")
        #expect(fields?["prediction_type"] == "resting")
        #expect(fields?["prediction_set_point_c"] == 68.1)
        #expect(fields?["heat_start_c"] == 61.8)
        #expect(fields?["prediction_value_s"] == 89533)
        #expect(fields?["estimated_core_c"] == 179.7)
    }

    @Test func `the Android food safe vectors decode`() {
        // combustion.md §9.5: Food Safe Data at offset 30, Food Safe Status at offset 40.
        let bytes = Array(hex(Self.status50).prefix(30)) + hex("79 20 55 55 55 55 55 F9 A8 0A  DA 5D E6 75 D6 7F F7 FD")
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        let foodSafe = fields.map { Fields($0.entries.filter { $0.name.hasPrefix("food_safe") }) }
        expectFields(
            foodSafe,
            [
                "food_safe_mode": "integrated", "food_safe_product": 15, "food_safe_product_name": "dairy_milk",
                "food_safe_serving": "cooked_and_chilled", "food_safe_threshold_c": 273.05,
                "food_safe_z_value": 136.5, "food_safe_reference_c": 273.05, "food_safe_d_value": 229.7,
                "food_safe_target_log_reduction": 17.0,
                "food_safe_state": "safety_impossible", "food_safe_log_reduction": 18.7,
                "food_safe_above_threshold_s": 48331, "food_safe_log_sequence": 0xBEEF_FACE,
            ])
    }

    @Test func `the Android temperature block decodes in a status`() {
        // combustion.md §9.2 at offset 8, mode byte 0 (normal).
        let bytes =
            hex("00 00 00 00 00 00 00 00 89 00 DA 00 D7 0D 07 33 05 D5 18 74 1A 00 00")
            + [UInt8](repeating: 0, count: 7)
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        #expect((1...8).map { fields?["t\($0)_c"] } == [-13.15, 67.2, 258.4, 160.55, 225.6, 114.5, 189.75, 22.3])
        #expect(fields?["prediction_state"] == "probe_not_inserted")
        #expect(fields?["estimated_core_c"] == -20.0)
    }

    @Test func `reserved codes keep their number`() {
        // prediction state 7 (reserved), virtual core 6 (undefined), mode 3 (error)
        var bytes = [UInt8](repeating: 0, count: 30)
        bytes[21] = 0x03
        bytes[22] = 0x06 << 1
        bytes[23] = 0x07
        let fields = decodeFields(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        #expect(fields?["prediction_state"] == "reserved_7")
        #expect(fields?["virtual_core"] == "reserved_6")
        #expect(fields?["mode"] == "error")
        #expect(fields?["t2_c"] == -20.0)
    }

    @Test func `a status shorter than 30 bytes is an error`() {
        let error = decodeError(
            decoder, .attribute(CombustionStatus.characteristic, .notify, Array(hex(Self.status50).prefix(29))))
        #expect(error == DecodeError(.badLength(declared: 30, available: 29), at: 0, field: "payload"))
    }

    @Test func `a status cut inside a block reports the leftover bytes`() {
        let bytes = hex(Self.status94 + " 78 56 34 12 E8 03")
        let cases: [(length: Int, error: DecodeError)] = [
            (35, DecodeError(.trailingBytes(count: 5), at: 30, field: "food_safe_data")),
            (60, DecodeError(.trailingBytes(count: 10), at: 50, field: "high_alarms")),
            (93, DecodeError(.trailingBytes(count: 21), at: 72, field: "low_alarms")),
            (97, DecodeError(.trailingBytes(count: 3), at: 94, field: "session_id")),
        ]
        for (length, expected) in cases {
            let payload = Payload.attribute(CombustionStatus.characteristic, .notify, Array(bytes.prefix(length)))
            #expect(decodeError(decoder, payload) == expected, "length \(length)")
        }
    }

    @Test func `a status longer than 100 bytes is an error`() {
        let bytes = hex(Self.status94 + " 78 56 34 12 E8 03 00")
        let error = decodeError(decoder, .attribute(CombustionStatus.characteristic, .notify, bytes))
        #expect(error == DecodeError(.trailingBytes(count: 1), at: 100, field: "payload"))
    }

    @Test func `encoding writes the worked examples`() throws {
        for text in [Self.status50, Self.status94] {
            let fields = try #require(decodeFields(decoder, status(text)))
            #expect(try decoder.encode(fields) == hex(text))
        }
        let thirty = try #require(
            decodeFields(
                decoder, .attribute(CombustionStatus.characteristic, .notify, Array(hex(Self.status50).prefix(30)))))
        #expect(try decoder.encode(thirty) == Array(hex(Self.status50).prefix(30)))
    }

    @Test func `encoding rejects a wrong alarm list`() throws {
        var fields = try #require(decodeFields(decoder, status(Self.status94)))
        fields.entries.removeAll { $0.name == "low_alarm_c" }
        fields.append("low_alarm_c", .list([20.0]))
        #expect(encodeError(decoder, fields) == EncodeError(.outOfRange("11 entries"), field: "low_alarm_c"))
    }

    @Test func `decode of encode gives the fields back`() {
        var generator = TestRandom(seed: 0x5747)
        let lengths = [30, 48, 49, 50, 72, 94, 100]
        let payloads = (0..<350).map { generator.bytes(lengths[$0 % lengths.count]) }
        #expect(expectRoundTrips(decoder, payloads) == 350)
    }
}
