import ByteReading

/// The small formats the Combustion Inc. probe shares between its advertisement, its Probe Status
/// characteristic and its UART messages (combustion.md §2.3, §6). Each is read into fields and
/// written back from them in one place.
enum Combustion {
    static let company: UInt16 = 0x09C7

    // MARK: - §2.3 Raw temperatures: 8 × 13 bits in 13 bytes, °C = raw × 0.05 − 20

    static func readTemperatures(_ reader: inout ByteReader) throws(DecodeError) -> PackedBits {
        try PackedBits(reading: &reader, byteCount: 13, "temperatures")
    }

    /// Every sensor as sent. In Instant Read mode T1 holds the instant reading; the spec says T2–T8
    /// are sent as 0, but probes send values there and the Android SDK reports them, so they are
    /// decoded like any other (the `mode` field says which mode the probe was in).
    static func appendTemperatures<Output: FieldWriting>(_ raw: PackedBits, to fields: inout Output) {
        for index in 0..<8 { fields.append(temperatureNames[index], celsius(raw[13 * index, 13])) }
    }

    /// Literals: short ones are held in the string itself, so handing one on retains nothing
    /// (an interpolated name is on the heap, retained and released for every field written).
    static let temperatureNames = ["t1_c", "t2_c", "t3_c", "t4_c", "t5_c", "t6_c", "t7_c", "t8_c"]

    /// raw × 0.05 − 20, with the offset folded into the integer so the value prints as its decimal.
    static func celsius(_ raw: UInt64) -> FieldValue { .double(Double(Int64(raw) - 400) / 20) }

    static func writeTemperatures(_ fields: Fields, to writer: inout ByteWriter) throws(EncodeError) {
        var bits = PackedBits(byteCount: 13)
        for index in 0..<8 {
            bits[13 * index, 13] = UInt64(
                try fields.raw(temperatureNames[index], divisor: 20, offset: 400, in: 0...8191))
        }
        bits.write(to: &writer)
    }

    // MARK: - §6.1 Mode / Color / ID byte

    static let modes: CodeNames = [0: "normal", 1: "instant_read", 2: "reserved", 3: "error"]
    /// Only the first two colours are named in the spec; 2–7 are "TBD".
    static let colors: CodeNames = [0: "yellow", 1: "grey"]

    static func appendModeColorID<Output: FieldWriting>(_ byte: UInt8, to fields: inout Output) {
        fields.append("mode", modes.name(byte & 0x03))
        fields.append("color", .int(Int64(byte >> 2 & 0x07)))
        if let name = colors.knownName(byte >> 2 & 0x07) { fields.append("color_name", .string(name)) }
        fields.append("probe_id", .int(Int64(byte >> 5) + 1))  // raw 0…7 is "ID 1"…"ID 8"
    }

    static func modeColorIDByte(_ fields: Fields) throws(EncodeError) -> UInt8 {
        let mode = try fields.code("mode", modes, max: 3)
        let color = try fields.integer("color", in: 0...7)
        let id = try fields.integer("probe_id", in: 1...8) - 1
        return UInt8(mode | color << 2 | id << 5)
    }

    // MARK: - §6.2 Battery status + virtual sensors byte, §6.2.1 virtual sensors (7 bits)

    static let virtualCore: CodeNames = [0: "T1", 1: "T2", 2: "T3", 3: "T4", 4: "T5", 5: "T6"]
    static let virtualSurface: CodeNames = [0: "T4", 1: "T5", 2: "T6", 3: "T7"]
    static let virtualAmbient: CodeNames = [0: "T5", 1: "T6", 2: "T7", 3: "T8"]

    static func appendBatteryAndVirtualSensors<Output: FieldWriting>(_ byte: UInt8, to fields: inout Output) {
        fields.append("battery_ok", .bool(byte & 0x01 == 0))
        appendVirtualSensors(UInt64(byte >> 1), to: &fields)
    }

    static func batteryAndVirtualSensorsByte(_ fields: Fields) throws(EncodeError) -> UInt8 {
        let low: UInt64 = try fields.bool("battery_ok") ? 0 : 1
        return UInt8(try virtualSensorBits(fields) << 1 | low)
    }

    static func appendVirtualSensors<Output: FieldWriting>(_ bits: UInt64, to fields: inout Output) {
        fields.append("virtual_core", virtualCore.name(bits & 0x07))
        fields.append("virtual_surface", virtualSurface.name(bits >> 3 & 0x03))
        fields.append("virtual_ambient", virtualAmbient.name(bits >> 5 & 0x03))
    }

    static func virtualSensorBits(_ fields: Fields) throws(EncodeError) -> UInt64 {
        let core = try fields.code("virtual_core", virtualCore, max: 7)
        let surface = try fields.code("virtual_surface", virtualSurface, max: 3)
        let ambient = try fields.code("virtual_ambient", virtualAmbient, max: 3)
        return UInt64(core | surface << 3 | ambient << 5)
    }

    // MARK: - §6.9 Network information byte

    /// Kept as sent; for a repeater also the hop count. The spec puts it in bits 0–1, but both SDKs
    /// read bits 6–7 in adverts, which is what repeaters send (§6.9, §8.1).
    static func appendNetworkInfo<Output: FieldWriting>(_ byte: UInt8, repeater: Bool, to fields: inout Output) {
        fields.append("network_info", .int(Int64(byte)))
        if repeater { fields.append("hop_count", .int(Int64(byte >> 6) + 1)) }
    }

    /// `hop_count` is derived from `network_info`, so only the latter is read.
    static func networkInfoByte(_ fields: Fields) throws(EncodeError) -> UInt8 {
        UInt8(try fields.integer("network_info", in: 0...255))
    }

    // MARK: - §6.8 Overheating sensors byte: bit i set → T(i+1) overheating (LSB = T1, §8.2)

    static func appendOverheating<Output: FieldWriting>(_ byte: UInt8, to fields: inout Output) {
        // Filled in place: a filter and a map made two lists for every advertisement.
        var sensors: [FieldValue] = []
        if byte != 0 {
            sensors.reserveCapacity(byte.nonzeroBitCount)
            for sensor in 0..<8 where byte >> sensor & 1 == 1 { sensors.append(overheatingNames[sensor]) }
        }
        fields.append("overheating", .list(sensors))
    }

    static let overheatingNames: [FieldValue] = (1...8).map { .string("T\($0)") }

    static func overheatingByte(_ fields: Fields) throws(EncodeError) -> UInt8 {
        var byte: UInt8 = 0
        for sensor in try fields.list("overheating") {
            guard case .string(let name) = sensor, name.hasPrefix("T"), let number = Int(name.dropFirst()),
                (1...8).contains(number)
            else { throw EncodeError(.outOfRange("sensor names T1…T8"), field: "overheating") }
            byte |= 1 << (number - 1)
        }
        return byte
    }

    // MARK: - §6.7 Thermometer preferences byte

    static let powerModes: CodeNames = [0: "normal", 1: "always_on"]

    static func appendPreferences<Output: FieldWriting>(_ byte: UInt8, to fields: inout Output) {
        fields.append("power_mode", powerModes.name(byte & 0x03))
        // Bit 2 is reserved in the spec; both SDKs read it as "transmit at +8 dBm" (§8.6).
        fields.append("high_radio_power", .bool(byte & 0x04 != 0))
    }

    static func preferencesByte(_ fields: Fields) throws(EncodeError) -> UInt8 {
        let mode = try fields.code("power_mode", powerModes, max: 3)
        return UInt8(mode) | (try fields.bool("high_radio_power") ? 0x04 : 0)
    }

    // MARK: - §6.10 Alarm status arrays: 11 × u16 LE in the order T1…T8, core, surface, ambient

    static let alarmCount = 11

    /// Each array gives four lists of 11 in that order: armed, tripped, alarming, temperature.
    static func readAlarms(
        _ reader: inout ByteReader, _ prefix: String, into fields: inout Fields
    )
        throws(DecodeError)
    {
        try reader.require(2 * alarmCount, "\(prefix)_alarms")
        var set: [FieldValue] = []
        var tripped: [FieldValue] = []
        var alarming: [FieldValue] = []
        var celsius: [FieldValue] = []
        for _ in 0..<alarmCount {
            let word = try reader.u16le("\(prefix)_alarms")
            set.append(.bool(word & 0x1 != 0))
            tripped.append(.bool(word & 0x2 != 0))
            alarming.append(.bool(word & 0x4 != 0))
            celsius.append(.double(Double(Int64(word >> 3) - 200) / 10))  // raw × 0.1 − 20
        }
        fields.append("\(prefix)_alarm_set", .list(set))
        fields.append("\(prefix)_alarm_tripped", .list(tripped))
        fields.append("\(prefix)_alarm_alarming", .list(alarming))
        fields.append("\(prefix)_alarm_c", .list(celsius))
    }

    static func writeAlarms(_ fields: Fields, _ prefix: String, to writer: inout ByteWriter) throws(EncodeError) {
        let set = try alarmList(fields, "\(prefix)_alarm_set")
        let tripped = try alarmList(fields, "\(prefix)_alarm_tripped")
        let alarming = try alarmList(fields, "\(prefix)_alarm_alarming")
        let celsius = try alarmList(fields, "\(prefix)_alarm_c")
        let celsiusName = "\(prefix)_alarm_c"
        for index in 0..<alarmCount {
            let temperature = Fields([Field(celsiusName, celsius[index])])
            var word = try temperature.raw(celsiusName, divisor: 10, offset: 200, in: 0...0x1FFF) << 3
            if try flag(set[index], "\(prefix)_alarm_set") { word |= 0x1 }
            if try flag(tripped[index], "\(prefix)_alarm_tripped") { word |= 0x2 }
            if try flag(alarming[index], "\(prefix)_alarm_alarming") { word |= 0x4 }
            writer.u16le(UInt16(word))
        }
    }

    private static func flag(_ value: FieldValue, _ name: String) throws(EncodeError) -> Bool {
        guard case .bool(let flag) = value else { throw EncodeError(.wrongType(expected: "list of bool"), field: name) }
        return flag
    }

    private static func alarmList(_ fields: Fields, _ name: String) throws(EncodeError) -> [FieldValue] {
        let list = try fields.list(name)
        guard list.count == alarmCount else { throw EncodeError(.outOfRange("\(alarmCount) entries"), field: name) }
        return list
    }
}
