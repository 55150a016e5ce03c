import FieldJSON
import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// Readings as JSON Lines: canonical, so that golden files change only when readings do.
public enum ReadingJSON {
    public static func write(_ reading: Reading, to w: inout JSONWriter) {
        var keys = ReadingKeys()
        write(reading, to: &w, keys: &keys)
    }

    /// `keys`: names already encoded, kept from one reading to the next of a run.
    public static func write(_ reading: Reading, to w: inout JSONWriter, keys: inout ReadingKeys) {
        w.beginObject()
        w.key("frame")
        w.int(reading.frame)
        w.key("ts")
        w.timestamp(micros: reading.timestamp)
        if let address = reading.address {
            w.key("addr")
            w.quoted(upTo: BluetoothAddress.textLength) { address.writeText(to: $0) }
        }
        w.key("decoder")
        let decoder = reading.decoder.map { keys.decoderSlot($0) }
        if let decoder { keys.writeDecoder(decoder, to: &w) } else { w.null() }
        w.key("source")
        keys.writeSource(reading.source, to: &w)
        switch reading.match {
        case .company(let company):
            w.key("company")
            w.int(company)
        case .serviceData(let uuid):
            w.key("uuid")
            writeUUID(uuid, &w)
        case .characteristic(let uuid):
            w.key("uuid")
            if let uuid { writeUUID(uuid, &w) } else { w.null() }
        }
        if let index = reading.index {
            w.key("index")
            w.int(index)
        }
        switch reading.outcome {
        case .fields(let fields):
            w.key("fields")
            if let decoder { keys.write(fields, decoder: decoder, to: &w) } else { FieldJSON.write(fields, to: &w) }
        case .error(let error):
            w.key("error")
            FieldJSON.write(error, to: &w)
        case .undecoded(let bytes):
            w.key("data")
            w.hex(bytes)
        }
        if let repeats = reading.repeats, repeats > 1 {
            w.key("repeats")
            w.int(repeats)
        }
        w.endObject()
        w.newline()
    }

    /// Printed straight into the output: no String made per reading.
    static func writeUUID(_ uuid: BluetoothUUID, _ w: inout JSONWriter) {
        w.quoted(upTo: BluetoothUUID.maximumTextLength) { uuid.writeText(to: $0) }
    }
}

/// Readings for people: one line each.
public enum ReadingText {
    public static func write(_ reading: Reading, to w: inout JSONWriter) {
        var line = "#\(reading.frame)"
        line += String(repeating: " ", count: max(1, 8 - line.count))
        line += (reading.address?.description ?? "-") + "  " + (reading.decoder ?? "(no decoder)")
        switch reading.match {
        case .company(let company): line += " [company \(AssignedNames.companyText(company))]"
        case .serviceData(let uuid): line += " [service data \(uuid)]"
        case .characteristic(let uuid): line += " [\(reading.source) \(uuid?.description ?? "unknown handle")]"
        }
        if let index = reading.index { line += " #\(index)" }
        switch reading.outcome {
        case .fields(let fields):
            for field in fields.entries { line += "  \(field.name)=\(PrintableText.escape(text(field.value)))" }
        case .error(let error):
            line += "  error: \(PrintableText.escape(error.description))"
        case .undecoded(let bytes):
            line += "  \(Hex.encode(bytes))"
        }
        if let repeats = reading.repeats, repeats > 1 { line += "  (×\(repeats))" }
        w.raw(string: line)
        w.newline()
    }

    static func text(_ value: FieldValue) -> String {
        var w = JSONWriter(capacity: 32)
        if case .string(let s) = value { return s }
        FieldJSON.write(value, to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// Readings as CSV in long form (one row per field), so that readings of any decoder fit one table.
public enum ReadingCSV {
    public static let header = "frame,ts,addr,decoder,source,match,index,field,value\n"

    /// `leading`: columns to put first on every row (`capture,`), already quoted and comma-ended.
    public static func write(_ reading: Reading, to w: inout JSONWriter, leading: String = "") {
        var ts = JSONWriter(capacity: 24)
        ts.timestamp(micros: reading.timestamp)
        let match: String
        switch reading.match {
        case .company(let company): match = "company \(AssignedNames.companyText(company))"
        case .serviceData(let uuid): match = uuid.description
        case .characteristic(let uuid): match = uuid?.description ?? ""
        }
        let columns: [String] = [
            String(reading.frame), String(decoding: ts.bytes, as: UTF8.self), reading.address?.description ?? "",
            reading.decoder ?? "", reading.source, match, reading.index.map(String.init) ?? "",
        ]
        let prefix = leading + columns.map(quote).joined(separator: ",")
        func row(_ field: String, _ value: String) {
            let line: String = prefix + "," + quote(field) + "," + quote(value) + "\n"
            w.raw(string: line)
        }
        switch reading.outcome {
        case .fields(let fields):
            for field in fields.entries { row(field.name, PrintableText.escape(ReadingText.text(field.value))) }
            if let repeats = reading.repeats, repeats > 1 { row("repeats", String(repeats)) }
        case .error(let error): row("error", error.description)
        case .undecoded(let bytes): row("data", Hex.encode(bytes))
        }
    }

    /// `text` as one CSV field: quoted when it holds a comma, a quote or a line break.
    public static func quote(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
