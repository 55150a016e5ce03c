import PayloadDecoders

/// One parameter value as a user gave it: `NAME=VALUE` for every decoder that declares NAME, or
/// `ID.NAME=VALUE` for the decoder (or layout) with that id only.
public struct ParameterAssignment: Sendable, Hashable {
    /// The decoder id it is scoped to; nil for every decoder that declares `name`.
    public var decoder: String?
    public var name: String
    public var value: String

    public init(decoder: String? = nil, name: String, value: String) {
        self.decoder = decoder
        self.name = name
        self.value = value
    }

    /// Reads `NAME=VALUE` or `ID.NAME=VALUE`. Decoder ids hold dots (`acme.pump`) and names
    /// do not, so the scope ends at the last dot before the first `=`; the value is everything after
    /// that `=` (a key's value holds one itself).
    public init?(_ text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let target = text[..<equals]
        value = String(text[text.index(after: equals)...])
        if let dot = target.lastIndex(of: ".") {
            decoder = String(target[..<dot])
            name = String(target[target.index(after: dot)...])
        } else {
            decoder = nil
            name = String(target)
        }
        guard !name.isEmpty, decoder?.isEmpty != true else { return nil }
    }

    /// `ID.NAME` or `NAME`, as written.
    public var target: String { decoder.map { "\($0).\(name)" } ?? name }
}

extension [ParameterAssignment] {
    /// The values for one decoder: those scoped to it and those for every decoder, by the names
    /// it declares. `used` collects the indices of the assignments taken.
    func values(for decoder: String, declaring names: Set<String>, used: inout Set<Int>) -> DecoderParameterValues {
        var given: [String: [String]] = [:]
        for (index, assignment) in enumerated() where names.contains(assignment.name) {
            guard assignment.decoder == nil || assignment.decoder == decoder else { continue }
            given[assignment.name, default: []].append(assignment.value)
            used.insert(index)
        }
        return DecoderParameterValues(given)
    }
}
