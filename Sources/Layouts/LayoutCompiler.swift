import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders

/// A layout read from its file: the tree, what it matches, its rules, and every issue found.
struct CompiledLayout: Sendable {
    var id: String
    var summary: String
    var endian: Endianness
    var parameters: [LayoutParameter]
    var missingParameters: [String]
    var match: MatchSpec
    var lengthRule: ClosedRange<Int>?
    var nodes: [Node]
    var dedupKey: [String]?
    var cadence: LayoutRule?
}

/// Reads a layout document, checks it and builds its tree; every problem becomes a located issue.
///
/// One pass does both, so the linter and the loader can never disagree about a file.
struct LayoutCompiler {
    var diagnostics: Diagnostics
    let builtInIDs: Set<String>
    let overrides: [String: String]
    /// Parameters that must have a value for the layout to load.
    let requireParameters: Bool

    var parameterValues: [String: JSONValue] = [:]
    var parameterDefinitions: [LayoutParameter] = []
    var missingParameters: [String] = []
    var endian: Endianness = .little
    var lengthBound: ClosedRange<Int>?
    /// Every value defined so far, by name, for rules that must agree across switch arms.
    var allValues: [String: ValueSpec] = [:]
    /// Every field name written anywhere in the file, to tell "later" from "unknown".
    var documentNames: Set<String> = []
    /// Every `null_when` with its path, checked once all names are known (it may look ahead).
    var nullConditions: [(path: String, field: String)] = []

    init(
        file: String, locations: [String: Int], builtInIDs: Set<String>, overrides: [String: String],
        requireParameters: Bool
    ) {
        diagnostics = Diagnostics(file: file, locations: locations)
        self.builtInIDs = builtInIDs
        self.overrides = overrides
        self.requireParameters = requireParameters
    }

    /// Parses and compiles a document.
    static func compile(
        bytes: [UInt8], file: String, builtInIDs: Set<String>, overrides: [String: String], requireParameters: Bool
    ) -> (CompiledLayout?, [LintIssue]) {
        let root: JSONValue
        let locations: [String: Int]
        do {
            (root, locations) = try JSONValue.parseWithLocations(bytes)
        } catch {
            let issue = LintIssue(
                file: file, line: error.line, path: "$",
                message: "not valid JSON: \(error.message) (column \(error.column))")
            return (nil, [issue])
        }
        var compiler = LayoutCompiler(
            file: file, locations: locations, builtInIDs: builtInIDs, overrides: overrides,
            requireParameters: requireParameters)
        let layout = compiler.compile(root)
        compiler.diagnostics.sort()
        let issues = compiler.diagnostics.issues
        return (issues.contains(where: \.isError) ? nil : layout, issues)
    }

    // MARK: - Keys

    static let topKeys = [
        "id", "description", "endian", "parameters", "match", "length", "fields", "dedup", "cadence", "comment",
    ]
    static let matchKeys = [
        "company", "service_data", "characteristic", "operation", "service_uuid", "name_prefix", "length", "prefix",
        "comment",
    ]
    static let parameterKeys = ["type", "default", "description", "comment"]
    static let valueKeys = [
        "name", "scale", "add", "unit", "enum", "min", "max", "counter", "max_jump", "const", "format", "flags",
        "label", "null_when", "description", "comment",
    ]
    static let fieldKeys =
        [
            "type", "endian", "offset", "repeat", "length", "bits", "switch", "cases", "compute", "decimals",
            "optional", "bit", "width", "inverted",
        ] + valueKeys
    static let bitKeys = ["bit", "width", "inverted"] + valueKeys

    /// Reports keys not in `allowed`; keys that exist for other kinds of entry get a pointed message.
    mutating func checkKeys(
        _ object: JSONObject, _ path: String, allowed: [String], known: [String] = [], kind: String
    ) {
        for key in object.keys where !allowed.contains(key) {
            if known.contains(key) {
                diagnostics.error(path + "." + key, "'\(key)' does not apply to \(kind)")
            } else {
                diagnostics.error(path + "." + key, "unknown key '\(key)'" + suggestion(for: key, in: allowed))
            }
        }
    }

    // MARK: - Values

    mutating func string(_ value: JSONValue?, _ path: String, _ what: String) -> String? {
        guard let value else { return nil }
        guard let s = value.string else {
            diagnostics.error(path, "\(what) must be a string, not \(value.typeName)")
            return nil
        }
        return s
    }

    mutating func number(_ value: JSONValue?, _ path: String, _ what: String) -> Double? {
        guard let value else { return nil }
        guard case .number = value, let d = value.double else {
            diagnostics.error(path, "\(what) must be a number, not \(value.typeName)")
            return nil
        }
        return d
    }

    /// An integer written as a JSON number or as a hex string ("0xFFFF").
    mutating func integer(_ value: JSONValue?, _ path: String, _ what: String) -> Int64? {
        guard let value else { return nil }
        if let parsed = Self.parseInteger(value) { return parsed }
        diagnostics.error(path, "\(what) must be a whole number (or a \"0x…\" hex string), not \(value.jsonText)")
        return nil
    }

    static func parseInteger(_ value: JSONValue) -> Int64? {
        switch value {
        case .number(let text):
            if let i = Int64(text) { return i }
            if let d = ExactDecimal(text), d.isInteger, let f = d.fraction { return f.p }
            return nil
        case .string(let text):
            return parseIntegerText(text)
        default:
            return nil
        }
    }

    static func parseIntegerText(_ text: String) -> Int64? {
        var body = Substring(text)
        var negative = false
        if body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        }
        let magnitude: UInt64?
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            magnitude = UInt64(body.dropFirst(2).filter { $0 != "_" }, radix: 16)
        } else {
            magnitude = UInt64(body.filter { $0 != "_" })
        }
        guard let magnitude else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return Int64(exactly: magnitude)
    }

    // MARK: - Document

    mutating func compile(_ root: JSONValue) -> CompiledLayout? {
        guard let object = root.object else {
            diagnostics.error("$", "a layout is a JSON object, not \(root.typeName)")
            return nil
        }
        checkKeys(object, "$", allowed: Self.topKeys, kind: "a layout")

        var id = ""
        if let value = object["id"] {
            if let s = string(value, "$.id", "id") {
                id = s
                if !Self.isValidID(s) {
                    diagnostics.error(
                        "$.id", "id \"\(s)\" must be lower-case snake_case words separated by dots (\"acme.th1\")")
                }
                if builtInIDs.contains(s) {
                    diagnostics.error(
                        "$.id",
                        "id \"\(s)\" is the id of a built-in decoder; choose another (e.g. \"\(s).layout\")")
                }
            }
        } else {
            diagnostics.error("$", "a layout needs an \"id\"")
        }
        let summary = string(object["description"], "$.description", "description") ?? ""
        if let e = object["endian"] { endian = parseEndian(e, "$.endian") ?? .little }

        parseParameters(object["parameters"])
        var match = MatchSpec()
        if let m = object["match"] {
            match = parseMatch(m)
        } else {
            diagnostics.error("$", "a layout needs a \"match\" (company, service_data or characteristic)")
        }
        var lengthRule: ClosedRange<Int>?
        if let l = object["length"] { lengthRule = parseLength(l, "$.length") }
        lengthBound = match.length ?? lengthRule

        var nodes: [Node] = []
        var scope = Scope()
        if let f = object["fields"] { Self.collectNames(f, into: &documentNames) }
        if let f = object["fields"] {
            if let array = f.array {
                if array.isEmpty { diagnostics.error("$.fields", "a layout needs at least one field") }
                var position: Position = .known(0)
                nodes = parseNodes(array, "$.fields", &scope, &position)
                checkLength(nodes, position)
            } else {
                diagnostics.error("$.fields", "fields must be an array, not \(f.typeName)")
            }
        } else {
            diagnostics.error("$", "a layout needs \"fields\"")
        }

        for (path, field) in nullConditions where !documentNames.contains(field) {
            diagnostics.error(path, "null_when names no field of the layout: '\(field)'" + suggestion(for: field, in: documentNames))
        }

        var dedup: [String]?
        if let d = object["dedup"] {
            if let names = d.array?.compactMap(\.string), names.count == d.array?.count, !names.isEmpty {
                dedup = names
                for (i, name) in names.enumerated() where scope.lookup(name) == nil {
                    diagnostics.error(
                        "$.dedup[\(i)]", "no field named '\(name)'" + suggestion(for: name, in: scope.allNames))
                }
            } else {
                diagnostics.error("$.dedup", "dedup is a non-empty array of field names, e.g. [\"nonce\"]")
            }
        }
        var cadence: LayoutRule?
        if let c = object["cadence"] { cadence = parseCadence(c) }

        return CompiledLayout(
            id: id, summary: summary, endian: endian, parameters: parameterDefinitions,
            missingParameters: missingParameters, match: match, lengthRule: lengthRule, nodes: nodes,
            dedupKey: dedup, cadence: cadence)
    }

    static func collectNames(_ value: JSONValue, into names: inout Set<String>) {
        switch value {
        case .array(let a): for v in a { collectNames(v, into: &names) }
        case .object(let o):
            if let n = o["name"]?.string { names.insert(n) }
            if let bits = o["bits"] { collectNames(bits, into: &names) }
            if let cases = o["cases"]?.object { for (_, v) in cases.entries { collectNames(v, into: &names) } }
        default: break
        }
    }

    /// "no field named x", or "x comes later" when the file defines it after this point.
    func unknownName(_ name: String, _ scope: Scope, what: String = "a field") -> String {
        if documentNames.contains(name) && scope.lookup(name) == nil {
            return "'\(name)' is defined later in the layout; \(what) can only use fields before it"
        }
        return "no earlier field named '\(name)'" + suggestion(for: name, in: scope.allNames)
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isSnakeCase(String($0)) }
    }

    mutating func parseEndian(_ value: JSONValue, _ path: String) -> Endianness? {
        switch value.string {
        case "little": return .little
        case "big": return .big
        default:
            diagnostics.error(path, "endian is \"little\" or \"big\", not \(value.jsonText)")
            return nil
        }
    }

    mutating func parseLength(_ value: JSONValue, _ path: String) -> ClosedRange<Int>? {
        if let object = value.object {
            checkKeys(object, path, allowed: ["min", "max", "comment"], kind: "a length")
            let low = object["min"].flatMap { integer($0, path + ".min", "min") } ?? 0
            let high = object["max"].flatMap { integer($0, path + ".max", "max") } ?? 65_535
            if object["min"] == nil && object["max"] == nil {
                diagnostics.error(path, "a length range needs \"min\", \"max\" or both")
            }
            guard low >= 0, low <= high, high <= 65_535 else {
                diagnostics.error(path, "length range \(low)…\(high) is empty or out of range")
                return nil
            }
            return Int(low)...Int(high)
        }
        guard let n = integer(value, path, "length") else { return nil }
        guard n >= 0, n <= 65_535 else {
            diagnostics.error(path, "length \(n) is out of range")
            return nil
        }
        return Int(n)...Int(n)
    }

    mutating func parseCadence(_ value: JSONValue) -> LayoutRule? {
        let path = "$.cadence"
        guard let object = value.object else {
            diagnostics.error(path, "cadence is an object: {\"min_ms\": …, \"max_ms\": …}")
            return nil
        }
        checkKeys(object, path, allowed: ["min_ms", "max_ms", "comment"], kind: "a cadence")
        let low = number(object["min_ms"], path + ".min_ms", "min_ms")
        let high = number(object["max_ms"], path + ".max_ms", "max_ms")
        if low == nil && high == nil {
            diagnostics.error(path, "a cadence needs \"min_ms\", \"max_ms\" or both")
            return nil
        }
        if let low, let high, low > high { diagnostics.error(path, "min_ms \(low) is more than max_ms \(high)") }
        if let low, low < 0 { diagnostics.error(path + ".min_ms", "min_ms must not be negative") }
        // Microseconds are kept as Int64: anything past about 292,000 years has no value.
        for (key, bound) in [("min_ms", low), ("max_ms", high)] {
            if let bound, !(bound.magnitude < 9e15) {
                diagnostics.error(path + "." + key, "\(key) \(bound) is out of range")
                return nil
            }
        }
        return LayoutRule(
            field: nil,
            kind: .cadence(
                minMicros: low.map { Int64(($0 * 1000).rounded()) },
                maxMicros: high.map { Int64(($0 * 1000).rounded()) }))
    }
}
