import JSON

/// What places a reading among the others: the members that pair it with its counterpart.
struct ReadingHead: Equatable {
    var frame: Int64?
    /// nil for `"decoder": null`, a reading nothing decoded (`bluetape decode --all`).
    var decoder: String?
    var address: String?
    var index: Int64?
}

/// Why a line is not a reading, worded for the person who wrote it (`not a reading: no "decoder" key`).
struct NotAReading: Error, Equatable {
    var message: String
    init(_ reason: String) { message = "not a reading: " + reason }
}

/// The one definition of a reading, applied to a whole line through the JSON parser. Any JSON
/// spelling of a reading passes: any whitespace and key order, numbers in any form, strings with
/// any escapes. A reading is a JSON object whose top-level keys are all different, with
///
/// - `"frame"`: a whole number within 64 bits (`12`, `12.0`, `1.2e1`), needed when pairing by frame;
/// - `"decoder"`: a string, or null for what no decoder took;
/// - `"addr"`: a string, or null or absent when there is none;
/// - `"index"`: a whole number, or null or absent;
/// - `"fields"`: an object, or `"error"`: the decode error exactly as readings write it,
///   `{"reason": string, "offset": whole number, "field": string}` (not both).
///
/// `ReadingPrefix` finds the same members faster in the lines it recognises; every line it does
/// not is judged here, and only here is a line turned down, so the message says what this check saw.
enum ReadingCheck {
    /// The reading on a line, or why it is not one. A JSON error is located by the 1-based byte of
    /// the line where it was found.
    static func check(_ line: some Collection<UInt8>, requireFrame: Bool) -> Result<
        (head: ReadingHead, object: JSONObject), NotAReading
    > {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return .failure(NotAReading("not JSON at byte \(error.column): \(error.message)"))
        }
        guard case .object(let object) = value else {
            return .failure(NotAReading("\(value.typeName), where a reading is a JSON object"))
        }
        do {
            return .success((try head(object, requireFrame: requireFrame), object))
        } catch {
            return .failure(error)
        }
    }

    private static func head(_ object: JSONObject, requireFrame: Bool) throws(NotAReading) -> ReadingHead {
        // One pass over the keys, told apart by length first, noting where each member is: a
        // million lines are checked when a whole golden changed.
        let entries = object.entries
        var frame = -1, decoder = -1, address = -1, index = -1, fields = -1, error = -1
        for (position, entry) in entries.enumerated() {
            let key = entry.key
            switch key.utf8.count {
            case 4 where key == "addr": address = position
            case 5 where key == "frame": frame = position
            case 5 where key == "index": index = position
            case 5 where key == "error": error = position
            case 6 where key == "fields": fields = position
            case 7 where key == "decoder": decoder = position
            default: break
            }
        }
        if let repeated = repeatedKey(entries) { throw NotAReading("\(quoted(repeated)) appears twice") }
        func value(_ position: Int) -> JSONValue? { position < 0 ? nil : entries[position].value }

        var head = ReadingHead()
        if let frame = value(frame) {
            head.frame = try integer(frame, "frame")
        } else if requireFrame {
            throw NotAReading("no \"frame\" key")
        }
        switch value(decoder) {
        case nil: throw NotAReading("no \"decoder\" key")
        case .string(let name)?: head.decoder = name
        case .null?: head.decoder = nil
        case let other?: throw NotAReading("\"decoder\" is \(shown(other)), not a string or null")
        }
        switch value(address) {
        case nil, .null?: break
        case .string(let text)?: head.address = text
        case let other?: throw NotAReading("\"addr\" is \(shown(other)), not a string")
        }
        if let index = value(index), !index.isNull { head.index = try integer(index, "index") }
        if fields >= 0, error >= 0 { throw NotAReading("it has both \"fields\" and \"error\"") }
        if let fields = value(fields), fields.object == nil {
            throw NotAReading("\"fields\" is \(shown(fields)), not an object")
        }
        if let error = value(error) { try checkError(error) }
        return head
    }

    /// The first key given twice. A reading has about ten keys: comparing the pairs of equal length
    /// costs less than hashing them all into a set.
    private static func repeatedKey(_ entries: [(key: String, value: JSONValue)]) -> String? {
        if entries.count > 32 {
            var seen: Set<String> = []
            return entries.first { !seen.insert($0.key).inserted }?.key
        }
        for j in entries.indices {
            let key = entries[j].key
            let length = key.utf8.count
            for i in 0..<j where entries[i].key.utf8.count == length && entries[i].key == key { return key }
        }
        return nil
    }

    /// The shape `FieldJSON` writes a decode error in.
    static let errorShape = #"{"reason":…,"offset":n,"field":…}"#

    private static func checkError(_ value: JSONValue) throws(NotAReading) {
        guard let error = value.object else {
            throw NotAReading("\"error\" is \(shown(value)), not \(errorShape)")
        }
        for key in error.keys where !["reason", "offset", "field"].contains(key) {
            throw NotAReading("\"error\" has a key \(quoted(key)) that decode errors do not have (\(errorShape))")
        }
        for key in ["reason", "offset", "field"] {
            guard let member = error[key] else { throw NotAReading("\"error\" has no \"\(key)\" (\(errorShape))") }
            if key == "offset" {
                _ = try integer(member, "error.offset")
            } else if member.string == nil {
                throw NotAReading("\"error.\(key)\" is \(shown(member)), not a string")
            }
        }
    }

    private static func integer(_ value: JSONValue, _ name: String) throws(NotAReading) -> Int64 {
        guard case .number(let text) = value else {
            throw NotAReading("\"\(name)\" is \(shown(value)), not an integer")
        }
        if let plain = Int64(text) { return plain }  // as the tool writes it
        guard let number = ExactNumber(text) else {
            throw NotAReading("\"\(name)\" is \(shown(value)), not an integer")
        }
        guard let integer = number.int64 else {
            let kind = number.isWhole ? "beyond 64-bit integers" : "not a whole number"
            throw NotAReading("\"\(name)\" is \(shown(value)), \(kind)")
        }
        return integer
    }

    /// A value as JSON text, cut short: what a message quotes of a line.
    static func shown(_ value: JSONValue) -> String {
        let text = value.jsonText
        return text.count <= 40 ? text : String(text.prefix(37)) + "…"
    }

    private static func quoted(_ key: String) -> String { shown(.string(key)) }
}

extension ExactNumber {
    /// Whether the value has no fractional part (whatever its size).
    var isWhole: Bool {
        switch exponent {
        case .small(let power): digits.isEmpty || power >= 0
        case .large(let negative, _): !negative
        }
    }
}
