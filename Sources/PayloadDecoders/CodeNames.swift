/// Names for the codes of an enumerated wire field. A code without a name is written
/// "reserved_<code>", so that every code survives a decode and encodes back to itself.
struct CodeNames: Sendable, ExpressibleByDictionaryLiteral {
    /// The names by code: the codes of a wire field are small, and a lookup per decoded field is
    /// then an index, not a hash.
    private let byCode: [String?]

    /// Codes from 0 to `maximumCode`, the first name given for a code kept.
    init(dictionaryLiteral elements: (Int64, String)...) {
        var byCode: [String?] = []
        for (code, name) in elements {
            precondition(
                (0...Self.maximumCode).contains(code), "code \(code) of \(name) outside 0…\(Self.maximumCode)")
            if byCode.count <= code { byCode += Array(repeating: nil, count: Int(code) + 1 - byCode.count) }
            if byCode[Int(code)] == nil { byCode[Int(code)] = name }
        }
        self.byCode = byCode
    }

    static let maximumCode: Int64 = 1023

    func name(_ code: some BinaryInteger) -> String {
        knownName(code) ?? "reserved_\(code)"
    }

    func name(_ code: some BinaryInteger) -> FieldValue { .string(name(code)) }

    /// The name, only when the code has one.
    func knownName(_ code: some BinaryInteger) -> String? {
        guard code >= 0, code < byCode.count else { return nil }
        return byCode[Int(code)]
    }

    func code(for name: String) -> Int64? {
        if let index = byCode.firstIndex(of: name) { return Int64(index) }
        guard name.hasPrefix("reserved_"), let code = Int64(name.dropFirst("reserved_".count)), knownName(code) == nil
        else { return nil }
        return code
    }

    /// The named codes' names, in code order (for messages).
    var known: [String] { byCode.compactMap { $0 } }
}
