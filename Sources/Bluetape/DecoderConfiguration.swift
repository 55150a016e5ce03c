import BluetoothTracking
import FileAccess
import Layouts
import PayloadDecoders
import Readings

/// What a capture is decoded with: the built-in decoders and layout files, every parameter set
/// through the one mechanism, an optional selection of decoder ids, and the pipeline's options.
///
/// ```swift
/// let decoding = try DecoderConfiguration(
///     layouts: ["layouts/pin-write.json"],
///     parameters: [ParameterAssignment("pin_characteristic=7a5b0002-3c9d-4e2f-8a1b-2c3d4e5f6071")!])
/// ```
public struct DecoderConfiguration: Sendable {
    /// Every decoder in use, configured: built-in ones first, then the layouts in the order given.
    public private(set) var decoders: [any PayloadDecoder]
    public private(set) var layouts: [Layout]
    /// Decoder ids whose readings are kept (nil keeps all).
    public private(set) var only: Set<String>?
    public var pipeline = ReadingsPipeline.Options()
    /// What the tracker knows beyond the capture (a GATT map).
    public var tracker = Tracker.Options()

    /// - Parameters:
    ///   - builtIn: the decoders compiled in (all of `Registry.builtIn` by default).
    ///   - layouts: layout files to load; each is checked before any capture is read.
    ///   - parameters: values for the parameters the decoders and layouts declare. One that no
    ///     decoder declares is an error, so is a value of the wrong kind.
    ///   - only: decoder ids to keep (`--decoder`); each must exist.
    public init(
        builtIn: [any PayloadDecoder] = Registry.builtIn, layouts layoutPaths: [String] = [],
        parameters: [ParameterAssignment] = [], only: Set<String>? = nil
    ) throws(DecoderConfigurationError) {
        var used: Set<Int> = []
        var decoders: [any PayloadDecoder] = []
        for decoder in builtIn {
            let declared = Dictionary(decoder.parameters.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            let values = parameters.values(for: decoder.id, declaring: Set(declared.keys), used: &used)
            try Self.check(values, declared, decoder: decoder.id)
            do {
                decoders.append(values.isEmpty ? decoder : try decoder.configured(with: values))
            } catch {
                throw .decoder(error)
            }
        }
        var layouts: [Layout] = []
        var broken: [LayoutLoadError] = []
        for path in layoutPaths {
            do {
                layouts.append(try Self.loadLayout(path, parameters, used: &used))
            } catch {
                // Every broken layout is reported at once; a wrong value stops at the first.
                guard case .layout(let problem) = error else { throw error }
                broken.append(problem)
            }
        }
        if !broken.isEmpty { throw .layouts(broken) }
        self.layouts = layouts
        self.decoders = decoders + layouts
        for (index, assignment) in parameters.enumerated() where !used.contains(index) {
            if let id = assignment.decoder, !self.decoders.contains(where: { $0.id == id }) {
                throw .unknownDecoder(id, known: self.decoders.map(\.id))
            }
            throw .unknownParameter(assignment.target, declared: self.declaredParameters)
        }
        if let only {
            let known = Set(DecoderSet(self.decoders).producedIDs)
            let unknown = only.subtracting(known).sorted()
            if let first = unknown.first { throw .unknownDecoder(first, known: known.sorted()) }
            self.only = only
        }
    }

    /// golden.json's "decode" section: `layouts` (a comma-separated list; paths already resolved
    /// against the golden.json), `decoders`, `gatt`, and `param.NAME` / `param.ID.NAME` values.
    public init(goldenOptions options: [String: String]) throws(DecoderConfigurationError) {
        var parameters: [ParameterAssignment] = []
        // A misspelt option silently ignored would check captures decoded the wrong way.
        for key in options.keys.sorted() where !key.hasPrefix("param.") && !Self.goldenOptionKeys.contains(key) {
            throw .unknownOption(key)
        }
        for (key, value) in options.sorted(by: { $0.key < $1.key }) where key.hasPrefix("param.") {
            guard let assignment = ParameterAssignment(String(key.dropFirst(6)) + "=" + value) else {
                throw .badValue(key, value, "not a parameter name")
            }
            parameters.append(assignment)
        }
        let layouts = options["layouts"].map(Self.list) ?? []
        let only = options["decoders"].map { Set(Self.list($0)) }
        try self.init(layouts: layouts, parameters: parameters, only: only)
        if let map = options["gatt"] {
            do {
                tracker.gattMap = try GATTMapFile.load(path: map)
            } catch {
                throw .gattMap(error)
            }
        }
    }

    /// The keys of a golden.json's "decode" section, besides `param.NAME` and `param.ID.NAME`.
    public static let goldenOptionKeys: Set<String> = ["layouts", "decoders", "gatt"]

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").compactMap { item in
            guard let first = item.firstIndex(where: { !$0.isWhitespace }),
                let last = item.lastIndex(where: { !$0.isWhitespace })
            else { return nil }
            return String(item[first...last])
        }
    }

    /// Keeps only the readings of these decoder ids from now on.
    public mutating func restrict(to ids: Set<String>) { only = ids }

    /// `decoder.parameter` for every parameter declared, for messages.
    public var declaredParameters: [String] {
        decoders.flatMap { decoder in decoder.parameters.map { "\(decoder.id).\($0.name)" } }
    }

    /// The decoders in use, indexed for the pipeline.
    public var decoderSet: DecoderSet { DecoderSet(decoders, only: only) }

    /// Keeps only the readings of the `only` decoders (a follow-up's readings have ids of their own).
    public func keeps(_ reading: Reading) -> Bool {
        guard let only, let id = reading.decoder else { return true }
        return only.contains(id)
    }

    private static func check(
        _ values: DecoderParameterValues, _ declared: [String: DecoderParameter], decoder: String
    ) throws(DecoderConfigurationError) {
        for (name, texts) in values.given {
            guard let kind = declared[name]?.kind else { continue }
            for text in texts {
                if let problem = kind.problem(with: text) { throw .badValue("\(decoder).\(name)", text, problem) }
            }
        }
    }

    /// Loads a layout twice: once to learn what it declares, then with the values meant for it.
    private static func loadLayout(_ path: String, _ parameters: [ParameterAssignment], used: inout Set<Int>) throws(
        DecoderConfigurationError
    ) -> Layout {
        let declaredOnly: Layout
        do {
            declaredOnly = try Layout.load(path: path, requireParameters: false)
        } catch {
            throw .layout(error)
        }
        let declared = Dictionary(declaredOnly.parameters.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let values = parameters.values(for: declaredOnly.id, declaring: Set(declared.keys), used: &used)
        try check(values, declared, decoder: declaredOnly.id)
        for name in declaredOnly.missingParameters where values.text(name) == nil {
            throw .missingParameter(decoder: declaredOnly.id, file: path, name: name, kind: declared[name]?.kind)
        }
        if values.isEmpty { return declaredOnly }
        do {
            return try Layout.load(path: path, parameters: values.given.compactMapValues(\.last))
        } catch {
            throw .layout(error)
        }
    }
}

/// Why a decoder configuration cannot be used. `isUsage` tells a wrong command line or golden.json
/// (exit code 2) from a layout file that cannot be read or is broken (3).
public enum DecoderConfigurationError: Error, Sendable, CustomStringConvertible {
    case unknownParameter(String, declared: [String])
    case unknownDecoder(String, known: [String])
    case badValue(String, String, String)
    /// A golden.json "decode" key that is none of `goldenOptionKeys` or `param.…`.
    case unknownOption(String)
    case missingParameter(decoder: String, file: String, name: String, kind: DecoderParameter.Kind?)
    case decoder(DecoderParameterError)
    case layout(LayoutLoadError)
    case layouts([LayoutLoadError])
    case gattMap(GATTMapError)

    public var isUsage: Bool {
        switch self {
        case .layout, .layouts, .gattMap: false
        default: true
        }
    }

    public var description: String { message(command: "decode") }

    private static var optionList: String {
        DecoderConfiguration.goldenOptionKeys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// The message, with hints that name `bluetape COMMAND`.
    public func message(command: String) -> String {
        switch self {
        case .unknownParameter(let target, let declared):
            return "no decoder or layout declares a parameter '\(target)'"
                + (declared.isEmpty ? "; none here takes parameters" : "; declared: \(declared.joined(separator: ", "))")
        case .unknownDecoder(let id, let known):
            _ = known
            return "unknown decoder '\(id)'; 'bluetape decoders' lists them"
        case .badValue(let target, let value, let problem):
            return "parameter '\(target)': '\(value)' is \(problem)"
        case .unknownOption(let key):
            return "unknown decode option '\(key)'; \"decode\" takes "
                + Self.optionList + " and param.NAME (param.DECODER.NAME) for a decoder's or layout's parameter"
        case .missingParameter(let decoder, let file, let name, let kind):
            let example = kind == .uuid ? "UUID" : kind == .integer ? "NUMBER" : "VALUE"
            return "\(file): layout '\(decoder)' needs its parameter '\(name)', which has no default; "
                + "give it with: bluetape \(command) --param \(name)=\(example)"
        case .decoder(let error):
            return error.description
        case .layout(let error):
            return error.description
        case .layouts(let errors):
            return errors.map(\.description).joined(separator: "\n")
        case .gattMap(let error):
            return error.description
        }
    }
}
