/// Capture times (microseconds since the Unix epoch) as calendar dates and ISO 8601 text, in the
/// proleptic Gregorian calendar, without Foundation: the one calendar every part of Bluetape uses.
public enum CivilTime {
    /// Days since 1970-01-01 of a date (H. Hinnant's days_from_civil).
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (H. Hinnant's civil_from_days).
    public static func date(fromDays z: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = z + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A time split into its UTC calendar parts; microseconds never negative.
    public struct Parts: Sendable, Hashable {
        public var year: Int64
        public var month: Int64
        public var day: Int64
        public var hour: Int64
        public var minute: Int64
        public var second: Int64
        public var microsecond: Int64
    }

    public static func parts(micros: Int64) -> Parts {
        // Floor division, so that times before 1970 (and damaged ones) still split cleanly.
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let date = date(fromDays: days)
        return Parts(
            year: date.year, month: date.month, day: date.day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, microsecond: fraction)
    }

    /// "2024-03-15 09:30:01.151075 UTC".
    public static func utcText(micros: Int64) -> String {
        let p = parts(micros: micros)
        return "\(year(p.year))-\(pad(p.month, 2))-\(pad(p.day, 2)) \(pad(p.hour, 2)):\(pad(p.minute, 2)):"
            + "\(pad(p.second, 2)).\(pad(p.microsecond, 6)) UTC"
    }

    /// "2024-03-15T09:30:01.151075Z": ISO 8601, which `parseISO` reads back exactly.
    public static func isoText(micros: Int64) -> String {
        let p = parts(micros: micros)
        return "\(year(p.year))-\(pad(p.month, 2))-\(pad(p.day, 2))T\(pad(p.hour, 2)):\(pad(p.minute, 2)):"
            + "\(pad(p.second, 2)).\(pad(p.microsecond, 6))Z"
    }

    /// Microseconds since the epoch of an ISO 8601 date or date-time: `2024-03-15`,
    /// `2024-03-15T09:30`, `2024-03-15T09:30:01.5Z`, `2025-10-04T08:15:20+02:00`, with `T` or a
    /// space between date and time; no zone means UTC. Nil when it is not one.
    public static func parseISO(_ text: some StringProtocol) -> Int64? {
        var rest = Substring(text)
        var offsetSeconds: Int64 = 0
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }), rest[..<sign].contains(where: { $0 == "T" || $0 == " " }) {
            // A zone offset: ±HH:MM or ±HHMM after the time.
            let zone = rest[rest.index(after: sign)...].filter { $0 != ":" }
            guard zone.count == 4, let hours = Int64(zone.prefix(2)), let minutes = Int64(zone.suffix(2)), hours < 24,
                minutes < 60
            else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (rest[sign] == "+" ? 1 : -1)
            rest = rest[..<sign]
        }
        let halves = rest.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard halves.count == 1 || halves.count == 2 else { return nil }
        let date = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
            let year = number(date[0]), let month = number(date[1]), let day = number(date[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var micros = days(year: year, month: month, day: day) * 86_400_000_000
        if halves.count == 2 {
            let time = halves[1].split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(time.count), time[0].count == 2, time[1].count == 2, let hour = number(time[0]),
                let minute = number(time[1]), hour < 24, minute < 60
            else { return nil }
            micros += (hour * 3600 + minute * 60) * 1_000_000
            if time.count == 3 {
                guard let seconds = decimalMicros(time[2]), seconds < 61_000_000 else { return nil }
                micros += seconds
            }
        }
        return micros - offsetSeconds * 1_000_000
    }

    /// `SS` or `SS.ffffff` as microseconds, exactly (no Double rounding).
    private static func decimalMicros(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].count == 2, let whole = number(parts[0]) else { return nil }
        var micros = whole * 1_000_000
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 9, let fraction = number(digits) else {
                return nil
            }
            var scaled = fraction
            var count = digits.count
            while count < 6 {
                scaled *= 10
                count += 1
            }
            while count > 6 {
                scaled /= 10
                count -= 1
            }
            micros += scaled
        }
        return micros
    }

    /// ASCII digits only: no sign, no spaces, which `Int64(_:)` would let through.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }

    /// Four digits at least, with a minus sign before the years before year 0 (ISO 8601's
    /// expanded form): a btsnoop time of zero falls on -0001-12-20.
    static func year(_ value: Int64) -> String {
        value < 0 ? "-" + pad(0 - value, 4) : pad(value, 4)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
