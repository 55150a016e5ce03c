import BluetoothPackets
import BluetoothTracking
import CaptureModel

/// Numbers, durations and names as `stats` and `report` show them to people (no Foundation).
public enum Formatting {
    /// `value` with exactly `decimals` digits after the point ("12.50"); very large or non-finite
    /// values as Swift prints them.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendFixed(value, decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `fixed`'s text appended to `bytes`: for writers of many numbers (a report's timeline has
    /// one per advert column), without a string each.
    public static func appendFixed(_ value: Double, _ decimals: Int, to bytes: inout [UInt8]) {
        guard value.isFinite, value.magnitude < 1e15 else {
            bytes += value.description.utf8
            return
        }
        let decimals = min(max(decimals, 0), 9)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9e15 else {
            bytes += value.description.utf8
            return
        }
        let whole = UInt64(scaled)
        var power: UInt64 = 1
        for _ in 0..<decimals { power *= 10 }
        if value < 0, whole > 0 { bytes.append(UInt8(ascii: "-")) }
        bytes += String(whole / power).utf8
        guard decimals > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        let fraction = whole % power
        var digit = power / 10
        while digit > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / digit % 10))
            digit /= 10
        }
    }

    /// A number with at most `significant` significant digits and no trailing zeros ("0.0123",
    /// "1013.6", "45").
    public static func short(_ value: Double, significant: Int = 4) -> String {
        guard value.isFinite else { return value.description }
        if value == 0 { return "0" }
        var magnitude = 0
        var m = value.magnitude
        while m >= 10 {
            m /= 10
            magnitude += 1
        }
        while m < 1 {
            m *= 10
            magnitude -= 1
        }
        let decimals = max(0, significant - 1 - magnitude)
        return trimmed(fixed(value, decimals))
    }

    /// Drops trailing zeros after a decimal point ("12.50" → "12.5", "3.00" → "3").
    public static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var s = Substring(text)
        while s.last == "0" { s.removeLast() }
        if s.last == "." { s.removeLast() }
        return String(s)
    }

    /// Milliseconds from microseconds, with up to three decimals ("100.25").
    public static func milliseconds(_ micros: Double) -> String { trimmed(fixed(micros / 1000, 3)) }

    /// A duration for people: "850 ms", "29.9 s", "5 min 03 s", "2 h 10 min".
    public static func duration(micros: Int64) -> String {
        let negative = micros < 0
        let m = micros.magnitude
        let text: String
        if m < 1_000 {
            text = "\(m) µs"
        } else if m < 1_000_000 {
            text = trimmed(fixed(Double(m) / 1000, m < 10_000 ? 2 : 1)) + " ms"
        } else if m < 60_000_000 {
            text = trimmed(fixed(Double(m) / 1e6, 3)) + " s"
        } else if m < 3_600_000_000 {
            let seconds = m / 1_000_000
            text = "\(seconds / 60) min \(two(seconds % 60)) s"
        } else {
            let minutes = m / 60_000_000
            text = "\(minutes / 60) h \(two(minutes % 60)) min"
        }
        return negative ? "-" + text : text
    }

    static func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// "2025-06-01 10:00:29.907277 UTC".
    public static func utc(micros: Int64) -> String { CivilTime.utcText(micros: micros) }

    // MARK: Names

    public static func phy(_ code: UInt8) -> String {
        switch code {
        case 1: "LE 1M"
        case 2: "LE 2M"
        case 3: "LE Coded"
        default: "PHY \(code)"
        }
    }

    /// "Temperature Measurement (2a1c)", or the UUID alone when it has no assigned name.
    public static func uuid(_ uuid: BluetoothUUID) -> String {
        AssignedNames.uuid(uuid).map { "\($0) (\(uuid))" } ?? uuid.description
    }

    public static func attribute(_ key: ConnectionStatistics.AttributeKey) -> String {
        switch key {
        case .uuid(let uuid): Self.uuid(uuid)
        case .handle(let handle): "handle 0x\(hex(UInt64(handle), 4)) (unresolved)"
        case .other: "other attributes"
        }
    }

    public static func company(_ id: UInt16) -> String {
        let code = "0x" + hex(UInt64(id), 4)
        return AssignedNames.company(id).map { "\($0) (\(code))" } ?? code
    }

    public static func hciEvent(_ code: AdapterStatistics.EventCode) -> String {
        if let subevent = code.subevent { return HCINames.leSubevent(subevent) }
        return HCINames.event(code.code)
    }

    public static func pdu(_ kind: Int) -> String {
        AdvertisingPDUKind(rawValue: UInt8(kind)).map { "\($0.name)" } ?? "pdu \(kind)"
    }

    public static func hex(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
