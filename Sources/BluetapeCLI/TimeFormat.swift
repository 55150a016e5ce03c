import CaptureModel

/// Renders Unix-epoch microseconds as text, without Foundation.
enum TimeFormat {
    /// "2024-03-15 09:30:01.151075 UTC".
    static func utc(micros: Int64) -> String { CivilTime.utcText(micros: micros) }

    /// Seconds with six decimals: "1710495001.151075".
    static func seconds(micros: Int64) -> String {
        var writer = JSONWriter(capacity: 24)
        writer.timestamp(micros: micros)
        return String(decoding: writer.bytes, as: UTF8.self)
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
