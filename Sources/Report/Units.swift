/// Units for axes. Decoders and layouts describe their fields' units; for a field they do not
/// describe, the name says it (DESIGN.md: "Field names say their unit": `temperature_c`,
/// `humidity_pct`, …).
public enum Units {
    /// The unit a field name ends in, or nil.
    public static func fromName(_ name: String) -> String? {
        guard let underscore = name.lastIndex(of: "_") else { return nil }
        let suffix = name[name.index(after: underscore)...]
        switch suffix {
        case "c": return "°C"
        case "f": return "°F"
        case "k": return "K"
        case "pct", "percent": return "%"
        case "hpa": return "hPa"
        case "pa": return "Pa"
        case "kpa": return "kPa"
        case "v": return "V"
        case "mv": return "mV"
        case "a": return "A"
        case "ma": return "mA"
        case "ua": return "µA"
        case "w": return "W"
        case "mw": return "mW"
        case "dbm": return "dBm"
        case "db": return "dB"
        case "bpm": return "bpm"
        case "rpm": return "rpm"
        case "s": return "s"
        case "ms": return "ms"
        case "us": return "µs"
        case "m": return "m"
        case "mm": return "mm"
        case "cm": return "cm"
        case "km": return "km"
        case "kg": return "kg"
        case "g": return "g"
        case "lux", "lx": return "lx"
        case "ppm": return "ppm"
        case "ppb": return "ppb"
        case "hz": return "Hz"
        case "kmh": return "km/h"
        case "mps": return "m/s"
        case "deg": return "°"
        case "wh": return "Wh"
        case "kwh": return "kWh"
        default: return nil
        }
    }
}
