import ByteReading

/// The Combustion probe's packed prediction and food-safety blocks (combustion.md §6.3–§6.6).
/// Bit positions are 0-based (start, width) into the block read as one little-endian integer.
extension Combustion {
    static let predictionStates: CodeNames = [
        0: "probe_not_inserted", 1: "probe_inserted", 2: "warming", 3: "predicting", 4: "removal_prediction_done",
        15: "unknown",
    ]
    static let predictionModes: CodeNames = [0: "none", 1: "time_to_removal", 2: "removal_and_resting", 3: "reserved"]
    static let predictionTypes: CodeNames = [0: "none", 1: "removal", 2: "resting", 3: "reserved"]

    /// raw × 0.1 °C (set point, heat start: no offset).
    static func tenths(_ raw: UInt64) -> FieldValue { .double(Double(raw) / 10) }
    /// raw × 0.1 − 20 °C (estimated core, alarm temperatures).
    static func tenthsFromMinus20(_ raw: UInt64) -> FieldValue { .double(Double(Int64(raw) - 200) / 10) }

    // MARK: - §6.3 Prediction Status (7 bytes)

    static func readPredictionStatus(_ reader: inout ByteReader, into fields: inout Fields) throws(DecodeError) {
        let bits = try PackedBits(reading: &reader, byteCount: 7, "prediction_status")
        fields.append("prediction_state", predictionStates.name(bits[0, 4]))
        fields.append("prediction_mode", predictionModes.name(bits[4, 2]))
        fields.append("prediction_type", predictionTypes.name(bits[6, 2]))
        fields.append("prediction_set_point_c", tenths(bits[8, 10]))
        fields.append("heat_start_c", tenths(bits[18, 10]))
        fields.append("prediction_value_s", .int(Int64(bits[28, 17])))
        fields.append("estimated_core_c", tenthsFromMinus20(bits[45, 11]))
    }

    static func writePredictionStatus(_ fields: Fields, to writer: inout ByteWriter) throws(EncodeError) {
        var bits = PackedBits(byteCount: 7)
        bits[0, 4] = UInt64(try fields.code("prediction_state", predictionStates, max: 15))
        bits[4, 2] = UInt64(try fields.code("prediction_mode", predictionModes, max: 3))
        bits[6, 2] = UInt64(try fields.code("prediction_type", predictionTypes, max: 3))
        bits[8, 10] = UInt64(try fields.raw("prediction_set_point_c", divisor: 10, in: 0...1023))
        bits[18, 10] = UInt64(try fields.raw("heat_start_c", divisor: 10, in: 0...1023))
        bits[28, 17] = UInt64(try fields.integer("prediction_value_s", in: 0...0x1FFFF))
        bits[45, 11] = UInt64(try fields.raw("estimated_core_c", divisor: 10, offset: 200, in: 0...2047))
        bits.write(to: &writer)
    }

    // MARK: - §6.4 Prediction Log (7 bytes; no heat start, virtual sensors first)

    static func readPredictionLog(_ reader: inout ByteReader, into fields: inout Fields) throws(DecodeError) {
        let bits = try PackedBits(reading: &reader, byteCount: 7, "prediction_log")
        appendVirtualSensors(bits[0, 7], to: &fields)
        fields.append("prediction_state", predictionStates.name(bits[7, 4]))
        fields.append("prediction_mode", predictionModes.name(bits[11, 2]))
        fields.append("prediction_type", predictionTypes.name(bits[13, 2]))
        fields.append("prediction_set_point_c", tenths(bits[15, 10]))
        fields.append("prediction_value_s", .int(Int64(bits[25, 17])))
        fields.append("estimated_core_c", tenthsFromMinus20(bits[42, 11]))
        // bits 53…55 are reserved
    }

    static func writePredictionLog(_ fields: Fields, to writer: inout ByteWriter) throws(EncodeError) {
        var bits = PackedBits(byteCount: 7)
        bits[0, 7] = try virtualSensorBits(fields)
        bits[7, 4] = UInt64(try fields.code("prediction_state", predictionStates, max: 15))
        bits[11, 2] = UInt64(try fields.code("prediction_mode", predictionModes, max: 3))
        bits[13, 2] = UInt64(try fields.code("prediction_type", predictionTypes, max: 3))
        bits[15, 10] = UInt64(try fields.raw("prediction_set_point_c", divisor: 10, in: 0...1023))
        bits[25, 17] = UInt64(try fields.integer("prediction_value_s", in: 0...0x1FFFF))
        bits[42, 11] = UInt64(try fields.raw("estimated_core_c", divisor: 10, offset: 200, in: 0...2047))
        bits.write(to: &writer)
    }

    // MARK: - §6.5 Food Safe Data (10 bytes; also the Configure Food Safe payload)

    static let foodSafeModes: CodeNames = [0: "simplified", 1: "integrated"]
    static let servings: CodeNames = [0: "served_immediately", 1: "cooked_and_chilled"]
    static let simplifiedProducts: CodeNames = [
        0: "default", 1: "any_poultry", 2: "beef_cuts", 3: "pork_cuts", 4: "veal_cuts", 5: "lamb_cuts",
        6: "ground_meats", 7: "ham_fresh_or_smoked", 8: "ham_cooked_and_reheated", 9: "eggs",
        10: "fish_and_shellfish", 11: "leftovers", 12: "casseroles",
    ]
    /// The current spec's names; 3 and 5–12 are deprecated codes, named as the iOS SDK names them.
    static let integratedProducts: CodeNames = [
        0: "poultry", 1: "meats", 2: "meats_ground", 3: "chicken", 4: "poultry_ground", 5: "pork",
        6: "pork_ground", 7: "ham", 8: "ham_ground", 9: "turkey", 10: "turkey_ground", 11: "lamb",
        12: "lamb_ground", 13: "seafood", 14: "seafood_ground", 15: "dairy_milk", 16: "other",
        17: "seafood_stuffed", 18: "eggs", 19: "egg_yolk", 20: "egg_white", 21: "dairy_creams",
        22: "dairy_ice_cream_mix", 1023: "custom",
    ]

    /// raw × 0.05, no offset (food-safe temperatures).
    static func twentieths(_ raw: UInt64) -> FieldValue { .double(Double(raw) / 20) }

    static func readFoodSafeData(_ reader: inout ByteReader, into fields: inout Fields) throws(DecodeError) {
        let bits = try PackedBits(reading: &reader, byteCount: 10, "food_safe_data")
        let mode = bits[0, 3]
        fields.append("food_safe_mode", foodSafeModes.name(mode))
        fields.append("food_safe_product", .int(Int64(bits[3, 10])))
        // The product code means something different in each mode.
        let products = mode == 0 ? simplifiedProducts : mode == 1 ? integratedProducts : [:]
        if let name = products.knownName(bits[3, 10]) { fields.append("food_safe_product_name", .string(name)) }
        fields.append("food_safe_serving", servings.name(bits[13, 3]))
        fields.append("food_safe_threshold_c", twentieths(bits[16, 13]))
        fields.append("food_safe_z_value", twentieths(bits[29, 13]))
        fields.append("food_safe_reference_c", twentieths(bits[42, 13]))
        fields.append("food_safe_d_value", twentieths(bits[55, 13]))
        fields.append("food_safe_target_log_reduction", tenths(bits[68, 8]))
    }

    static func writeFoodSafeData(_ fields: Fields, to writer: inout ByteWriter) throws(EncodeError) {
        var bits = PackedBits(byteCount: 10)
        bits[0, 3] = UInt64(try fields.code("food_safe_mode", foodSafeModes, max: 7))
        bits[3, 10] = UInt64(try fields.integer("food_safe_product", in: 0...1023))
        bits[13, 3] = UInt64(try fields.code("food_safe_serving", servings, max: 7))
        bits[16, 13] = UInt64(try fields.raw("food_safe_threshold_c", divisor: 20, in: 0...8191))
        bits[29, 13] = UInt64(try fields.raw("food_safe_z_value", divisor: 20, in: 0...8191))
        bits[42, 13] = UInt64(try fields.raw("food_safe_reference_c", divisor: 20, in: 0...8191))
        bits[55, 13] = UInt64(try fields.raw("food_safe_d_value", divisor: 20, in: 0...8191))
        bits[68, 8] = UInt64(try fields.raw("food_safe_target_log_reduction", divisor: 10, in: 0...255))
        bits.write(to: &writer)
    }

    // MARK: - §6.6 Food Safe Status (8 bytes)

    static let foodSafeStates: CodeNames = [0: "not_safe", 1: "safe", 2: "safety_impossible"]

    static func readFoodSafeStatus(_ reader: inout ByteReader, into fields: inout Fields) throws(DecodeError) {
        let bits = try PackedBits(reading: &reader, byteCount: 8, "food_safe_status")
        fields.append("food_safe_state", foodSafeStates.name(bits[0, 3]))
        fields.append("food_safe_log_reduction", tenths(bits[3, 8]))
        fields.append("food_safe_above_threshold_s", .int(Int64(bits[11, 16])))
        fields.append("food_safe_log_sequence", .int(Int64(bits[27, 32])))
        // bits 59…63 are unused and may be set (the SDK vectors fill them with 1s)
    }

    static func writeFoodSafeStatus(_ fields: Fields, to writer: inout ByteWriter) throws(EncodeError) {
        var bits = PackedBits(byteCount: 8)
        bits[0, 3] = UInt64(try fields.code("food_safe_state", foodSafeStates, max: 7))
        bits[3, 8] = UInt64(try fields.raw("food_safe_log_reduction", divisor: 10, in: 0...255))
        bits[11, 16] = UInt64(try fields.integer("food_safe_above_threshold_s", in: 0...0xFFFF))
        bits[27, 32] = UInt64(try fields.integer("food_safe_log_sequence", in: 0...0xFFFF_FFFF))
        bits.write(to: &writer)
    }
}
