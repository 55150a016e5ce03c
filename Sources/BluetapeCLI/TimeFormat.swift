/// Renders Unix-epoch microseconds as text, without Foundation.
enum TimeFormat {
    /// "2024-03-15 09:30:01.151075 UTC".
    static func utc(micros: Int64) -> String {
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
        let (year, month, day) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(fraction, 6)) UTC"
    }

    /// Seconds with six decimals: "1710495001.151075".
    static func seconds(micros: Int64) -> String {
        var writer = JSONWriter(capacity: 24)
        writer.timestamp(micros: micros)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
    static func civil(fromDays z: Int64) -> (Int64, Int64, Int64) {
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

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// "12.345678 s", "3 min 04.5 s", "2 h 03 min".
    static func duration(micros: Int64) -> String {
        if micros < 60_000_000 { return "\(seconds(micros: micros)) s" }
        let total = micros / 1_000_000
        if total < 3600 { return "\(total / 60) min \(pad(total % 60, 2)) s" }
        return "\(total / 3600) h \(pad(total / 60 % 60, 2)) min \(pad(total % 60, 2)) s"
    }
}

import JSON
