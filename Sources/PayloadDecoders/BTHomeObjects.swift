import ByteReading

/// One BTHome v2 object: an id byte, then a value whose length the id fixes (payloads.md §E;
/// bthome.io "Format", checked against bthome-ble 3.25's `const.py` and `event.py`: all 95 ids).
/// Numbers are little-endian; value = raw × factor, the nearest Double to that decimal.
struct BTHomeObject: Sendable {
    enum Format: Sendable {
        /// An integer of `size` bytes; value = raw × multiplier / divisor (whole raw values stay ints).
        case number(size: Int, signed: Bool, multiplier: Int64 = 1, divisor: Int64 = 1)
        /// One byte, 0 false, anything else true.
        case binary
        /// One byte: a button event.
        case button
        /// Two bytes: a dimmer event and a step count; gives `<name>` and `<name>_steps`.
        case dimmer
        /// A length byte (low 5 bits: how many argument bytes; high 3 reserved), an opcode, then the
        /// arguments; gives `<name>` (the opcode's name) and `<name>_args` (hex, "" for none).
        case command
        /// A length byte, then UTF-8 text.
        case text
        /// A length byte, then bytes (written as hex).
        case raw
        /// `size` bytes, most significant last, written "major.minor.patch[.build]".
        case firmwareVersion(size: Int)
    }

    var id: UInt8
    var name: String
    var unit: String?
    var format: Format

    init(_ id: UInt8, _ name: String, _ format: Format, unit: String? = nil) {
        self.id = id
        self.name = name
        self.format = format
        self.unit = unit
    }

    /// The name of the second value a dimmer (`<name>_steps`) or a command (`<name>_args`) gives.
    var secondName: String? {
        switch format {
        case .dimmer: "\(name)_steps"
        case .command: "\(name)_args"
        default: nil
        }
    }

    static func u(_ size: Int, _ divisor: Int64 = 1) -> Format { .number(size: size, signed: false, divisor: divisor) }
    static func s(_ size: Int, _ divisor: Int64 = 1) -> Format { .number(size: size, signed: true, divisor: divisor) }

    /// Every object this decoder knows, in id order. An id not listed here stops decoding: its
    /// length is unknown, so nothing after it can be found.
    static let all: [BTHomeObject] =
        [
            BTHomeObject(0x00, "packet_id", u(1)),
            BTHomeObject(0x01, "battery_pct", u(1), unit: "%"),
            BTHomeObject(0x02, "temperature_c", s(2, 100), unit: "°C"),
            BTHomeObject(0x03, "humidity_pct", u(2, 100), unit: "%"),
            BTHomeObject(0x04, "pressure_hpa", u(3, 100), unit: "hPa"),
            BTHomeObject(0x05, "illuminance_lux", u(3, 100), unit: "lx"),
            BTHomeObject(0x06, "mass_kg", u(2, 100), unit: "kg"),
            BTHomeObject(0x07, "mass_lb", u(2, 100), unit: "lb"),
            BTHomeObject(0x08, "dew_point_c", s(2, 100), unit: "°C"),
            BTHomeObject(0x09, "count", u(1)),
            BTHomeObject(0x0A, "energy_kwh", u(3, 1000), unit: "kWh"),
            BTHomeObject(0x0B, "power_w", u(3, 100), unit: "W"),
            BTHomeObject(0x0C, "voltage_v", u(2, 1000), unit: "V"),
            BTHomeObject(0x0D, "pm2_5_ug_m3", u(2), unit: "µg/m³"),
            BTHomeObject(0x0E, "pm10_ug_m3", u(2), unit: "µg/m³"),
            BTHomeObject(0x0F, "generic_boolean", .binary),
            BTHomeObject(0x10, "power_on", .binary),
            BTHomeObject(0x11, "opening", .binary),
            BTHomeObject(0x12, "co2_ppm", u(2), unit: "ppm"),
            BTHomeObject(0x13, "tvoc_ug_m3", u(2), unit: "µg/m³"),
            BTHomeObject(0x14, "moisture_pct", u(2, 100), unit: "%"),
        ] + binarySensors + [
            BTHomeObject(0x2E, "humidity_pct", u(1), unit: "%"),
            BTHomeObject(0x2F, "moisture_pct", u(1), unit: "%"),
            BTHomeObject(0x3A, "button", .button),
            BTHomeObject(0x3B, "command", .command),
            BTHomeObject(0x3C, "dimmer", .dimmer),
            BTHomeObject(0x3D, "count", u(2)),
            BTHomeObject(0x3E, "count", u(4)),
            BTHomeObject(0x3F, "rotation_deg", s(2, 10), unit: "°"),
            BTHomeObject(0x40, "distance_mm", u(2), unit: "mm"),
            BTHomeObject(0x41, "distance_m", u(2, 10), unit: "m"),
            BTHomeObject(0x42, "duration_s", u(3, 1000), unit: "s"),
            BTHomeObject(0x43, "current_a", u(2, 1000), unit: "A"),
            BTHomeObject(0x44, "speed_m_s", u(2, 100), unit: "m/s"),
            BTHomeObject(0x45, "temperature_c", s(2, 10), unit: "°C"),
            BTHomeObject(0x46, "uv_index", u(1, 10)),
            BTHomeObject(0x47, "volume_l", u(2, 10), unit: "L"),
            BTHomeObject(0x48, "volume_ml", u(2), unit: "mL"),
            BTHomeObject(0x49, "volume_flow_rate_m3_h", u(2, 1000), unit: "m³/h"),
            BTHomeObject(0x4A, "voltage_v", u(2, 10), unit: "V"),
            BTHomeObject(0x4B, "gas_m3", u(3, 1000), unit: "m³"),
            BTHomeObject(0x4C, "gas_m3", u(4, 1000), unit: "m³"),
            BTHomeObject(0x4D, "energy_kwh", u(4, 1000), unit: "kWh"),
            BTHomeObject(0x4E, "volume_l", u(4, 1000), unit: "L"),
            BTHomeObject(0x4F, "water_l", u(4, 1000), unit: "L"),
            BTHomeObject(0x50, "timestamp", u(4), unit: "s"),
            BTHomeObject(0x51, "acceleration_m_s2", u(2, 1000), unit: "m/s²"),
            BTHomeObject(0x52, "gyroscope_deg_s", u(2, 1000), unit: "°/s"),
            BTHomeObject(0x53, "text", .text),
            BTHomeObject(0x54, "raw", .raw),
            BTHomeObject(0x55, "volume_storage_l", u(4, 1000), unit: "L"),
            BTHomeObject(0x56, "conductivity_us_cm", u(2), unit: "µS/cm"),
            BTHomeObject(0x57, "temperature_c", s(1), unit: "°C"),
            BTHomeObject(
                0x58, "temperature_c", .number(size: 1, signed: true, multiplier: 35, divisor: 100), unit: "°C"),
            BTHomeObject(0x59, "count", s(1)),
            BTHomeObject(0x5A, "count", s(2)),
            BTHomeObject(0x5B, "count", s(4)),
            BTHomeObject(0x5C, "power_w", s(4, 100), unit: "W"),
            BTHomeObject(0x5D, "current_a", s(2, 1000), unit: "A"),
            BTHomeObject(0x5E, "direction_deg", u(2, 100), unit: "°"),
            BTHomeObject(0x5F, "precipitation_mm", u(2, 10), unit: "mm"),
            BTHomeObject(0x60, "channel", u(1)),
            BTHomeObject(0x61, "rotational_speed_rpm", u(2), unit: "rpm"),
            BTHomeObject(0x62, "speed_m_s", s(4, 1_000_000), unit: "m/s"),
            BTHomeObject(0x63, "acceleration_m_s2", s(4, 1_000_000), unit: "m/s²"),
            BTHomeObject(0x64, "light_level", u(1)),
            BTHomeObject(0x65, "settings_revision", u(1)),
            BTHomeObject(0xF0, "device_type_id", u(2)),
            BTHomeObject(0xF1, "firmware_version", .firmwareVersion(size: 4)),
            BTHomeObject(0xF2, "firmware_version", .firmwareVersion(size: 3)),
        ]

    /// 0x15–0x2D: one byte each, 0 or 1.
    static let binarySensors: [BTHomeObject] = [
        "battery_low", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door", "garage_door", "gas",
        "heat", "light", "lock", "moisture", "motion", "moving", "occupancy", "plug", "presence", "problem",
        "running", "safety", "smoke", "sound", "tamper", "vibration", "window",
    ].enumerated().map { BTHomeObject(0x15 + UInt8($0.offset), $0.element, .binary) }

    /// The place in `all` of each object id's definition (the first one), -1 for an unknown id.
    /// Places rather than optional objects: an object is looked up for every one a payload
    /// holds, and an optional taken out of the table was copied and freed through the runtime's
    /// generic path.
    static let placeByID: [Int] = all.indices.reversed().reduce(into: [Int](repeating: -1, count: 256)) {
        $0[Int(all[$1].id)] = $1
    }

    /// For each place in `all`, the place of the first object with the same name: repeats of a
    /// name are counted there, whichever of its ids carried them (and its second values' past
    /// the table's end, in `BTHome.readObjects`' 256 counts).
    static let namePlaces: [Int] = {
        precondition(2 * all.count <= 256, "BTHome.readObjects counts names in 256 places")
        return all.indices.map { place in all.firstIndex { $0.name == all[place].name }! }
    }()

    static let buttonEvents: CodeNames = [
        0x00: "none", 0x01: "press", 0x02: "double_press", 0x03: "triple_press", 0x04: "long_press",
        0x05: "long_double_press", 0x06: "long_triple_press", 0x80: "hold_press", 0x81: "hold_release",
    ]
    static let dimmerEvents: CodeNames = [0: "none", 1: "rotate_left", 2: "rotate_right"]
    /// Opcodes 0x05–0xFF are reserved; the arguments' meaning is the manufacturer's.
    static let commands: CodeNames = [0: "off", 1: "on", 2: "toggle", 3: "step_up", 4: "step_down"]
    static let commandArgumentsMask: UInt8 = 0x1F

    // MARK: - Reading

    /// What an object holds: a named value, and for a dimmer or a command a second one. (A
    /// struct, not a list: payloads are decoded by the hundred thousand.)
    struct Values {
        var name: String
        var value: FieldValue
        /// The second value's name, empty when there is none. Not an optional pair: one is made
        /// for every object, and freeing the optional took the runtime's generic path.
        var secondName = ""
        var secondValue = FieldValue.null
        init(_ name: String, _ value: FieldValue, _ second: (name: String, value: FieldValue)? = nil) {
            self.name = name
            self.value = value
            if let second {
                secondName = second.name
                secondValue = second.value
            }
        }
    }

    /// The object's value (after its id byte), as one or two named values.
    func read(_ reader: inout ByteReader) throws(DecodeError) -> Values {
        try Self.read(name, format, &reader)
    }

    /// The value of an object with this name and format. Given the two rather than the object: an
    /// object taken from the table to read, or captured by a field name's closure, was copied with
    /// its strings.
    static func read(_ name: String, _ format: Format, _ reader: inout ByteReader) throws(DecodeError) -> Values {
        switch format {
        case .number(let size, let signed, let multiplier, let divisor):
            let raw =
                signed
                ? try reader.signed(size: size, .little, name) : Int64(try reader.unsigned(size: size, .little, name))
            if multiplier == 1, divisor == 1 { return Values(name, .int(raw)) }
            return Values(name, .double(Double(raw * multiplier) / Double(divisor)))
        case .binary:
            return Values(name, .bool(try reader.u8(name) != 0))
        case .button:
            return Values(name, Self.buttonEvents.name(try reader.u8(name)))
        case .dimmer:
            let event = try reader.u8(name)
            let steps = try reader.u8("\(name)_steps")
            return Values(name, Self.dimmerEvents.name(event), ("\(name)_steps", .int(Int64(steps))))
        case .command:
            let count = Int(try reader.u8("\(name)_length") & Self.commandArgumentsMask)
            let opcode = try reader.u8(name)
            let arguments = try reader.bytes(count, "\(name)_args")
            return Values(name, Self.commands.name(opcode), ("\(name)_args", .string(Hex.encode(arguments))))
        case .text:
            let length = Int(try reader.u8("\(name)_length"))
            let offset = reader.offset
            guard let text = UTF8Text.decode(try reader.bytes(length, name)) else {
                throw DecodeError(.badValue("not UTF-8"), at: offset, field: name)
            }
            return Values(name, .string(text))
        case .raw:
            let length = Int(try reader.u8("\(name)_length"))
            return Values(name, .string(Hex.encode(try reader.bytes(length, name))))
        case .firmwareVersion(let size):
            let parts = try reader.array(size, name).reversed().map { String($0) }
            return Values(name, .string(parts.joined(separator: ".")))
        }
    }

    // MARK: - Writing

    /// Writes the id and the value. `second` is the value that goes with a dimmer (`<name>_steps`)
    /// or a command (`<name>_args`).
    func write(
        _ value: FieldValue, second: FieldValue?, field: String, to writer: inout ByteWriter
    )
        throws(EncodeError)
    {
        writer.u8(id)
        let one = Fields([Field(field, value)])
        switch format {
        case .number(let size, let signed, let multiplier, let divisor):
            let bits = Int64(8 * size)
            let range: ClosedRange<Int64> =
                signed ? -(1 << (bits - 1))...((1 << (bits - 1)) - 1) : 0...((1 << bits) - 1)
            if multiplier == 1, divisor == 1 {
                writer.unsigned(UInt64(bitPattern: try one.integer(field, in: range)), size: size, .little)
            } else {
                let steps = (try one.number(field) * Double(divisor) / Double(multiplier)).rounded()
                guard steps >= Double(range.lowerBound), steps <= Double(range.upperBound) else {
                    throw EncodeError(.outOfRange("raw \(range.lowerBound)…\(range.upperBound)"), field: field)
                }
                writer.unsigned(UInt64(bitPattern: Int64(steps)), size: size, .little)
            }
        case .binary:
            writer.u8(try one.bool(field) ? 1 : 0)
        case .button:
            writer.u8(UInt8(try one.code(field, Self.buttonEvents, max: 255)))
        case .dimmer:
            writer.u8(UInt8(try one.code(field, Self.dimmerEvents, max: 255)))
            let stepsName = "\(field)_steps"
            guard let second else { throw EncodeError(.missing, field: stepsName) }
            writer.u8(UInt8(try Fields([Field(stepsName, second)]).integer(stepsName, in: 0...255)))
        case .command:
            let argumentsName = "\(field)_args"
            let arguments = try second.map { (value) throws(EncodeError) in
                try Fields([Field(argumentsName, value)]).hexBytes(argumentsName)
            } ?? []
            guard arguments.count <= Int(Self.commandArgumentsMask) else {
                throw EncodeError(.outOfRange("at most 31 bytes"), field: argumentsName)
            }
            writer.u8(UInt8(arguments.count))
            writer.u8(UInt8(try one.code(field, Self.commands, max: 255)))
            writer.append(arguments)
        case .text:
            let bytes = Array(try one.string(field).utf8)
            guard bytes.count <= 255 else { throw EncodeError(.outOfRange("at most 255 bytes"), field: field) }
            writer.u8(UInt8(bytes.count))
            writer.append(bytes)
        case .raw:
            let bytes = try one.hexBytes(field)
            guard bytes.count <= 255 else { throw EncodeError(.outOfRange("at most 255 bytes"), field: field) }
            writer.u8(UInt8(bytes.count))
            writer.append(bytes)
        case .firmwareVersion(let size):
            let parts = try one.string(field).split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
            guard parts.count == size, parts.allSatisfy({ $0 != nil }) else {
                throw EncodeError(.outOfRange("\(size) numbers 0…255 separated by dots"), field: field)
            }
            writer.append(parts.compactMap { $0 }.reversed())
        }
    }
}
