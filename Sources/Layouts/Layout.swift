import BluetoothPackets
import ByteReading
import FileAccess
import JSON
import PayloadDecoders

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A payload layout described in a JSON file (layouts/README.md), compiled once and run as a
/// decoder beside the built-in ones: same `Fields`, same `DecodeOutcome`, `decoder` = its `id`.
///
/// It also encodes field values back to bytes, generates test vectors, and carries the validation
/// rules that `RuleChecker` applies across packets.
public struct Layout: PayloadDecoder, Sendable {
    public let id: String
    public let summary: String
    public let matches: [MatchKey]
    public let fields: [FieldDescription]
    /// The file name the layout was read from, as given.
    public let file: String
    /// Fields whose values identify a packet that a device repeats (EnvSensor: `["nonce"]`).
    public let dedupKey: [String]?
    /// Validation rules, in the order written: per-field ones, then the cadence.
    public let rules: [LayoutRule]
    public let parameters: [LayoutParameter]
    /// Parameters with no default that were not given (only when loaded with `requireParameters: false`);
    /// matching on them is off, so the layout claims no payload through them.
    public let missingParameters: [String]
    /// Warnings found while loading (errors stop the load).
    public let warnings: [LintIssue]

    let match: MatchSpec
    let nodes: [Node]
    let program: Program
    let defaultEndian: Endianness

    init(compiled: CompiledLayout, file: String, warnings: [LintIssue]) {
        id = compiled.id
        summary = compiled.summary
        self.file = file
        match = compiled.match
        matches = compiled.match.keys
        nodes = compiled.nodes
        dedupKey = compiled.dedupKey
        parameters = compiled.parameters
        missingParameters = compiled.missingParameters
        defaultEndian = compiled.endian
        self.warnings = warnings
        program = Program(nodes: compiled.nodes, lengthRule: compiled.lengthRule)
        var descriptions: [FieldDescription] = []
        var rules: [LayoutRule] = []
        var seen: Set<String> = []
        for node in compiled.nodes {
            node.forEachValue { value in
                guard seen.insert(value.name).inserted else { return }
                descriptions.append(FieldDescription(value.name, unit: value.unit, value.summary))
                rules += value.rules
            }
            if case .data(let d) = node, seen.insert(d.name).inserted {
                descriptions.append(FieldDescription(d.name, d.summary))
            }
        }
        Self.collectData(compiled.nodes, &descriptions, &seen)
        fields = descriptions
        if let cadence = compiled.cadence { rules.append(cadence) }
        self.rules = rules
    }

    private static func collectData(_ nodes: [Node], _ out: inout [FieldDescription], _ seen: inout Set<String>) {
        for node in nodes {
            switch node {
            case .data(let d): if seen.insert(d.name).inserted { out.append(FieldDescription(d.name, d.summary)) }
            case .switchOn(let s):
                for arm in s.cases { collectData(arm.nodes, &out, &seen) }
                collectData(s.defaultNodes ?? [], &out, &seen)
            default: break
            }
        }
    }

    // MARK: - Loading

    /// The ids of the built-in decoders, which a layout may not reuse.
    public static var builtInIDs: [String] { Registry.builtIn.map(\.id) }

    /// Reads, checks and compiles a layout file.
    ///
    /// - Parameters:
    ///   - parameters: values for the layout's parameters, as text (`["pin_characteristic": "…"]`).
    ///   - requireParameters: when true (decoding), a parameter with no default must be given;
    ///     encoding and vectors do not need matching, so they may pass false.
    public static func load(
        path: String, parameters: [String: String] = [:], builtInIDs: [String] = Layout.builtInIDs,
        requireParameters: Bool = true
    ) throws(LayoutLoadError) -> Layout {
        let bytes = try readFile(path)
        return try parse(
            bytes: bytes, name: path, parameters: parameters, builtInIDs: builtInIDs,
            requireParameters: requireParameters)
    }

    /// Checks and compiles a layout document; `name` is used in issue locations.
    public static func parse(
        bytes: [UInt8], name: String, parameters: [String: String] = [:], builtInIDs: [String] = Layout.builtInIDs,
        requireParameters: Bool = true
    ) throws(LayoutLoadError) -> Layout {
        let (compiled, issues) = LayoutCompiler.compile(
            bytes: bytes, file: name, builtInIDs: Set(builtInIDs), overrides: parameters,
            requireParameters: requireParameters)
        guard let compiled, !issues.contains(where: \.isError) else { throw .invalid(issues) }
        return Layout(compiled: compiled, file: name, warnings: issues)
    }

    // MARK: - Decoding

    /// A name prefix or service UUIDs to match need the advertisement's context.
    public var readsAdvertisingContext: Bool { match.namePrefix != nil || !match.serviceUUIDs.isEmpty }

    /// True when the payload is this layout's: its key, and every further condition of `match`.
    public func accepts(_ payload: Payload) -> Bool {
        switch payload.source {
        case .manufacturerData(let company):
            guard match.companies.contains(company) else { return false }
        case .serviceData(let uuid):
            guard match.serviceData.contains(uuid) else { return false }
        case .attribute(let uuid, let operation):
            guard match.characteristics.contains(uuid) else { return false }
            if !match.operations.isEmpty, !match.operations.contains(operation) { return false }
        }
        if let length = match.length, !length.contains(payload.bytes.count) { return false }
        if !match.prefixes.isEmpty {
            guard match.prefixes.contains(where: { payload.bytes.starts(with: $0) }) else {
                return false
            }
        }
        if let prefix = match.namePrefix {
            guard let name = payload.context.localName, name.hasPrefix(prefix) else { return false }
        }
        if !match.serviceUUIDs.isEmpty {
            guard payload.context.serviceUUIDs.contains(where: { match.serviceUUIDs.contains($0) }) else {
                return false
            }
        }
        return true
    }

    /// One outcome when the payload is this layout's, none when a condition of `match` says it is not.
    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        guard accepts(payload) else { return [] }
        return [program.run(payload.bytes)]
    }

    /// Decodes bytes as this layout, without matching.
    public func decode(bytes: [UInt8]) -> DecodeOutcome {
        program.run(bytes)
    }

    /// Decodes borrowed bytes as this layout, without matching (no copy).
    public func decode(buffer: UnsafeRawBufferPointer) -> DecodeOutcome {
        program.run(buffer)
    }

    /// The value of a parameter after defaults and overrides.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}

/// A value a layout leaves to its user (a company id, an unpublished characteristic UUID): the
/// parameters of built-in decoders and of layouts are one kind of thing.
public typealias LayoutParameter = DecoderParameter

extension DecoderParameter.Kind {
    /// The value as it stands in the document, or nil when `text` is not one.
    func parse(_ text: String) -> JSONValue? {
        switch self {
        case .uuid: return BluetoothUUID(text) == nil ? nil : .string(text)
        case .integer: return LayoutCompiler.parseIntegerText(text).map { .number(String($0)) }
        case .string: return .string(text)
        case .hex: return Hex.decode(text) == nil ? nil : .string(text)
        case .keys: return nil  // per-device keys are for built-in decoders; a layout has no use for them
        }
    }
}

/// A validation rule from a layout.
public struct LayoutRule: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The value must be at least this.
        case minimum(Double)
        /// The value must be at most this.
        case maximum(Double)
        /// The raw value must be one the enum names.
        case enumValues([String])
        /// Each packet's value is the previous one plus `step`, modulo `modulo`.
        case counter(step: Int64, modulo: Int64)
        /// The value may change by at most this much from one packet to the next.
        case maxJump(Double)
        /// Time between one packet and the next, in microseconds.
        case cadence(minMicros: Int64?, maxMicros: Int64?)
    }

    /// The field the rule is about; nil for rules on whole packets (cadence).
    public var field: String?
    public var kind: Kind

    public init(field: String?, kind: Kind) {
        self.field = field
        self.kind = kind
    }

    /// The rule's name in reports: min, max, enum, counter, max_jump, cadence.
    public var name: String {
        switch kind {
        case .minimum: "min"
        case .maximum: "max"
        case .enumValues: "enum"
        case .counter: "counter"
        case .maxJump: "max_jump"
        case .cadence: "cadence"
        }
    }

    /// True for rules that compare a packet with the one before from the same device.
    public var isCrossPacket: Bool {
        switch kind {
        case .counter, .maxJump, .cadence: true
        default: false
        }
    }

    public var description: String {
        let subject = field ?? "packets"
        switch kind {
        case .minimum(let v): return "\(subject) ≥ \(formatNumber(v))"
        case .maximum(let v): return "\(subject) ≤ \(formatNumber(v))"
        case .enumValues(let names): return "\(subject) is one of \(names.joined(separator: ", "))"
        case .counter(let step, let modulo): return "\(subject) counts up by \(step), modulo \(modulo)"
        case .maxJump(let v): return "\(subject) changes by at most \(formatNumber(v))"
        case .cadence(let low, let high):
            let parts = [low.map { "≥ \(milliseconds($0)) ms" }, high.map { "≤ \(milliseconds($0)) ms" }].compactMap {
                $0
            }
            return "interval between \(subject) \(parts.joined(separator: " and "))"
        }
    }
}

/// Whole numbers without ".0": "5", "2.5".
func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), value.magnitude < 1e15 { return String(Int64(value)) }
    return String(value)
}

func milliseconds(_ micros: Int64) -> String {
    micros % 1000 == 0 ? String(micros / 1000) : formatNumber(Double(micros) / 1000)
}

/// Why a layout could not be loaded.
public enum LayoutLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The document has errors (and maybe warnings), each located by line and JSON path.
    case invalid([LintIssue])

    public var issues: [LintIssue] {
        if case .invalid(let issues) = self { return issues }
        return []
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .invalid(let issues): issues.map(\.description).joined(separator: "\n")
        }
    }
}

// MARK: - Files

/// The whole file (a regular file only: see `WholeFile.read`); a layout is small, so a file over
/// 16 MiB is refused too.
func readFile(_ path: String) throws(LayoutLoadError) -> [UInt8] {
    do {
        return try WholeFile.read(path, limit: 16 << 20)
    } catch {
        throw .unreadable(path: path, reason: error.code == ENOENT ? "no such file" : error.reason)
    }
}
