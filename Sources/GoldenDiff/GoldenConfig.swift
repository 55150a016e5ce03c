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
///   "decode": {"param.acme.company": "0xABCD", "layouts": ["../layouts/a.json"], "param.pin": "1234"},
///   "captures": {"idle.btsnoop": {"allow_empty": true}}
/// }
/// ```
/// Every key is optional. `tolerance` is also accepted as a plain number (for every number);
/// `decode` values are strings (numbers and booleans are taken as written), and `layouts` a list
/// of files or one string of them separated by commas. `captures` holds rules for single captures
/// of this directory, by file name; they apply to that capture only, and are not inherited.
public struct GoldenConfig: Sendable, Equatable {
    public static let fileName = "golden.json"
    public static let version = 1

    public var alignment: Alignment?
    public var tolerance: Double?
    public var fieldTolerances: [String: Double] = [:]
    public var ignored: [String] = []
    /// Passed to the capture decoder as they are (`"param.acme.company": "0xABCD"`); a list of
    /// layouts as one value, its files separated by commas.
    public var decodeOptions: [String: String] = [:]
    /// Rules for single captures of the golden.json's own directory, by file name.
    public var captures: [String: CaptureRules] = [:]

    /// What golden.json says about one capture.
    public struct CaptureRules: Sendable, Equatable {
        /// The capture decodes to no readings on purpose: its empty golden passes `--strict`.
        public var allowEmpty = false
        public init(allowEmpty: Bool = false) { self.allowEmpty = allowEmpty }
    }

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
    /// decode options are added. Capture rules stay this layer's (they belong to one directory).
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
        guard !field.isEmpty else {
            throw GoldenError("--tolerance '\(argument)': the field name is missing", kind: .setting)
        }
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
            let names = Alignment.allCases.map(\.rawValue).joined(separator: ", ")
            throw GoldenError("--align must be one of \(names), not '\(argument)'", kind: .setting)
        }
        self.alignment = alignment
    }

    static func toleranceValue(_ text: String, for what: String) throws(GoldenError) -> Double {
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw GoldenError("\(what): '\(text)' is not a tolerance (a number, 0 or more)", kind: .setting)
        }
        return value
    }
}
