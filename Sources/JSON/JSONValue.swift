/// A parsed JSON document. Objects keep their keys in the order written; numbers keep their
/// literal text, so 64-bit integers survive exactly.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var object: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    public var double: Double? { if case .number(let n) = self { Double(n) } else { nil } }

    /// The number as an exact integer, when it is one (also "3.0" and "1e3").
    public var int64: Int64? {
        guard case .number(let n) = self else { return nil }
        if let i = Int64(n) { return i }
        if let d = Double(n), d == d.rounded(), abs(d) < 9.2e18 { return Int64(d) }
        return nil
    }

    public var uint64: UInt64? {
        guard case .number(let n) = self else { return nil }
        if let u = UInt64(n) { return u }
        if let i = int64, i >= 0 { return UInt64(i) }
        return nil
    }

    public subscript(key: String) -> JSONValue? { object?[key] }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object with its keys in document order.
public struct JSONObject: Sendable, Hashable {
    public var entries: [(key: String, value: JSONValue)]

    public init(_ entries: [(key: String, value: JSONValue)] = []) { self.entries = entries }

    public subscript(key: String) -> JSONValue? {
        for entry in entries where entry.key == key { return entry.value }
        return nil
    }

    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

/// Where a JSON document is broken: line and column (1-based) and what was expected.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// Parses one JSON document. When `locations` is given it receives, for every value, the line
    /// where it starts, keyed by its path (`$`, `$.fields[2].name`).
    public static func parse(_ text: some Collection<UInt8>, locations: UnsafeMutablePointer<[String: Int]>? = nil)
        throws(JSONParseError) -> JSONValue
    {
        let bytes = Array(text)
        var parser = JSONParser(bytes: bytes, recordLocations: locations != nil)
        let value = try parser.parseDocument()
        locations?.pointee = parser.locations
        return value
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses a document and returns it with the line of every value, keyed by path.
    public static func parseWithLocations(_ bytes: [UInt8]) throws(JSONParseError) -> (JSONValue, [String: Int]) {
        var parser = JSONParser(bytes: bytes, recordLocations: true)
        let value = try parser.parseDocument()
        return (value, parser.locations)
    }
}

struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    let recordLocations: Bool
    var locations: [String: Int] = [:]
    static let maximumDepth = 256

    init(bytes: [UInt8], recordLocations: Bool) {
        self.bytes = bytes
        self.recordLocations = recordLocations
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipSpace()
        let value = try parseValue(path: "$", depth: 0)
        skipSpace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ message: String) -> JSONParseError {
        JSONParseError(line: line, column: index - lineStart + 1, message: message)
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func parseValue(path: String, depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        if recordLocations { locations[path] = line }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(path: path, depth: depth)
        case UInt8(ascii: "["): return try parseArray(path: path, depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Character(UnicodeScalar(bytes[index])))', expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + length <= bytes.count && (0..<length).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw error("unexpected text, expected \(word)") }
        index += length
    }

    mutating func parseObject(path: String, depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var entries: [(key: String, value: JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(entries))
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key")
            }
            let key = try parseString()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
            index += 1
            skipSpace()
            let value = try parseValue(path: recordLocations ? path + "." + key : "", depth: depth + 1)
            entries.append((key, value))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
            index += 1
            return .object(JSONObject(entries))
        }
    }

    mutating func parseArray(path: String, depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            let element = try parseValue(
                path: recordLocations ? "\(path)[\(elements.count)]" : "", depth: depth + 1)
            elements.append(element)
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
            index += 1
            return .array(elements)
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            index += 1
        }
        var out = [UInt8](bytes[start..<index])
        while index < bytes.count {
            let c = bytes[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unexpected end of input in a string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count, bytes[index] == 0x5C,
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                    }
                    let character = UnicodeScalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(character).utf8))
                default: throw error("invalid escape '\\\(Character(UnicodeScalar(e)))' in a string")
                }
            case 0..<0x20:
                throw error("control character in a string (write it as an escape)")
            default:
                out.append(c)
                index += 1
            }
        }
        throw error("unexpected end of input in a string")
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits(&self) > 0 else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}

extension JSONValue {
    /// Writes the value canonically (keys in stored order, numbers as written).
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let b): writer.bool(b)
        case .number(let n):
            writer.separate()
            writer.raw(string: n)
            writer.needsComma = true
        case .string(let s): writer.string(s)
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(to: &writer) }
            writer.endArray()
        case .object(let object):
            writer.beginObject()
            for entry in object.entries {
                writer.key(escaping: entry.key)
                entry.value.write(to: &writer)
            }
            writer.endObject()
        }
    }

    public var jsonText: String {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
