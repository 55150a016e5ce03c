/// The units a layout field may declare, and the suffix its name must end with.
///
/// Names say their unit (DESIGN.md, "Readings"): a field with `"unit": "°C"` must be named
/// `something_c`. The table is the one documented in layouts/README.md.
public enum UnitTable {
    /// Unit symbol → name suffix (without the underscore), in the order documented.
    public static let suffixes: [(unit: String, suffix: String)] = [
        ("°C", "c"), ("°F", "f"), ("K", "k"),
        ("%", "pct"), ("‰", "permille"), ("ppm", "ppm"), ("ppb", "ppb"),
        ("Pa", "pa"), ("hPa", "hpa"), ("kPa", "kpa"), ("bar", "bar"), ("mbar", "mbar"),
        ("V", "v"), ("mV", "mv"), ("µV", "uv"),
        ("A", "a"), ("mA", "ma"), ("µA", "ua"),
        ("W", "w"), ("mW", "mw"), ("µW", "uw"), ("kW", "kw"),
        ("Wh", "wh"), ("mWh", "mwh"), ("kWh", "kwh"), ("mAh", "mah"), ("J", "j"), ("kJ", "kj"),
        ("Ω", "ohm"), ("kΩ", "kohm"),
        ("Hz", "hz"), ("kHz", "khz"),
        ("s", "s"), ("ms", "ms"), ("µs", "us"), ("min", "min"), ("h", "h"), ("d", "d"),
        ("dBm", "dbm"), ("dB", "db"),
        ("m", "m"), ("cm", "cm"), ("mm", "mm"), ("km", "km"),
        ("g", "g"), ("kg", "kg"), ("mg", "mg"),
        ("m/s", "mps"), ("km/h", "kmh"), ("m/s²", "mps2"), ("rpm", "rpm"), ("bpm", "bpm"),
        ("°", "deg"), ("rad", "rad"),
        ("lx", "lux"), ("µg/m³", "ugm3"), ("mg/dL", "mgdl"), ("mmol/L", "mmoll"),
        ("L", "l"), ("mL", "ml"), ("L/min", "lpm"), ("mmHg", "mmhg"),
        ("N", "n"), ("N·m", "nm"),
    ]

    /// Other spellings accepted for a symbol (ASCII forms).
    public static let aliases: [String: String] = [
        "degC": "°C", "C": "°C", "degF": "°F", "F": "°F", "uV": "µV", "uA": "µA", "uW": "µW", "us": "µs",
        "ohm": "Ω", "kohm": "kΩ", "lux": "lx", "ug/m3": "µg/m³", "m/s2": "m/s²", "deg": "°", "percent": "%",
        "sec": "s", "l": "L", "ml": "mL", "Nm": "N·m",
    ]

    /// The canonical symbol for `unit`, or nil when the table does not know it.
    public static func canonical(_ unit: String) -> String? {
        if suffixes.contains(where: { $0.unit == unit }) { return unit }
        return aliases[unit]
    }

    /// The name suffix for a unit symbol ("°C" → "c"), nil when unknown.
    public static func suffix(for unit: String) -> String? {
        guard let symbol = canonical(unit) else { return nil }
        return suffixes.first { $0.unit == symbol }?.suffix
    }

    /// The unit a name's suffix stands for, for suffixes of two or more letters
    /// (single letters such as `_c` or `_s` are too often not units).
    static func unit(forNameSuffixOf name: String) -> String? {
        guard let underscore = name.lastIndex(of: "_") else { return nil }
        let suffix = String(name[name.index(after: underscore)...])
        guard suffix.count >= 2 else { return nil }
        return suffixes.first { $0.suffix == suffix }?.unit
    }
}

/// True for `lower_snake_case` names: a letter first, then letters, digits and single underscores.
func isSnakeCase(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
    var previousUnderscore = false
    for b in bytes {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): previousUnderscore = false
        case UInt8(ascii: "_"):
            if previousUnderscore { return false }
            previousUnderscore = true
        default: return false
        }
    }
    return !previousUnderscore
}

/// A snake_case suggestion for a name ("Temp" → "temp", "batteryLevel" → "battery_level").
func snakeCased(_ name: String) -> String {
    var out = ""
    var previousLower = false
    for c in name {
        if c.isUppercase {
            if previousLower { out.append("_") }
            out.append(contentsOf: c.lowercased())
            previousLower = false
        } else if c == "-" || c == " " || c == "." {
            if !out.hasSuffix("_") { out.append("_") }
            previousLower = false
        } else {
            out.append(c)
            previousLower = c.isLowercase || c.isNumber
        }
    }
    return out
}
