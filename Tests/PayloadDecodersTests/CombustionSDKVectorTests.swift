import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

/// Every vector of the Combustion Android SDK's own tests (combustion-inc/combustion-android-ble @
/// 83eab7f1, copies in ../shared/vectors/combustion-android-ble__*.kt), restated: the bytes each
/// test builds and the values it expects. Where the SDK reports something the bytes do not say
/// (defaults for bytes that are not there, overheating worked out from temperatures, an unpadded
/// serial), the decoders follow the bytes, and the test says why. ProbeTemperaturesTest.kt holds
/// no test (an empty class); its temperatures are ProbeStatusTest's.
struct CombustionSDKVectorTests {
    // MARK: - ProbeAdvertisingDataTest.kt

    /// `buildManufacturerData`'s defaults: serial 78 56 34 12, mode/colour/id 0b101_110_01
    /// (instant read, COLOR7, ID6), status 0b10_11_101_1 (low battery, core T6, surface T7,
    /// ambient T7), network 0b1000_0000 (HOP3), overheating 0, preferences 0b100. The SDK takes
    /// the product type apart from the bytes and leaves byte 0 zero; here it is the product type
    /// (1 probe, 2 a repeater, the SDK's NODE), as it is on the air (combustion.md §2.2).
    static func advert(
        product: UInt8 = 1, temperatures: [UInt8] = cold, modeColorID: UInt8 = 0b101_110_01,
        status: UInt8 = 0b10_11_101_1, network: UInt8 = 0b1000_0000, overheating: UInt8 = 0, preferences: UInt8 = 0b100,
        size: Int = 23
    ) -> Payload {
        let bytes = [product, 0x78, 0x56, 0x34, 0x12] + temperatures + [modeColorID, status, network, overheating, preferences]
        return .manufacturer(0x09C7, Array(bytes.prefix(size)))
    }

    /// `COLD_RAW_TEMPERATURES`: all raw 0, −20 °C on every sensor.
    static let cold = [UInt8](repeating: 0, count: 13)
    /// `HOT_RAW_TEMPERATURES` (also ProbeStatusTest's): T1…T8 = −13.15, 67.2, 258.4, 160.55,
    /// 225.6, 114.5, 189.75, 22.3 °C.
    static let hot = hex("89 00 DA 00 D7 0D 07 33 05 D5 18 74 1A")
    static let hotCelsius: [FieldValue] = [-13.15, 67.2, 258.4, 160.55, 225.6, 114.5, 189.75, 22.3]

    let advertDecoder = CombustionAdvert()

    func temperatures(_ fields: Fields?) -> [FieldValue?] { (1...8).map { fields?["t\($0)_c"] } }

    @Test func `create parses serial number`() {
        #expect(decodeFields(advertDecoder, Self.advert())?["serial"] == "12345678")
    }

    @Test func `create passes through a zero serial number unpadded`() {
        // The SDK says "0"; the serial is four bytes and the apps show it as 8 hex digits
        // (combustion.md §2.2, %08X), so the reading says "00000000": the same four zero bytes.
        let fields = decodeFields(advertDecoder, Self.advert(product: 2).withSerial(0))
        #expect(fields?["serial"] == "00000000")
    }

    @Test func `create parses temperatures, in instant read mode too`() {
        // The SDK expects T3 258.4 and T4 160.55 (±0.05) from a probe whose mode byte says instant
        // read: every sensor holds what was sent, and the mode says which mode the probe was in.
        let fields = decodeFields(advertDecoder, Self.advert(temperatures: Self.hot))
        #expect(fields?["mode"] == "instant_read")
        #expect(temperatures(fields) == Self.hotCelsius)
    }

    @Test func `create parses mode color and id`() {
        let fields = decodeFields(advertDecoder, Self.advert())
        #expect(fields?["mode"] == "instant_read")
        #expect(fields?["color"] == 6)  // the SDK's COLOR7: colours count from COLOR1 = 0
        #expect(fields?["probe_id"] == 6)  // ID6
    }

    @Test func `create defaults mode color and id when byte is not present`() {
        // The SDK fills in NORMAL, COLOR1, ID1. An 18-byte advert holds no such byte, so the
        // reading has no mode, colour or id rather than invented ones.
        let fields = decodeFields(advertDecoder, Self.advert(size: 18))
        #expect(fields?.names == ["product_type", "product", "serial"] + (1...8).map { "t\($0)_c" })
        #expect(temperatures(fields) == Array(repeating: -20.0, count: 8))
    }

    @Test func `create parses battery status and virtual sensors`() {
        let fields = decodeFields(advertDecoder, Self.advert())
        #expect(fields?["battery_ok"] == false)  // LOW_BATTERY
        #expect(fields?["virtual_core"] == "T6")
        #expect(fields?["virtual_surface"] == "T7")
        #expect(fields?["virtual_ambient"] == "T7")
    }

    @Test func `create defaults battery status and virtual sensors when byte is not present`() {
        // The SDK: OK and its default sensors. A 19-byte advert ends after the mode byte.
        let fields = decodeFields(advertDecoder, Self.advert(size: 19))
        #expect(fields?.names.last == "probe_id")
        #expect(fields?["battery_ok"] == nil)
    }

    @Test func `create parses hop count for a repeater`() {
        let fields = decodeFields(advertDecoder, Self.advert(product: 2))
        #expect(fields?["product"] == "repeater")
        #expect(fields?["hop_count"] == 3)  // HOP3: bits 6–7 = 2
    }

    @Test func `create ignores hop count for a probe`() {
        // The SDK gives 0; a probe's own advert carries no hop count, so there is none, and the
        // byte is kept as sent.
        let fields = decodeFields(advertDecoder, Self.advert(product: 1))
        #expect(fields?["hop_count"] == nil)
        #expect(fields?["network_info"] == 0x80)
    }

    @Test func `create ignores the raw overheating byte, even when it disagrees with hot temperatures`() {
        // The SDK derives [2, 3] (T3 ≥ 115 °C, T4 ≥ 125 °C) from the temperatures and ignores the
        // byte, which says T1 and T3. The reading follows the bytes: the byte as sent, and the
        // temperatures it disagrees with beside it (combustion.md §6.8: report the raw byte).
        let fields = decodeFields(advertDecoder, Self.advert(temperatures: Self.hot, overheating: 0b0000_0101))
        #expect(fields?["overheating"] == .list(["T1", "T3"]))
        #expect(fields?["t3_c"] == 258.4)
        #expect(fields?["t4_c"] == 160.55)
    }

    @Test func `create ignores the raw overheating byte when no temperature exceeds its threshold`() {
        // The SDK: none (a repeater firmware bug flagged all). The byte flags all eight.
        let fields = decodeFields(advertDecoder, Self.advert(overheating: 0xFF))
        #expect(fields?["overheating"] == .list(["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"]))
        #expect(temperatures(fields) == Array(repeating: -20.0, count: 8))
    }

    @Test func `create falls back to temperature-derived overheating when byte is not present`() {
        // The SDK: [2, 3] from the temperatures. A 21-byte advert has no overheating byte, so the
        // reading has no overheating field; the temperatures are there.
        let fields = decodeFields(advertDecoder, Self.advert(temperatures: Self.hot, size: 21))
        #expect(fields?["overheating"] == nil)
        #expect(fields?.names.last == "network_info")
        #expect(temperatures(fields) == Self.hotCelsius)
    }

    @Test func `create parses thermometer preferences`() {
        let fields = decodeFields(advertDecoder, Self.advert(preferences: 0b0000_0101))
        #expect(fields?["power_mode"] == "always_on")
        #expect(fields?["high_radio_power"] == true)
    }

    @Test func `create leaves thermometer preferences null when byte is not present`() {
        let fields = decodeFields(advertDecoder, Self.advert(size: 22))
        #expect(fields?["power_mode"] == nil)
        #expect(fields?["high_radio_power"] == nil)
        #expect(fields?.names.last == "overheating")
    }

    @Test func `create sets base advertising data fields`() {
        // Address, name, RSSI and connectability are the scan's, not the payload's: a reading
        // carries the address (`addr`); the payload gives the product type.
        let fields = decodeFields(advertDecoder, Self.advert())
        #expect(fields?["product_type"] == 1)
        #expect(fields?["product"] == "probe")
    }

    // MARK: - ProbeStatusTest.kt

    let statusDecoder = CombustionStatus()

    /// `UByteArray(size) { 0xFFu }` with the test's bytes written over it.
    static func status(size: Int = 48, _ writes: [Int: [UInt8]] = [:]) -> Payload {
        var bytes = [UInt8](repeating: 0xFF, count: size)
        for (offset, values) in writes { bytes.replaceSubrange(offset..<offset + values.count, with: values) }
        return .attribute(CombustionStatus.characteristic, .notify, bytes)
    }

    static let prediction = hex("93 A9 AA D9 DB B5 F9")  // raw[23…29] of `fromRaw prediction status`
    /// `FoodSafeData.Integrated(DairyMilkLessThan10PercentFat, CookAndChill, 273.05, 136.5, 273.05,
    /// 229.7, 17.0).toRaw`, worked out from combustion.md §6.5's bit positions (mode 1, product 15,
    /// serving 1, raw 5461, 2730, 5461, 4594, 170).
    static let foodSafeData = hex("79 20 55 55 55 55 55 F9 A8 0A")
    static let foodSafeStatus = hex("DA 5D E6 75 D6 7F F7 FD")  // raw[40…47] of `fromRaw food safe status`

    @Test func `Not enough data returns null`() {
        #expect(
            decodeError(statusDecoder, Self.status(size: 13))
                == DecodeError(.badLength(declared: 30, available: 13), at: 0, field: "payload"))
    }

    @Test func `Not including food safe doesn't populate food safe`() {
        let fields = decodeFields(statusDecoder, Self.status(size: 30))
        #expect(fields?.names.contains { $0.hasPrefix("food_safe") } == false)
        #expect(fields?.names.last == "estimated_core_c")
    }

    @Test func `fromRaw minSequenceNumber`() {
        #expect(decodeFields(statusDecoder, Self.status([0: [0xAA, 0xAA, 0xAA, 0xAA]]))?["min_sequence"] == 0xAAAA_AAAA)
    }

    @Test func `fromRaw maxSequenceNumber`() {
        #expect(decodeFields(statusDecoder, Self.status([4: [0x55, 0x55, 0x55, 0x55]]))?["max_sequence"] == 0x5555_5555)
    }

    @Test func `fromRaw temperatures`() {
        // The rest is 0xFF (mode 3, error).
        #expect(temperatures(decodeFields(statusDecoder, Self.status([8: Self.hot]))) == Self.hotCelsius)
    }

    @Test func `fromRaw modeColorId`() {
        let fields = decodeFields(statusDecoder, Self.status([21: [0b101_110_01]]))
        #expect(fields?["mode"] == "instant_read")
        #expect(fields?["color"] == 6)
        #expect(fields?["probe_id"] == 6)
        // The temperature bytes are 0xFF: raw 8191 on every sensor, 389.55 °C, T2–T8 included.
        #expect(temperatures(fields) == Array(repeating: 389.55, count: 8))
    }

    @Test func `fromRaw status`() {
        let fields = decodeFields(statusDecoder, Self.status([22: [0b10_11_101_1]]))
        #expect(fields?["battery_ok"] == false)
        #expect(fields?["virtual_core"] == "T6")
        #expect(fields?["virtual_surface"] == "T7")
        #expect(fields?["virtual_ambient"] == "T7")
    }

    @Test func `fromRaw prediction status`() {
        let fields = decodeFields(statusDecoder, Self.status([23: Self.prediction]))
        #expect(fields?["prediction_state"] == "predicting")
        #expect(fields?["prediction_mode"] == "time_to_removal")
        #expect(fields?["prediction_type"] == "resting")
        #expect(fields?["prediction_set_point_c"] == 68.1)
        #expect(fields?["heat_start_c"] == 61.8)
        #expect(fields?["prediction_value_s"] == 89533)
        #expect(fields?["estimated_core_c"] == 179.7)  // the SDK's (1997 × 0.1) − 20
    }

    @Test func `fromRaw food safe data`() {
        let fields = decodeFields(statusDecoder, Self.status([30: Self.foodSafeData]))
        #expect(fields?["food_safe_mode"] == "integrated")
        #expect(fields?["food_safe_product"] == 15)
        #expect(fields?["food_safe_product_name"] == "dairy_milk")  // DairyMilkLessThan10PercentFat
        #expect(fields?["food_safe_serving"] == "cooked_and_chilled")  // CookAndChill
        #expect(fields?["food_safe_threshold_c"] == 273.05)
        #expect(fields?["food_safe_z_value"] == 136.5)
        #expect(fields?["food_safe_reference_c"] == 273.05)
        #expect(fields?["food_safe_d_value"] == 229.7)
        #expect(fields?["food_safe_target_log_reduction"] == 17.0)
    }

    @Test func `fromRaw food safe status`() {
        let fields = decodeFields(statusDecoder, Self.status([40: Self.foodSafeStatus]))
        #expect(fields?["food_safe_state"] == "safety_impossible")
        #expect(fields?["food_safe_log_reduction"] == 18.7)
        #expect(fields?["food_safe_above_threshold_s"] == 48331)
        #expect(fields?["food_safe_log_sequence"] == 0xBEEF_FACE)
    }

    @Test func `fromRaw overall`() {
        let payload = Self.status([
            0: [0xAA, 0xAA, 0xAA, 0xAA], 4: [0x55, 0x55, 0x55, 0x55], 8: Self.hot, 21: [0b101_110_01],
            22: [0b10_11_101_1], 23: Self.prediction, 30: Self.foodSafeData, 40: Self.foodSafeStatus,
        ])
        expectFields(
            decodeFields(statusDecoder, payload),
            [
                "min_sequence": 0xAAAA_AAAA, "max_sequence": 0x5555_5555,
                // Instant read, and all eight temperatures as the SDK reports them.
                "t1_c": -13.15, "t2_c": 67.2, "t3_c": 258.4, "t4_c": 160.55,
                "t5_c": 225.6, "t6_c": 114.5, "t7_c": 189.75, "t8_c": 22.3,
                "mode": "instant_read", "color": 6, "probe_id": 6,
                "battery_ok": false, "virtual_core": "T6", "virtual_surface": "T7", "virtual_ambient": "T7",
                "prediction_state": "predicting", "prediction_mode": "time_to_removal", "prediction_type": "resting",
                "prediction_set_point_c": 68.1, "heat_start_c": 61.8, "prediction_value_s": 89533,
                "estimated_core_c": 179.7,
                "food_safe_mode": "integrated", "food_safe_product": 15, "food_safe_product_name": "dairy_milk",
                "food_safe_serving": "cooked_and_chilled", "food_safe_threshold_c": 273.05,
                "food_safe_z_value": 136.5, "food_safe_reference_c": 273.05, "food_safe_d_value": 229.7,
                "food_safe_target_log_reduction": 17.0,
                "food_safe_state": "safety_impossible", "food_safe_log_reduction": 18.7,
                "food_safe_above_threshold_s": 48331, "food_safe_log_sequence": 0xBEEF_FACE,
            ])
    }
}

extension Payload {
    /// The same advert with another serial (bytes 1…4).
    fileprivate func withSerial(_ serial: UInt32) -> Payload {
        var copy = self
        for index in 0..<4 { copy.bytes[1 + index] = UInt8(truncatingIfNeeded: serial >> (8 * UInt32(index))) }
        return copy
    }
}
