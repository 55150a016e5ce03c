import JSON

/// Comparison rules and decode options, from a `golden.json` beside the goldens or from the
/// command line. Layers combine with `overridden(by:)`: the command line wins over the file.
///
/// ```json
/// {
///   "version": 1,
///   "align": "frame",
///   "ignore": ["ts", "rssi"],
///   "tolerance": {"*": 1e-6, "temperature_c": 0.05},
///   "decode": {"envsensor_company": "0xABCD"},
///   "scrub": {"seed": 1}
/// }
/// ```
/// Every key is optional. `tolerance` is also accepted as a plain number (for every number);
/// `decode` values are strings (numbers and booleans are taken as written). `scrub` asks for the
/// capture to be scrubbed before it is decoded (`bluetape scrub`'s options: seed, names, keep_oui,
/// values), so that goldens name no real device; its entries reach the decoder as decode options
/// named `scrub.<name>`.
public struct GoldenConfig: Sendable, Equatable {
    public static let fileName = "golden.json"
    public static let version = 1

    public var alignment: Alignment?
    public var tolerance: Double?
    public var fieldTolerances: [String: Double] = [:]
    public var ignored: [String] = []
    /// Passed to the capture decoder as they are (`"envsensor_company": "0xABCD"`).
    public var decodeOptions: [String: String] = [:]

    public init(
        alignment: Alignment? = nil, tolerance: Double? = nil, fieldTolerances: [String: Double] = [:],
        ignored: [String] = [], decodeOptions: [String: String] = [:]
    ) {
        self.alignment = alignment
        self.tolerance = tolerance
        self.fieldTolerances = fieldTolerances
        self.ignored = ignored
        self.decodeOptions = decodeOptions
    }

    public var settings: DiffSettings {
        DiffSettings(
            alignment: alignment ?? .frame, tolerance: tolerance ?? 0, fieldTolerances: fieldTolerances,
            ignored: Set(ignored))
    }

    /// This layer with `other` on top: its alignment and tolerances replace these, its ignores and
    /// decode options are added.
    public func overridden(by other: GoldenConfig) -> GoldenConfig {
        var merged = self
        merged.alignment = other.alignment ?? alignment
        merged.tolerance = other.tolerance ?? tolerance
        merged.fieldTolerances.merge(other.fieldTolerances) { $1 }
        merged.ignored += other.ignored.filter { !ignored.contains($0) }
        merged.decodeOptions.merge(other.decodeOptions) { $1 }
        return merged
    }

    // MARK: Command-line values

    /// `1e-6` (every number) or `FIELD=VALUE` (one field).
    public mutating func addTolerance(_ argument: String) throws(GoldenError) {
        guard let equals = argument.firstIndex(of: "=") else {
            tolerance = try Self.toleranceValue(argument, for: "--tolerance")
            return
        }
        let field = DiffSettings.normalizedName(String(argument[..<equals]))
        guard !field.isEmpty else { throw GoldenError("--tolerance '\(argument)': the field name is missing") }
        fieldTolerances[field] = try Self.toleranceValue(
            String(argument[argument.index(after: equals)...]), for: "--tolerance \(field)")
    }

    /// One or more names, comma-separated.
    public mutating func addIgnored(_ argument: String) {
        for name in argument.split(separator: ",") {
            let name = DiffSettings.normalizedName(String(name.filter { $0 != " " }))
            if !name.isEmpty, !ignored.contains(name) { ignored.append(name) }
        }
    }

    public mutating func setAlignment(_ argument: String) throws(GoldenError) {
        guard let alignment = Alignment(rawValue: argument) else {
            throw GoldenError(
                "--align must be one of \(Alignment.allCases.map(\.rawValue).joined(separator: ", ")), not '\(argument)'"
            )
        }
        self.alignment = alignment
    }

    static func toleranceValue(_ text: String, for what: String) throws(GoldenError) -> Double {
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw GoldenError("\(what): '\(text)' is not a tolerance (a number, 0 or more)")
        }
        return value
    }
}

extension GoldenConfig {
    /// The `golden.json` in `directory`, or nil when it has none.
    public static func load(directory: String) throws(GoldenError) -> GoldenConfig? {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + fileName
        guard Files.exists(path) else { return nil }
        return try parse(try Files.read(path), file: path)
    }

    /// Reads a `golden.json`; errors name the file and the line.
    public static func parse(_ bytes: [UInt8], file: String) throws(GoldenError) -> GoldenConfig {
        let document: JSONValue
        let lines: [String: Int]
        do {
            (document, lines) = try JSONValue.parseWithLocations(bytes)
        } catch {
            throw GoldenError("\(file):\(error.line): column \(error.column): \(error.message)")
        }
        func fail(_ path: String, _ message: String) -> GoldenError {
            GoldenError("\(file):\(lines[path] ?? 1): \(message)")
        }
        guard let object = document.object else { throw fail("$", "golden.json must hold one JSON object") }
        var config = GoldenConfig()
        for (key, value) in object.entries {
            let path = "$." + key
            switch key {
            case "version":
                guard value.int64 == Int64(version) else {
                    throw fail(
                        path, "\"version\" \(value.jsonText) is not supported (this bluetape reads version \(version))")
                }
            case "align":
                guard let name = value.string, let alignment = Alignment(rawValue: name) else {
                    throw fail(
                        path,
                        "\"align\" must be \(Alignment.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or "))"
                    )
                }
                config.alignment = alignment
            case "ignore":
                guard let names = value.array?.compactMap(\.string), names.count == value.array?.count else {
                    throw fail(path, "\"ignore\" must be a list of field names")
                }
                for name in names { config.addIgnored(name) }
            case "tolerance":
                try parseTolerance(value, into: &config) { fail($0 == nil ? path : path + "." + $0!, $1) }
            case "decode", "scrub":
                guard let options = value.object else {
                    throw fail(path, "\"\(key)\" must be an object of option names and values")
                }
                let prefix = key == "scrub" ? "scrub." : ""
                if key == "scrub" { config.decodeOptions["scrub"] = "true" }
                for (name, option) in options.entries {
                    switch option {
                    case .string(let text): config.decodeOptions[prefix + name] = text
                    case .number(let text): config.decodeOptions[prefix + name] = text
                    case .bool(let flag): config.decodeOptions[prefix + name] = flag ? "true" : "false"
                    default:
                        throw fail(path + "." + name, "\(key) option \"\(name)\" must be a string, number or boolean")
                    }
                }
            default:
                throw fail(path, "unknown key \"\(key)\" (known: version, align, ignore, tolerance, decode, scrub)")
            }
        }
        config.resolveFiles(relativeTo: file)
        return config
    }

    /// Decode options that name files (`layouts`, a comma-separated list, and `gatt`).
    static let fileOptions = ["layouts", "gatt"]

    /// Files named in the decode options are relative to the golden.json that names them, wherever
    /// the capture being decoded is: `diff` may compare a capture from elsewhere.
    private mutating func resolveFiles(relativeTo configFile: String) {
        guard let slash = configFile.lastIndex(of: "/") else { return }
        let directory = configFile[...slash]
        for name in Self.fileOptions {
            guard let list = decodeOptions[name] else { continue }
            decodeOptions[name] = list.split(separator: ",").map { entry in
                let path = entry.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
                return path.first == "/" ? String(path) : directory + String(path)
            }.joined(separator: ",")
        }
    }

    private static func parseTolerance(
        _ value: JSONValue, into config: inout GoldenConfig, _ fail: (String?, String) -> GoldenError
    ) throws(GoldenError) {
        func number(_ value: JSONValue, _ name: String?) throws(GoldenError) -> Double {
            guard let number = value.double, number.isFinite, number >= 0 else {
                throw fail(name, "a tolerance must be a number, 0 or more")
            }
            return number
        }
        if case .number = value {
            config.tolerance = try number(value, nil)
            return
        }
        guard let fields = value.object else {
            throw fail(nil, "\"tolerance\" must be a number or an object of field names and numbers")
        }
        for (name, tolerance) in fields.entries {
            if name == "*" {
                config.tolerance = try number(tolerance, name)
            } else {
                config.fieldTolerances[DiffSettings.normalizedName(name)] = try number(tolerance, name)
            }
        }
    }
}
