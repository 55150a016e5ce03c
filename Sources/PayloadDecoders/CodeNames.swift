/// Names for the codes of an enumerated wire field. A code without a name is written
/// "reserved_<code>", so that every code survives a decode and encodes back to itself.
struct CodeNames: Sendable, ExpressibleByDictionaryLiteral {
    private let names: [Int64: String]

    init(dictionaryLiteral elements: (Int64, String)...) {
        names = Dictionary(elements, uniquingKeysWith: { first, _ in first })
    }

    func name(_ code: some BinaryInteger) -> String {
        names[Int64(code)] ?? "reserved_\(code)"
    }

    func name(_ code: some BinaryInteger) -> FieldValue { .string(name(code)) }

    /// The name, only when the code has one.
    func knownName(_ code: some BinaryInteger) -> String? { names[Int64(code)] }

    func code(for name: String) -> Int64? {
        if let entry = names.first(where: { $0.value == name }) { return entry.key }
        guard name.hasPrefix("reserved_"), let code = Int64(name.dropFirst("reserved_".count)),
            names[code] == nil
        else { return nil }
        return code
    }

    /// The named codes' names, in code order (for messages).
    var known: [String] { names.sorted { $0.key < $1.key }.map(\.value) }
}
