import FieldJSON
import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// Readings as JSON Lines: canonical, so that golden files change only when readings do. Written
/// from the packed form (`PackedReadingJSON`), the one way every reading's JSON is made.
public enum ReadingJSON {
    public static func write(_ reading: Reading, to w: inout JSONWriter) {
        var context = Context()
        write(reading, to: &w, context: &context)
    }

    /// What is kept from one reading to the next: the packing's scratch space and the texts
    /// (decoder ids, sources, field names) already escaped.
    public struct Context {
        let scratch = PackedReadings(capacity: 1024)
        let packer = ReadingPacker()
        var json = PackedReadingJSON()
        public init() {}
    }

    public static func write(_ reading: Reading, to w: inout JSONWriter, context: inout Context) {
        context.scratch.removeAll()
        context.packer.pack(reading, into: context.scratch)
        context.scratch.forEach { packed in
            context.json.write(packed, to: &w)
            return true
        }
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
