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

    private var parameterValues: [String: JSONValue] = [:]
    private var parameterDefinitions: [LayoutParameter] = []
    private var missingParameters: [String] = []
    private var endian: Endianness = .little
    private var lengthBound: ClosedRange<Int>?
    /// Every value defined so far, by name, for rules that must agree across switch arms.
    private var allValues: [String: ValueSpec] = [:]
    /// Every field name written anywhere in the file, to tell "later" from "unknown".
    private var documentNames: Set<String> = []

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
        "name", "scale", "add", "unit", "enum", "min", "max", "counter", "max_jump", "const", "description", "comment",
    ]
    static let fieldKeys =
        ["type", "endian", "offset", "repeat", "length", "bits", "switch", "cases", "compute"] + valueKeys
    static let bitKeys = ["bit", "width"] + valueKeys

    /// Reports keys not in `allowed`; keys that exist for other kinds of entry get a pointed message.
    private mutating func checkKeys(
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

    private mutating func string(_ value: JSONValue?, _ path: String, _ what: String) -> String? {
        guard let value else { return nil }
        guard let s = value.string else {
            diagnostics.error(path, "\(what) must be a string, not \(value.typeName)")
            return nil
        }
        return s
    }

    private mutating func number(_ value: JSONValue?, _ path: String, _ what: String) -> Double? {
        guard let value else { return nil }
        guard case .number = value, let d = value.double else {
            diagnostics.error(path, "\(what) must be a number, not \(value.typeName)")
            return nil
        }
        return d
    }

    /// An integer written as a JSON number or as a hex string ("0xFFFF").
    private mutating func integer(_ value: JSONValue?, _ path: String, _ what: String) -> Int64? {
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

    // MARK: - Parameters

    /// A value from the file, or from a parameter when written "$name".
    private enum Resolved {
        case value(JSONValue)
        case missing
        case invalid
    }

    private mutating func resolve(_ value: JSONValue, _ path: String) -> Resolved {
        guard case .string(let text) = value, text.hasPrefix("$") else { return .value(value) }
        let name = String(text.dropFirst())
        guard parameterDefinitions.contains(where: { $0.name == name }) else {
            diagnostics.error(
                path,
                "no parameter named '\(name)'" + suggestion(for: name, in: parameterDefinitions.map(\.name))
                    + (parameterDefinitions.isEmpty ? " (declare it under \"parameters\")" : ""))
            return .invalid
        }
        guard let resolved = parameterValues[name] else { return .missing }
        return .value(resolved)
    }

    private mutating func parseParameters(_ value: JSONValue?) {
        var seen: Set<String> = []
        if let value {
            guard let object = value.object else {
                diagnostics.error("$.parameters", "parameters must be an object of name → {type, default, description}")
                return
            }
            for (name, definition) in object.entries {
                let path = "$.parameters." + name
                seen.insert(name)
                if !isSnakeCase(name) { diagnostics.error(path, "parameter name \"\(name)\" is not snake_case") }
                guard let spec = definition.object else {
                    diagnostics.error(path, "a parameter is an object with \"type\" and an optional \"default\"")
                    continue
                }
                checkKeys(spec, path, allowed: Self.parameterKeys, kind: "a parameter")
                let typeName = string(spec["type"], path + ".type", "type") ?? ""
                guard let type = LayoutParameter.Kind(rawValue: typeName) else {
                    diagnostics.error(
                        path + ".type",
                        spec["type"] == nil
                            ? "a parameter needs a \"type\": uuid, integer, string or hex"
                            : "unknown parameter type '\(typeName)'; use uuid, integer, string or hex")
                    continue
                }
                var defaultText: String?
                if let d = spec["default"] {
                    switch d {
                    case .string(let s): defaultText = s
                    case .number(let n): defaultText = n
                    default: diagnostics.error(path + ".default", "a default is a string or a number")
                    }
                    if let text = defaultText, type.parse(text) == nil {
                        diagnostics.error(path + ".default", "\"\(text)\" is not a valid \(type.rawValue)")
                    }
                }
                let given = overrides[name]
                if let given, type.parse(given) == nil {
                    diagnostics.error(
                        path, "the value \"\(given)\" given for '\(name)' is not a valid \(type.rawValue)")
                }
                let parameter = LayoutParameter(
                    name: name, kind: type, defaultValue: defaultText, value: given ?? defaultText,
                    summary: spec["description"]?.string ?? "")
                parameterDefinitions.append(parameter)
                if let text = parameter.value, let parsed = type.parse(text) {
                    parameterValues[name] = parsed
                } else if parameter.value == nil {
                    missingParameters.append(name)
                    if requireParameters {
                        diagnostics.error(
                            path,
                            "parameter '\(name)' has no default and no value was given "
                                + "(give one, e.g. bluetape --param \(name)=…)")
                    }
                }
            }
        }
        for name in overrides.keys.sorted() where !seen.contains(name) {
            diagnostics.error(
                "$.parameters",
                "a value was given for '\(name)', but the layout has no such parameter"
                    + suggestion(for: name, in: seen)
                    + (seen.isEmpty ? "" : " (parameters: \(seen.sorted().joined(separator: ", ")))"))
        }
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
    private func unknownName(_ name: String, _ scope: Scope, what: String = "a field") -> String {
        if documentNames.contains(name) && scope.lookup(name) == nil {
            return "'\(name)' is defined later in the layout; \(what) can only use fields before it"
        }
        return "no earlier field named '\(name)'" + suggestion(for: name, in: scope.allNames)
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isSnakeCase(String($0)) }
    }

    private mutating func parseEndian(_ value: JSONValue, _ path: String) -> Endianness? {
        switch value.string {
        case "little": return .little
        case "big": return .big
        default:
            diagnostics.error(path, "endian is \"little\" or \"big\", not \(value.jsonText)")
            return nil
        }
    }

    private mutating func parseLength(_ value: JSONValue, _ path: String) -> ClosedRange<Int>? {
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

    private mutating func parseCadence(_ value: JSONValue) -> LayoutRule? {
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

    // MARK: - Match

    private mutating func parseMatch(_ value: JSONValue) -> MatchSpec {
        var match = MatchSpec()
        let path = "$.match"
        guard let object = value.object else {
            diagnostics.error(path, "match must be an object, not \(value.typeName)")
            return match
        }
        checkKeys(object, path, allowed: Self.matchKeys, kind: "a match")

        func list(_ value: JSONValue, _ path: String) -> [(JSONValue, String)] {
            if let array = value.array { return array.enumerated().map { ($0.element, "\(path)[\($0.offset)]") } }
            return [(value, path)]
        }
        var sawPrimary = false
        var missingPrimary = false
        if let v = object["company"] {
            sawPrimary = true
            for (item, p) in list(v, path + ".company") {
                switch resolve(item, p) {
                case .value(let resolved):
                    if let c = integer(resolved, p, "company"), (0...0xFFFF).contains(c) {
                        match.companies.append(UInt16(c))
                    } else if Self.parseInteger(resolved) != nil {
                        diagnostics.error(p, "company id must be 0…0xFFFF")
                    }
                case .missing: missingPrimary = true
                case .invalid: break
                }
            }
        }
        for (key, kind) in [("service_data", 0), ("characteristic", 1), ("service_uuid", 2)] {
            guard let v = object[key] else { continue }
            if kind < 2 { sawPrimary = true }
            for (item, p) in list(v, path + "." + key) {
                switch resolve(item, p) {
                case .value(let resolved):
                    guard let text = resolved.string, let uuid = BluetoothUUID(text) else {
                        diagnostics.error(
                            p,
                            "\(key) must be a UUID (\"2a37\" or \"6e400001-b5a3-f393-e0a9-e50e24dcca9e\"), not \(resolved.jsonText)"
                        )
                        continue
                    }
                    switch kind {
                    case 0: match.serviceData.append(uuid)
                    case 1: match.characteristics.append(uuid)
                    default: match.serviceUUIDs.append(uuid)
                    }
                case .missing: if kind < 2 { missingPrimary = true }
                case .invalid: break
                }
            }
        }
        if let v = object["operation"] {
            for (item, p) in list(v, path + ".operation") {
                guard let text = item.string, let op = ValueOperation(rawValue: text) else {
                    diagnostics.error(p, "operation is one of notify, indicate, read, write; not \(item.jsonText)")
                    continue
                }
                match.operations.append(op)
            }
            if object["characteristic"] == nil {
                diagnostics.error(path + ".operation", "operation only applies to a characteristic match")
            }
        }
        if let v = object["name_prefix"] {
            if case .value(let resolved) = resolve(v, path + ".name_prefix") {
                match.namePrefix = string(resolved, path + ".name_prefix", "name_prefix")
            }
        }
        if let v = object["length"] { match.length = parseLength(v, path + ".length") }
        if let v = object["prefix"] {
            if case .value(let resolved) = resolve(v, path + ".prefix") {
                if let text = string(resolved, path + ".prefix", "prefix") {
                    if let bytes = Hex.decode(text), !bytes.isEmpty {
                        match.prefix = bytes
                    } else {
                        diagnostics.error(
                            path + ".prefix", "prefix must be hex bytes such as \"0215\", not \"\(text)\"")
                    }
                }
            }
        }
        if !sawPrimary {
            diagnostics.error(path, "match needs a company, a service_data UUID or a characteristic UUID")
        }
        _ = missingPrimary
        if let length = match.length, match.prefix.count > length.upperBound {
            diagnostics.error(path + ".prefix", "prefix is longer than the matched length")
        }
        return match
    }

    // MARK: - Fields

    /// What is known about the names defined so far on the way to the current field.
    struct Scope {
        struct Entry {
            var value: ValueSpec?
            var path: String
            /// An unscaled integer (can drive a switch, a length or a count).
            var isRawInteger: Bool
            var isNumeric: Bool
            /// Defined on every path to here, or only in some switch arms.
            var definite: Bool
            /// A single bit read as true/false (can drive a switch with "true"/"false" cases).
            var isFlag = false
        }
        var entries: [String: Entry] = [:]
        var order: [String] = []

        func lookup(_ name: String) -> Entry? { entries[name] }
        var allNames: [String] { order }

        mutating func define(_ name: String, _ entry: Entry) {
            if entries[name] == nil { order.append(name) }
            entries[name] = entry
        }
    }

    /// The byte position a field starts at, when it is the same for every payload.
    enum Position: Equatable {
        case known(Int)
        /// After a variable-length field or a switch whose arms differ in size.
        case variable
        /// After a field that reads to the end: nothing can follow.
        case end(field: String)

        func advanced(by n: Int) -> Position {
            if case .known(let p) = self { return .known(p + n) }
            return self
        }
    }

    private mutating func parseNodes(
        _ array: [JSONValue], _ path: String, _ scope: inout Scope, _ position: inout Position
    ) -> [Node] {
        var nodes: [Node] = []
        for (index, entry) in array.enumerated() {
            let p = "\(path)[\(index)]"
            guard let object = entry.object else {
                diagnostics.error(p, "a field is an object with \"name\" and \"type\", not \(entry.typeName)")
                continue
            }
            if let node = parseNode(object, p, &scope, &position) { nodes.append(node) }
        }
        return nodes
    }

    private mutating func parseNode(
        _ object: JSONObject, _ path: String, _ scope: inout Scope, _ position: inout Position
    ) -> Node? {
        if object["switch"] != nil { return parseSwitch(object, path, &scope, &position) }
        if object["compute"] != nil { return parseComputed(object, path, &scope) }
        guard let typeValue = object["type"] else {
            diagnostics.error(
                path,
                "a field needs a \"type\"" + (object["name"]?.string.map { " ('\($0)')" } ?? "")
                    + " (or \"compute\" for a computed field, or \"switch\")")
            return nil
        }
        guard let typeName = typeValue.string else {
            diagnostics.error(path + ".type", "type must be a string, not \(typeValue.typeName)")
            return nil
        }
        checkOffset(object, path, position)
        switch typeName {
        case "pad":
            checkKeys(
                object, path, allowed: ["type", "length", "offset", "comment"], known: Self.fieldKeys,
                kind: "a pad field")
            guard let n = object["length"].flatMap({ integer($0, path + ".length", "length") }), n > 0, n <= 65_535
            else {
                if object["length"] == nil {
                    diagnostics.error(path, "a pad field needs a \"length\" in bytes")
                } else {
                    diagnostics.error(path + ".length", "a pad length is a positive number of bytes")
                }
                return nil
            }
            consume(Int(n), path, "pad", &position)
            return .pad(Int(n))
        case "bytes", "ascii", "utf8":
            return parseData(object, path, typeName, &scope, &position)
        default:
            break
        }
        guard let type = Self.scalarType(typeName) else {
            let message: String
            if typeName == "float" || typeName == "float32" {
                message = "type '\(typeName)' is ambiguous: use 'f32' (IEEE 754) or 'medfloat32' (IEEE-11073 FLOAT)"
            } else {
                let hint =
                    Self.typeHint(typeName).map { "; did you mean '\($0)'?" }
                    ?? suggestion(for: typeName, in: Self.typeNames)
                message = "unknown type '\(typeName)'" + hint + " (types: \(Self.typeNames.joined(separator: ", ")))"
            }
            diagnostics.error(path + ".type", message)
            return nil
        }
        let endian = object["endian"].flatMap { parseEndian($0, path + ".endian") } ?? self.endian
        if object["bits"] != nil {
            return parseBits(object, path, type, endian, &scope, &position)
        }
        var allowed = ["type", "endian", "offset", "repeat"] + Self.valueKeys
        if !type.isInteger {
            allowed.removeAll { ["enum", "counter", "const"].contains($0) }
        }
        checkKeys(object, path, allowed: allowed, known: Self.fieldKeys, kind: "a \(typeName) field")
        guard var value = parseValue(object, path, type: type, width: nil, scope: &scope, needsName: true) else {
            return nil
        }

        var count: Extent?
        if let r = object["repeat"] {
            count = parseExtent(r, path + ".repeat", "repeat", scope: scope)
            if value.counter != nil || value.maxJump != nil || value.constant != nil {
                diagnostics.error(path + ".repeat", "counter, max_jump and const do not apply to arrays")
                value.counter = nil
                value.maxJump = nil
            }
        }
        switch count {
        case .fixed(let n)?: consume(n * type.size, path, value.name, &position)
        case .rest?: position = .end(field: value.name)
        case .field?: if case .known = position { position = .variable }
        case nil: consume(type.size, path, value.name, &position)
        }
        define(
            value, path, &scope,
            rawInteger: type.isInteger && value.conversion.isIdentity && value.enumCases.isEmpty && count == nil,
            numeric: count == nil)
        return .scalar(ScalarNode(value: value, type: type, endian: endian, count: count))
    }

    static let typeNames = [
        "u8", "u16", "u24", "u32", "u40", "u48", "u64", "i8", "i16", "i24", "i32", "i40", "i48", "i64",
        "f32", "f64", "medfloat16", "sfloat", "medfloat32", "bytes", "ascii", "utf8", "pad",
    ]

    /// The type meant by a C-style or other common spelling ("uint16_t" → "u16", "double" → "f64").
    static func typeHint(_ name: String) -> String? {
        var base = name.lowercased()
        if base.hasSuffix("_t") { base.removeLast(2) }
        for (prefix, letter) in [("uint", "u"), ("int", "i")] where base.hasPrefix(prefix) {
            let bits = base.dropFirst(prefix.count)
            if let n = Int(bits), scalarType(letter + String(n)) != nil { return letter + String(n) }
        }
        switch base {
        case "double", "float64": return "f64"
        case "string", "str", "text": return "utf8"
        case "byte", "uchar": return "u8"
        case "char": return "i8"
        case "short": return "i16"
        case "ushort": return "u16"
        case "hex", "raw", "blob": return "bytes"
        default: return nil
        }
    }

    static func scalarType(_ name: String) -> ScalarType? {
        switch name {
        case "f32": return .ieee754(size: 4)
        case "f64": return .ieee754(size: 8)
        case "medfloat16", "sfloat": return .medfloat(size: 2)
        case "medfloat32": return .medfloat(size: 4)
        default: break
        }
        guard name.count >= 2, let first = name.first, first == "u" || first == "i", let bits = Int(name.dropFirst()),
            bits % 8 == 0, (8...64).contains(bits), bits != 56
        else { return nil }
        return .integer(size: bits / 8, signed: first == "i")
    }

    private mutating func checkOffset(_ object: JSONObject, _ path: String, _ position: Position) {
        guard let value = object["offset"] else { return }
        guard let offset = integer(value, path + ".offset", "offset"), offset >= 0 else { return }
        switch position {
        case .known(let p) where offset > p:
            diagnostics.error(
                path + ".offset",
                "offset \(offset) leaves a gap: the previous field ends at byte \(p); describe bytes \(p)…\(offset - 1) "
                    + "(for example {\"type\": \"pad\", \"length\": \(offset - Int64(p))})")
        case .known(let p) where offset < p:
            diagnostics.error(path + ".offset", "offset \(offset) overlaps the previous field, which ends at byte \(p)")
        case .known: break
        case .variable:
            diagnostics.error(
                path + ".offset", "offset \(offset) cannot be checked: the fields before it have no fixed size")
        case .end(let field):
            diagnostics.error(path + ".offset", "'\(field)' before this reads to the end of the payload")
        }
    }

    private mutating func consume(_ n: Int, _ path: String, _ name: String, _ position: inout Position) {
        switch position {
        case .known(let p):
            if let bound = lengthBound, p + n > bound.upperBound {
                let what =
                    bound.lowerBound == bound.upperBound
                    ? "the matched length \(bound.upperBound)" : "the longest matched length \(bound.upperBound)"
                diagnostics.error(path, "'\(name)' ends at byte \(p + n), past \(what)")
            }
        case .end(let field):
            diagnostics.error(
                path, "'\(field)' before '\(name)' reads to the end of the payload, so '\(name)' never gets any bytes")
        case .variable: break
        }
        position = position.advanced(by: n)
    }

    private mutating func define(
        _ value: ValueSpec, _ path: String, _ scope: inout Scope, rawInteger: Bool, numeric: Bool, flag: Bool = false
    ) {
        if let existing = scope.lookup(value.name) {
            diagnostics.error(
                path + ".name",
                "duplicate field name '\(value.name)' (also at \(existing.path), line \(diagnostics.line(existing.path)))"
            )
            return
        }
        if let other = allValues[value.name], other.rules != value.rules {
            diagnostics.error(
                path + ".name",
                "'\(value.name)' has other rules at \(other.path); the same name must have the same min, max, enum, counter and max_jump"
            )
        }
        if allValues[value.name] == nil { allValues[value.name] = value }
        scope.define(
            value.name,
            .init(value: value, path: path, isRawInteger: rawInteger, isNumeric: numeric, definite: true, isFlag: flag))
    }

    /// Name, unit, scale, enum, const and rules: what scalars, bit fields and computed fields share.
    private mutating func parseValue(
        _ object: JSONObject, _ path: String, type: ScalarType?, width: Int?, scope: inout Scope, needsName: Bool
    ) -> ValueSpec? {
        guard let nameValue = object["name"] else {
            if needsName { diagnostics.error(path, "a field needs a \"name\"") }
            return nil
        }
        guard let name = string(nameValue, path + ".name", "name") else { return nil }
        var value = ValueSpec(name: name, path: path, unit: nil, summary: object["description"]?.string ?? "")
        if !isSnakeCase(name) {
            let suggested = snakeCased(name)
            diagnostics.error(
                path + ".name",
                "\"\(name)\" is not snake_case" + (isSnakeCase(suggested) ? " (try \"\(suggested)\")" : ""))
        }
        if let u = object["unit"], let unit = string(u, path + ".unit", "unit") {
            value.unit = UnitTable.canonical(unit) ?? unit
            if let suffix = UnitTable.suffix(for: unit) {
                if !name.hasSuffix("_" + suffix) {
                    diagnostics.error(
                        path + ".name",
                        "\"\(name)\" has unit \(unit) but does not end in _\(suffix) (e.g. \"\(Self.stripUnit(name))_\(suffix)\")"
                    )
                }
            } else {
                diagnostics.warning(
                    path + ".unit", "unit '\(unit)' is not in the unit table, so the name's suffix is not checked")
            }
        } else if let implied = UnitTable.unit(forNameSuffixOf: name) {
            diagnostics.warning(path + ".name", "\"\(name)\" ends like a unit (\(implied)) but has no \"unit\"")
        }

        let isInteger = type?.isInteger ?? (width != nil)
        // Scale and add.
        let scaleValue = object["scale"]
        let addValue = object["add"]
        if scaleValue != nil || addValue != nil {
            value.conversion = parseConversion(scaleValue, addValue, path, integer: isInteger)
        }
        // Enum.
        if let e = object["enum"] {
            if !value.conversion.isIdentity || scaleValue != nil {
                diagnostics.error(path + ".enum", "an enum field cannot have a scale or add")
            }
            if let object = e.object {
                var seen: [Int64: String] = [:]
                for (key, nameValue) in object.entries {
                    let p = path + ".enum." + key
                    guard let raw = Self.parseIntegerText(key) else {
                        diagnostics.error(p, "enum keys are the raw numbers (\"1\", \"0x1F\"), not \"\(key)\"")
                        continue
                    }
                    guard let caseName = nameValue.string, !caseName.isEmpty else {
                        diagnostics.error(p, "an enum value's name is a non-empty string")
                        continue
                    }
                    if !fits(raw, type: type, width: width) {
                        diagnostics.error(p, "\(key) does not fit \(type?.name ?? "\(width ?? 0) bits")")
                    }
                    if let previous = seen[raw] {
                        diagnostics.error(p, "\(key) is listed twice (also as \"\(previous)\")")
                        continue
                    }
                    if value.enumCases.contains(where: { $0.name == caseName }) {
                        diagnostics.error(p, "the name \"\(caseName)\" is used for two values")
                    }
                    if !isSnakeCase(caseName) {
                        diagnostics.warning(p, "enum name \"\(caseName)\" is not snake_case")
                    }
                    seen[raw] = caseName
                    value.enumCases.append((raw, caseName))
                }
                if value.enumCases.isEmpty && object.count == 0 {
                    diagnostics.error(path + ".enum", "an enum lists at least one value")
                }
            } else {
                diagnostics.error(
                    path + ".enum", "enum is an object of raw value → name: {\"0\": \"off\", \"1\": \"on\"}")
            }
        }
        // Const.
        if let c = object["const"] {
            if let raw = integer(c, path + ".const", "const") {
                if !fits(raw, type: type, width: width) {
                    diagnostics.error(path + ".const", "\(raw) does not fit \(type?.name ?? "\(width ?? 0) bits")")
                }
                value.constant = raw
            }
        }
        // Rules.
        value.minimum = number(object["min"], path + ".min", "min")
        value.maximum = number(object["max"], path + ".max", "max")
        if !value.enumCases.isEmpty, object["min"] != nil || object["max"] != nil {
            diagnostics.error(path, "min and max do not apply to an enum field: its enum lists the allowed values")
        }
        if let low = value.minimum, let high = value.maximum, low > high {
            diagnostics.error(path + ".min", "min \(low) is more than max \(high)")
        }
        if let j = object["max_jump"] {
            if let jump = number(j, path + ".max_jump", "max_jump") {
                if jump <= 0 { diagnostics.error(path + ".max_jump", "max_jump must be more than 0") }
                value.maxJump = jump
            }
        }
        if let c = object["counter"] {
            value.counter = parseCounter(c, path + ".counter", value, type: type, width: width)
        }
        checkBounds(value, path, type: type, width: width)
        return value
    }

    /// min and max must leave at least one value the field can hold.
    private mutating func checkBounds(_ value: ValueSpec, _ path: String, type: ScalarType?, width: Int?) {
        guard value.minimum != nil || value.maximum != nil, value.enumCases.isEmpty else { return }
        if let low = value.minimum, let high = value.maximum, low > high { return }  // reported already
        let range = [value.minimum.map { "min \(formatNumber($0))" }, value.maximum.map { "max \(formatNumber($0))" }]
            .compactMap { $0 }.joined(separator: " and ")
        let holder = width.map { "\($0) bits" } ?? type?.name ?? "this field"
        let scaled = value.conversion.isIdentity ? "" : " at this scale"
        if let width {
            if value.rawBounds(.bit(width: width, isBool: false)) == nil {
                diagnostics.error(path, "no value \(holder) can hold\(scaled) meets \(range)")
            }
        } else if let type, type.isInteger {
            if value.rawBounds(.integer(type)) == nil {
                diagnostics.error(path, "no value a \(holder) can hold\(scaled) meets \(range)")
            }
        } else if let type {
            var open = value
            open.minimum = nil
            open.maximum = nil
            let (low, high) = open.floatBounds(type)
            if (value.minimum ?? -.infinity) > high || (value.maximum ?? .infinity) < low {
                diagnostics.error(path, "no value a \(holder) can hold\(scaled) meets \(range)")
            }
        }
    }

    static func stripUnit(_ name: String) -> String {
        guard let underscore = name.lastIndex(of: "_") else { return name }
        let suffix = name[name.index(after: underscore)...]
        return UnitTable.suffixes.contains(where: { $0.suffix == suffix }) ? String(name[..<underscore]) : name
    }

    private func fits(_ raw: Int64, type: ScalarType?, width: Int?) -> Bool {
        if let width { return raw >= 0 && (width == 64 || raw < Int64(1) << Int64(width)) }
        guard let type, type.isInteger else { return true }
        let range = type.rawRange
        return raw >= range.min && (raw < 0 || UInt64(raw) <= range.max)
    }

    private mutating func parseConversion(
        _ scale: JSONValue?, _ add: JSONValue?, _ path: String, integer: Bool
    ) -> Conversion {
        var addDecimal = ExactDecimal(significand: 0, exponent: 0)
        var addDouble = 0.0
        if let add {
            guard case .number(let text) = add, let d = Double(text) else {
                diagnostics.error(path + ".add", "add must be a number, not \(add.typeName)")
                return .unscaled
            }
            addDouble = d
            addDecimal = ExactDecimal(text) ?? ExactDecimal(significand: 1, exponent: 1000)
        }
        var reciprocal: Int64? = scale == nil ? 1 : nil
        var scaleDouble = 1.0
        if let scale {
            switch scale {
            case .number(let text):
                guard let d = Double(text), d > 0, d.isFinite else {
                    diagnostics.error(path + ".scale", "scale must be a number more than 0")
                    return .unscaled
                }
                scaleDouble = d
                if let exact = ExactDecimal(text), let (p, q) = exact.fraction, p == 1 { reciprocal = q }
            case .string(let text) where text.hasPrefix("1/"):
                guard let n = Int64(text.dropFirst(2)), n > 0 else {
                    diagnostics.error(
                        path + ".scale", "a fraction scale is written \"1/N\" with N a positive whole number")
                    return .unscaled
                }
                reciprocal = n
                scaleDouble = 1 / Double(n)
            default:
                diagnostics.error(
                    path + ".scale", "scale is a number (0.01) or a fraction \"1/N\", not \(scale.jsonText)")
                return .unscaled
            }
        }
        if reciprocal == 1, addDecimal.isInteger, let a = addDecimal.fraction?.p, integer {
            return .identity(add: a)
        }
        if let n = reciprocal, let addN = addDecimal.times(n) {
            return .reciprocal(n: n, addN: addN)
        }
        return .linear(scale: scaleDouble, add: addDouble)
    }

    private mutating func parseCounter(
        _ value: JSONValue, _ path: String, _ spec: ValueSpec, type: ScalarType?, width: Int?
    ) -> CounterSpec? {
        var modulo: Int64?
        if let width { modulo = width >= 63 ? nil : Int64(1) << Int64(width) }
        if case .integer(let size, let signed)? = type, !signed, size < 8 { modulo = Int64(1) << Int64(size * 8) }
        guard spec.conversion.isIdentity, spec.enumCases.isEmpty, type?.isInteger ?? (width != nil) else {
            diagnostics.error(path, "a counter must be an unscaled integer field without an enum")
            return nil
        }
        var step: Int64 = 1
        switch value {
        case .bool(true): break
        case .bool(false): return nil
        case .object(let object):
            checkKeys(object, path, allowed: ["step", "modulo", "comment"], kind: "a counter")
            if let s = object["step"] { step = integer(s, path + ".step", "step") ?? 1 }
            if let m = object["modulo"] { modulo = integer(m, path + ".modulo", "modulo") }
            if step < 1 { diagnostics.error(path + ".step", "step must be 1 or more") }
        default:
            diagnostics.error(path, "counter is true or {\"step\": 1, \"modulo\": 256}")
            return nil
        }
        guard let modulo, modulo > 1 else {
            diagnostics.error(path, "this counter needs a \"modulo\" (the value it wraps at, e.g. 256)")
            return nil
        }
        return CounterSpec(step: step, modulo: modulo)
    }

    private mutating func parseExtent(_ value: JSONValue, _ path: String, _ what: String, scope: Scope) -> Extent? {
        if case .string(let text) = value {
            if text == "rest" { return .rest }
            guard let entry = scope.lookup(text) else {
                diagnostics.error(
                    path,
                    documentNames.contains(text)
                        ? unknownName(text, scope, what: "a \(what)")
                        : "\(what) \"\(text)\" is neither \"rest\" nor an earlier field"
                            + suggestion(for: text, in: scope.allNames))
                return nil
            }
            guard entry.isRawInteger else {
                diagnostics.error(path, "\(what) field '\(text)' must be an unscaled integer without an enum")
                return nil
            }
            guard entry.definite else {
                diagnostics.error(path, "'\(text)' is only defined in some arms of a switch before this field")
                return nil
            }
            return .field(text)
        }
        guard let n = integer(value, path, what) else { return nil }
        guard n >= 1, n <= 512 else {
            diagnostics.error(path, "\(what) \(n) is out of range (1…512)")
            return nil
        }
        return .fixed(Int(n))
    }

    private mutating func parseData(
        _ object: JSONObject, _ path: String, _ typeName: String, _ scope: inout Scope, _ position: inout Position
    ) -> Node? {
        checkKeys(
            object, path, allowed: ["name", "type", "offset", "length", "description", "comment"],
            known: Self.fieldKeys,
            kind: "a \(typeName) field")
        guard let name = object["name"].flatMap({ string($0, path + ".name", "name") }) else {
            if object["name"] == nil { diagnostics.error(path, "a field needs a \"name\"") }
            return nil
        }
        if !isSnakeCase(name) {
            let suggested = snakeCased(name)
            diagnostics.error(
                path + ".name",
                "\"\(name)\" is not snake_case" + (isSnakeCase(suggested) ? " (try \"\(suggested)\")" : ""))
        }
        guard let lengthValue = object["length"] else {
            diagnostics.error(
                path, "a \(typeName) field needs a \"length\": a number of bytes, \"rest\" or an earlier field")
            return nil
        }
        guard let length = parseExtent(lengthValue, path + ".length", "length", scope: scope) else { return nil }
        switch length {
        case .fixed(let n): consume(n, path, name, &position)
        case .rest: position = .end(field: name)
        case .field: if case .known = position { position = .variable }
        }
        let encoding: TextEncoding = typeName == "bytes" ? .hex : typeName == "ascii" ? .ascii : .utf8
        let spec = ValueSpec(name: name, path: path, unit: nil, summary: object["description"]?.string ?? "")
        define(spec, path, &scope, rawInteger: false, numeric: false)
        return .data(DataNode(name: name, path: path, summary: spec.summary, encoding: encoding, length: length))
    }

    private mutating func parseBits(
        _ object: JSONObject, _ path: String, _ type: ScalarType, _ endian: Endianness, _ scope: inout Scope,
        _ position: inout Position
    ) -> Node? {
        guard case .integer(let size, let signed) = type, !signed else {
            diagnostics.error(
                path + ".type", "bit fields sit in an unsigned integer (u8, u16, u24, u32…), not \(type.name)")
            return nil
        }
        checkKeys(
            object, path, allowed: ["type", "endian", "offset", "bits"] + Self.valueKeys, known: Self.fieldKeys,
            kind: "a bit-field container")
        var container: ValueSpec?
        if object["name"] != nil {
            container = parseValue(object, path, type: type, width: nil, scope: &scope, needsName: true)
            if let c = container {
                define(c, path, &scope, rawInteger: c.conversion.isIdentity && c.enumCases.isEmpty, numeric: true)
            }
        }
        consume(size, path, container?.name ?? "bits", &position)
        guard let array = object["bits"]?.array, !array.isEmpty else {
            diagnostics.error(path + ".bits", "bits is a non-empty array of {\"name\", \"bit\", \"width\"}")
            return nil
        }
        var parts: [BitPart] = []
        var used: [(range: Range<Int>, name: String)] = []
        for (index, entry) in array.enumerated() {
            let p = "\(path).bits[\(index)]"
            guard let bitObject = entry.object else {
                diagnostics.error(p, "a bit field is an object with \"name\", \"bit\" and optional \"width\"")
                continue
            }
            checkKeys(bitObject, p, allowed: Self.bitKeys, known: Self.fieldKeys, kind: "a bit field")
            guard bitObject["bit"] != nil else {
                diagnostics.error(p, "a bit field needs \"bit\": its lowest bit, 0 = least significant")
                continue
            }
            guard let shift = integer(bitObject["bit"], p + ".bit", "bit") else { continue }
            let width = bitObject["width"].flatMap { integer($0, p + ".width", "width") } ?? 1
            // Checked one at a time first, so that "bit": 9223372036854775807 cannot overflow the sum.
            guard shift >= 0, width >= 1, shift <= 64, width <= 64, shift + width <= Int64(size * 8) else {
                let bits =
                    shift >= 0 && shift <= 64 && width >= 1 && width <= 64
                    ? "bits \(shift)…\(shift + width - 1) do not fit" : "bit \(shift) with width \(width) does not fit"
                diagnostics.error(p, "\(bits) in \(type.name) (bits 0…\(size * 8 - 1))")
                continue
            }
            let range = Int(shift)..<Int(shift + width)
            if let clash = used.first(where: { $0.range.overlaps(range) }) {
                diagnostics.error(p, "bits \(range.lowerBound)…\(range.upperBound - 1) overlap '\(clash.name)'")
            }
            guard let value = parseValue(bitObject, p, type: nil, width: Int(width), scope: &scope, needsName: true)
            else {
                continue
            }
            used.append((range, value.name))
            let isBool =
                width == 1 && value.enumCases.isEmpty && value.conversion == .unscaled && value.constant == nil
                && value.counter == nil
            if isBool, value.minimum != nil || value.maximum != nil || value.maxJump != nil {
                diagnostics.error(p, "min, max and max_jump do not apply to a single bit (it reads as true/false)")
            }
            define(
                value, p, &scope, rawInteger: value.conversion.isIdentity && value.enumCases.isEmpty && !isBool,
                numeric: true, flag: isBool)
            parts.append(BitPart(value: value, shift: Int(shift), width: Int(width), isBool: isBool))
        }
        return .bits(BitsNode(container: container, path: path, type: type, endian: endian, parts: parts))
    }

    private mutating func parseComputed(_ object: JSONObject, _ path: String, _ scope: inout Scope) -> Node? {
        checkKeys(
            object, path,
            allowed: ["name", "compute", "unit", "min", "max", "max_jump", "description", "comment"],
            known: Self.fieldKeys, kind: "a computed field")
        guard let text = string(object["compute"], path + ".compute", "compute") else { return nil }
        guard var value = parseValue(object, path, type: .ieee754(size: 8), width: nil, scope: &scope, needsName: true)
        else { return nil }
        value.conversion = .unscaled
        let expression: Expression
        do {
            expression = try Expression.parse(text)
        } catch {
            diagnostics.error(path + ".compute", "\"\(text)\": column \(error.column): \(error.message)")
            return nil
        }
        var ok = true
        for name in expression.names {
            guard let entry = scope.lookup(name) else {
                ok = false
                diagnostics.error(path + ".compute", unknownName(name, scope, what: "a computed field"))
                continue
            }
            if !entry.isNumeric {
                ok = false
                diagnostics.error(path + ".compute", "'\(name)' is not a number (it is text, bytes or an array)")
            } else if !entry.definite {
                ok = false
                diagnostics.error(
                    path + ".compute", "'\(name)' is only defined in some arms of the switch before this field")
            }
        }
        define(value, path, &scope, rawInteger: false, numeric: true)
        guard ok else { return nil }
        return .computed(ComputedNode(value: value, expression: expression, text: text))
    }

    private mutating func parseSwitch(
        _ object: JSONObject, _ path: String, _ scope: inout Scope, _ position: inout Position
    ) -> Node? {
        checkKeys(
            object, path, allowed: ["switch", "cases", "offset", "comment"], known: Self.fieldKeys, kind: "a switch")
        checkOffset(object, path, position)
        guard let field = string(object["switch"], path + ".switch", "switch") else { return nil }
        guard let entry = scope.lookup(field) else {
            diagnostics.error(path + ".switch", unknownName(field, scope, what: "a switch"))
            return nil
        }
        guard let spec = entry.value, entry.isRawInteger || !spec.enumCases.isEmpty || entry.isFlag else {
            diagnostics.error(
                path + ".switch", "a switch needs an unscaled integer field or a flag bit; '\(field)' is neither")
            return nil
        }
        guard entry.definite else {
            diagnostics.error(path + ".switch", "'\(field)' is only defined in some arms of an earlier switch")
            return nil
        }
        guard let cases = object["cases"]?.object else {
            diagnostics.error(path, "a switch needs \"cases\": an object of value → fields, with a \"default\"")
            return nil
        }
        var arms: [SwitchCase] = []
        var defaultNodes: [Node]?
        var sawDefault = false
        var armScopes: [Scope] = []
        var armPositions: [Position] = []
        let start = position
        for (key, armValue) in cases.entries {
            let p = path + ".cases." + key
            if key == "default" {
                sawDefault = true
                if armValue.string == "reject" { continue }
                guard let array = armValue.array else {
                    diagnostics.error(p, "default is an array of fields ([] for none) or \"reject\"")
                    continue
                }
                var armScope = scope
                var armPosition = start
                defaultNodes = parseNodes(array, p, &armScope, &armPosition)
                armScopes.append(armScope)
                armPositions.append(armPosition)
                continue
            }
            let raw: Int64
            if entry.isFlag, key == "true" || key == "false" {
                raw = key == "true" ? 1 : 0
            } else if let number = Self.parseIntegerText(key) {
                raw = number
            } else if let named = spec.enumCases.first(where: { $0.name == key }) {
                raw = named.value
            } else {
                diagnostics.error(
                    p,
                    (entry.isFlag
                        ? "case \"\(key)\" of the flag '\(field)' is \"true\" or \"false\""
                        : "case \"\(key)\" is neither a number nor a name in '\(field)''s enum")
                        + suggestion(for: key, in: spec.enumCases.map(\.name)))
                continue
            }
            if let clash = arms.first(where: { $0.value == raw }) {
                diagnostics.error(p, "case \(key) repeats case \"\(clash.label)\"")
                continue
            }
            guard let array = armValue.array else {
                diagnostics.error(p, "a case is an array of fields ([] for none)")
                continue
            }
            var armScope = scope
            var armPosition = start
            let nodes = parseNodes(array, p, &armScope, &armPosition)
            armScopes.append(armScope)
            armPositions.append(armPosition)
            arms.append(SwitchCase(value: raw, label: key, path: p, nodes: nodes))
        }
        if !sawDefault {
            diagnostics.error(
                path + ".cases",
                "switch on '\(field)' has no \"default\": add one (an array of fields, [] for none, or \"reject\" to treat other values as malformed)"
            )
        }
        if arms.isEmpty { diagnostics.error(path + ".cases", "a switch needs at least one case") }
        // Names after the switch: definite if every arm defines them.
        var merged = scope
        let newNames = Set(armScopes.flatMap { $0.order }).subtracting(scope.order)
        let orderedNew = armScopes.flatMap { $0.order }.filter { newNames.contains($0) }
        for name in orderedNew where merged.lookup(name) == nil {
            let definitions = armScopes.compactMap { $0.lookup(name) }
            var first = definitions[0]
            first.definite = definitions.count == armScopes.count && definitions.allSatisfy(\.definite)
            first.isRawInteger = definitions.allSatisfy(\.isRawInteger)
            first.isNumeric = definitions.allSatisfy(\.isNumeric)
            merged.define(name, first)
        }
        scope = merged
        // Position after: the same in every arm, or variable.
        if let end = armPositions.first(where: { if case .end = $0 { true } else { false } }) {
            position = end
        } else if let first = armPositions.first, armPositions.allSatisfy({ $0 == first }) {
            position = first
        } else {
            position = armPositions.isEmpty ? start : .variable
        }
        return .switchOn(
            SwitchNode(
                field: field, path: path, cases: arms, defaultNodes: defaultNodes, defaultPath: path + ".cases.default")
        )
    }

    // MARK: - Length against the fields

    /// Every way through the switches, with where the fields end (nil when not fixed).
    private func ends(_ nodes: [Node], from start: Int?, path: String, limit: inout Int) -> [(end: Int?, path: String)]
    {
        var paths: [(Int?, String)] = [(start, path)]
        for node in nodes {
            guard limit > 0 else { return paths }
            var next: [(Int?, String)] = []
            for (position, p) in paths {
                switch node {
                case .scalar(let s):
                    switch s.count {
                    case nil: next.append((position.map { $0 + s.type.size }, p))
                    case .fixed(let n)?: next.append((position.map { $0 + n * s.type.size }, p))
                    default: next.append((nil, p))
                    }
                case .bits(let b): next.append((position.map { $0 + b.type.size }, p))
                case .data(let d):
                    if case .fixed(let n) = d.length {
                        next.append((position.map { $0 + n }, p))
                    } else {
                        next.append((nil, p))
                    }
                case .pad(let n): next.append((position.map { $0 + n }, p))
                case .computed: next.append((position, p))
                case .switchOn(let s):
                    for arm in s.cases {
                        limit -= 1
                        next += ends(arm.nodes, from: position, path: arm.path, limit: &limit)
                    }
                    if let d = s.defaultNodes {
                        limit -= 1
                        next += ends(d, from: position, path: s.defaultPath, limit: &limit)
                    }
                }
            }
            paths = next
        }
        return paths
    }

    private mutating func checkLength(_ nodes: [Node], _ position: Position) {
        guard let bound = lengthBound else { return }
        var limit = 64
        for (end, path) in ends(nodes, from: 0, path: "$.fields", limit: &limit) {
            guard let end, end < bound.lowerBound else { continue }
            let what =
                bound.lowerBound == bound.upperBound
                ? "the matched length is \(bound.lowerBound)" : "the shortest matched length is \(bound.lowerBound)"
            diagnostics.error(
                path,
                "the fields end at byte \(end) but \(what): describe bytes \(end)…\(bound.lowerBound - 1) "
                    + "(for example {\"type\": \"pad\", \"length\": \(bound.lowerBound - end)})")
        }
    }
}
