import JSON

/// Reading `golden.json`. Every mistake in it is a wrong setting (exit code 2), named by file and
/// line; only a file that cannot be read is bad input.
extension GoldenConfig {
    /// The `golden.json` in `directory`, or nil when it has none.
    public static func load(directory: String) throws(GoldenError) -> GoldenConfig? {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + fileName
        guard Files.exists(path) else { return nil }
        return try parse(try Files.read(path), file: path)
    }

    static let knownKeys = "version, align, ignore, tolerance, decode, captures"

    /// Reads a `golden.json`; errors name the file and the line.
    public static func parse(_ bytes: [UInt8], file: String) throws(GoldenError) -> GoldenConfig {
        let document: JSONValue
        let lines: [String: Int]
        do {
            (document, lines) = try JSONValue.parseWithLocations(bytes)
        } catch {
            throw GoldenError("\(file):\(error.line): column \(error.column): \(error.message)", kind: .setting)
        }
        func fail(_ path: String, _ message: String) -> GoldenError {
            GoldenError("\(file):\(lines[path] ?? 1): \(message)", kind: .setting)
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
            case "decode":
                try parseDecode(value, into: &config) { fail($0 == nil ? path : path + "." + $0!, $1) }
            case "captures":
                try parseCaptures(value, into: &config, directory: directory(of: file)) {
                    fail($0 == nil ? path : path + "." + $0!, $1)
                }
            default:
                throw fail(path, "unknown key \"\(key)\" (known: \(knownKeys))")
            }
        }
        config.resolveFiles(relativeTo: file)
        return config
    }

    /// Decode options that name files (`layouts`, a comma-separated list, and `gatt`).
    static let fileOptions = ["layouts", "gatt"]

    private static func parseDecode(
        _ value: JSONValue, into config: inout GoldenConfig, _ fail: (String?, String) -> GoldenError
    ) throws(GoldenError) {
        guard let options = value.object else {
            throw fail(nil, "\"decode\" must be an object of option names and values")
        }
        for (name, option) in options.entries {
            switch option {
            case .string(let text): config.decodeOptions[name] = text
            case .number(let text): config.decodeOptions[name] = text
            case .bool(let flag): config.decodeOptions[name] = flag ? "true" : "false"
            case .array(let elements) where name == "layouts":
                var files: [String] = []
                for (position, element) in elements.enumerated() {
                    guard let file = element.string, !file.isEmpty else {
                        throw fail("\(name)[\(position)]", "\"layouts\" must list layout files (strings)")
                    }
                    // The decoder is given the list as one value, separated by commas.
                    guard !file.contains(",") else {
                        throw fail(
                            "\(name)[\(position)]", "layout file '\(file)': a file name with a comma cannot be used")
                    }
                    files.append(file)
                }
                config.decodeOptions[name] = files.isEmpty ? nil : files.joined(separator: ",")
            default:
                let kinds = name == "layouts" ? "a list of files or a string" : "a string, number or boolean"
                throw fail(name, "decode option \"\(name)\" must be \(kinds)")
            }
        }
    }

    private static func parseCaptures(
        _ value: JSONValue, into config: inout GoldenConfig, directory: String,
        _ fail: (String?, String) -> GoldenError
    ) throws(GoldenError) {
        let shape =
            #""captures" must be an object of capture file names and their rules, "#
            + #"{"idle.btsnoop": {"allow_empty": true}}"#
        guard let captures = value.object else { throw fail(nil, shape) }
        for (name, rulesValue) in captures.entries {
            guard let rules = rulesValue.object else { throw fail(name, shape) }
            guard !name.contains("/"), GoldenSuite.isCapture(name) else {
                throw fail(
                    name, "\"captures\" names '\(name)', which is not the file name of a capture in this directory")
            }
            guard Files.exists(directory + "/" + name) else {
                throw fail(name, "\"captures\" names '\(name)', but there is no \(directory)/\(name)")
            }
            var parsed = CaptureRules()
            for (rule, setting) in rules.entries {
                switch rule {
                case "allow_empty":
                    guard let flag = setting.bool else {
                        throw fail(name + "." + rule, "\"allow_empty\" must be true or false")
                    }
                    parsed.allowEmpty = flag
                default:
                    throw fail(name + "." + rule, "unknown rule \"\(rule)\" for a capture (known: allow_empty)")
                }
            }
            config.captures[name] = parsed
        }
    }

    private static func directory(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

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
