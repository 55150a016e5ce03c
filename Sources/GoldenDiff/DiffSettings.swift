/// How readings on the two sides are paired.
public enum Alignment: String, Sendable, CaseIterable {
    /// By (frame, decoder, addr, index): the same capture decoded by two versions of the decoders.
    case frame
    /// By order within each (addr, decoder): captures of two firmware builds, whose frames and
    /// timestamps differ. `frame` and `ts` then only locate a reading and are not compared.
    case sequence
}

/// What a comparison pairs readings by, what it leaves out, and how close numbers must be.
public struct DiffSettings: Sendable, Equatable {
    public var alignment: Alignment
    /// Absolute tolerance for every number without a tolerance of its own.
    public var tolerance: Double
    /// Absolute tolerance by field name (`temperature_c`) or top-level key (`ts`).
    public var fieldTolerances: [String: Double]
    /// Field names, top-level keys or dotted paths (`error.offset`) left out of the comparison.
    /// Ignoring `addr` also leaves it out of the alignment key.
    public var ignored: Set<String>

    public init(
        alignment: Alignment = .frame, tolerance: Double = 0, fieldTolerances: [String: Double] = [:],
        ignored: Set<String> = []
    ) {
        self.alignment = alignment
        self.tolerance = tolerance
        self.fieldTolerances = fieldTolerances
        self.ignored = ignored
    }

    func tolerance(for path: String) -> Double { fieldTolerances[path] ?? tolerance }

    /// Whether `path` or an object it lies in (`error` for `error.offset`) is ignored.
    func isIgnored(_ path: String) -> Bool {
        if ignored.isEmpty { return false }
        if ignored.contains(path) { return true }
        var prefix = Substring(path)
        while let dot = prefix.lastIndex(of: ".") {
            prefix = prefix[..<dot]
            if ignored.contains(String(prefix)) { return true }
        }
        return false
    }

    var alignsByAddress: Bool { !ignored.contains("addr") }

    /// Top-level keys that place a reading rather than describe it, so they are not compared.
    var keyMembers: Set<String> {
        switch alignment {
        case .frame: ["frame", "decoder", "addr", "index"]
        case .sequence: ["frame", "ts", "decoder", "addr"]
        }
    }

    /// A field name as written on the command line or in golden.json: `fields.x` means the field `x`.
    static func normalizedName(_ name: String) -> String {
        name.hasPrefix("fields.") ? String(name.dropFirst("fields.".count)) : name
    }
}
