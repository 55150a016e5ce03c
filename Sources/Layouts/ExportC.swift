import ByteReading
import PayloadDecoders

/// `bluetape layout export --c`: a header-only C99 encoder and decoder for firmware.
///
/// One struct per layout with a member per field: the raw integer (fixed width, as on the air)
/// for every stored field; for scaled fields also the engineering value as a double, and a
/// `_raw` member for the integer. `*_decode` fills the struct; `*_encode` writes the raw members
/// byte by byte (no unaligned casts, no heap, no floating point); `*_from_values` sets the raw
/// members from the engineering ones. Everything is `static inline`. Floating point (and
/// <math.h>) appears only where the layout has scaled, float or computed fields.
enum CExport {
    struct Member {
        var name: String
        var ctype: String
        var comment: String
    }

    static func prefix(_ layout: Layout) -> String { layout.id.replacingDots() }

    /// The C type of a raw integer of `size` bytes.
    static func intType(_ size: Int, _ signed: Bool) -> String {
        let bits = size <= 1 ? 8 : size <= 2 ? 16 : size <= 4 ? 32 : 64
        return (signed ? "int" : "uint") + String(bits) + "_t"
    }

    static func usesFloat(_ layout: Layout) -> Bool {
        var found = false
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .scalar(let s): if !s.type.isInteger || !(s.value.conversion.isIdentity) { found = true }
                case .bits(let b):
                    if b.parts.contains(where: { !$0.value.conversion.isIdentity }) { found = true }
                    if let c = b.container, !c.conversion.isIdentity { found = true }
                case .computed: found = true
                case .switchOn(let s):
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                default: break
                }
            }
        }
        visit(layout.nodes)
        return found
    }

    /// The capacity of a variable array or byte run.
    static func capacity(_ extent: Extent?, elementSize: Int, _ layout: Layout) -> Int {
        let longest = (layout.match.length ?? layout.program.lengthRule).map(\.upperBound)
        switch extent {
        case .fixed(let n)?: return n
        case .rest?: return max(1, min(512, (longest ?? 255) / elementSize))
        case .field?: return max(1, min(512, (longest ?? 255 * elementSize) / elementSize))
        case nil: return 1
        }
    }

    // MARK: - Members

    static func members(_ layout: Layout) -> [Member] {
        var out: [Member] = []
        func add(_ m: Member) {
            if let i = out.firstIndex(where: { $0.name == m.name }) {
                if out[i].ctype != m.ctype, m.ctype.hasSuffix("_t"), out[i].ctype.hasSuffix("_t") {
                    out[i].ctype = m.ctype.hasPrefix("int") || out[i].ctype.hasPrefix("int") ? "int64_t" : "uint64_t"
                }
                return
            }
            out.append(m)
        }
        func value(_ v: ValueSpec, rawType: String, isBool: Bool, optional: Bool) {
            if isBool {
                add(Member(name: v.name, ctype: "bool", comment: v.inverted ? "true when the bit is 0" : ""))
            } else if v.conversion.isIdentity, case .identity(let a) = v.conversion, a == 0 {
                add(Member(name: v.name, ctype: rawType, comment: comment(v)))
            } else {
                add(Member(name: v.name + "_raw", ctype: rawType, comment: "raw"))
                if case .identity = v.conversion {
                    add(Member(name: v.name, ctype: "int64_t", comment: comment(v)))
                } else {
                    add(Member(name: v.name, ctype: "double", comment: comment(v)))
                }
            }
            if v.nullWhen != nil { add(Member(name: v.name + "_null", ctype: "bool", comment: "no value (null_when)")) }
        }
        func visit(_ nodes: [Node]) {
            for node in nodes {
                if node.isOptional { add(Member(name: presentName(node), ctype: "bool", comment: "false: the payload ended before it")) }
                switch node {
                case .scalar(let s):
                    if let count = s.count {
                        let cap = capacity(count, elementSize: s.type.size, layout)
                        let element = s.type.isInteger ? intType(s.type.size, s.type.rawRange.min < 0) : "uint64_t"
                        add(Member(name: s.value.name, ctype: element + "[\(cap)]", comment: "raw elements"))
                        add(Member(name: s.value.name + "_count", ctype: "size_t", comment: "elements in \(s.value.name)"))
                        continue
                    }
                    switch s.type {
                    case .integer(let size, let signed): value(s.value, rawType: intType(size, signed), isBool: false, optional: s.optional)
                    case .ieee754(let size):
                        add(Member(name: s.value.name + "_raw", ctype: size == 4 ? "uint32_t" : "uint64_t", comment: "IEEE 754 bits"))
                        add(Member(name: s.value.name, ctype: "double", comment: comment(s.value)))
                        add(Member(name: s.value.name + "_null", ctype: "bool", comment: "NaN"))
                    case .medfloat(let size):
                        add(Member(name: s.value.name + "_raw", ctype: size == 2 ? "uint16_t" : "uint32_t", comment: "IEEE-11073 word"))
                        add(Member(name: s.value.name, ctype: "double", comment: comment(s.value)))
                        add(Member(name: s.value.name + "_null", ctype: "bool", comment: "NaN, NRes, reserved or ±infinity"))
                    }
                case .bits(let b):
                    if let c = b.container { value(c, rawType: intType(b.type.size, false), isBool: false, optional: b.optional) }
                    for part in b.parts {
                        value(part.value, rawType: intType((part.width + 7) / 8, false), isBool: part.isBool, optional: b.optional)
                    }
                case .data(let d):
                    let cap = capacity(d.length, elementSize: 1, layout)
                    add(Member(name: d.name, ctype: "uint8_t[\(cap)]", comment: d.encoding == .hex ? "bytes" : "text, not NUL-terminated"))
                    add(Member(name: d.name + "_len", ctype: "size_t", comment: "bytes in \(d.name)"))
                case .pad: break
                case .computed(let c): add(Member(name: c.value.name, ctype: "double", comment: "computed: \(c.text)"))
                case .switchOn(let s):
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                }
            }
        }
        visit(layout.nodes)
        return out
    }

    static func presentName(_ node: Node) -> String {
        var first = ""
        node.forEachValue { if first.isEmpty { first = $0.name } }
        if case .data(let d) = node { first = d.name }
        return first + "_present"
    }

    static func comment(_ v: ValueSpec) -> String {
        var parts: [String] = []
        if let unit = v.unit { parts.append(unit) }
        switch v.conversion {
        case .identity(let a) where a != 0: parts.append("raw + \(a)")
        case .reciprocal(let n, let addN): parts.append(addN == 0 ? "raw / \(n)" : "(raw + \(addN)) / \(n)")
        case .linear(let s, let a, _): parts.append("raw * \(s) + \(a)")
        default: break
        }
        if !v.enumCases.isEmpty { parts.append(v.enumCases.map { "\($0.value) \($0.name)" }.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    // MARK: - Header

    static func header(_ layout: Layout) -> String {
        let p = prefix(layout)
        let upper = p.uppercased()
        let float = usesFloat(layout)
        var c = CWriter()
        c.line("/* \(layout.id)\(layout.summary.isEmpty ? "" : ": " + layout.summary)")
        c.line(" * Generated by `bluetape layout export --c` from \(layout.file): edit the layout, not this file.")
        c.line(" * \(p)_decode fills the struct from a payload (the bytes after the company id, service UUID or")
        c.line(" * ATT handle) and its values; \(p)_from_values sets the raw members from the values, and")
        c.line(" * \(p)_encode writes the raw members. No heap; floating point only for \(float ? "the scaled, float and computed fields" : "nothing: this layout needs none"). */")
        c.line("#ifndef \(upper)_H")
        c.line("#define \(upper)_H")
        c.line("")
        c.line("#include <stdbool.h>")
        c.line("#include <stddef.h>")
        c.line("#include <stdint.h>")
        c.line("#include <string.h>")
        if float { c.line("#include <math.h>") }
        c.line("")
        c.line("#define \(upper)_OK 0")
        c.line("#define \(upper)_E_SHORT (-1) /* the input ends early, or the output buffer is too small */")
        c.line("#define \(upper)_E_LENGTH (-2) /* a payload length the layout does not allow */")
        c.line("#define \(upper)_E_VALUE (-3) /* a value out of range, a const that differs, a switch with no case */")
        c.line("#define \(upper)_E_TRAILING (-4) /* bytes after the last field */")
        c.line("")
        layout.forEachValue { v in
            for e in v.enumCases {
                c.line("#define \(upper)_\(v.name.uppercased())_\(cIdentifier(e.name).uppercased()) \(e.value)")
            }
        }
        c.line("")
        c.line("typedef struct \(p) {")
        for m in members(layout) {
            if let bracket = m.ctype.firstIndex(of: "[") {
                c.line("    \(m.ctype[..<bracket]) \(m.name)\(m.ctype[bracket...]);\(m.comment.isEmpty ? "" : " /* \(m.comment) */")")
            } else {
                c.line("    \(m.ctype) \(m.name);\(m.comment.isEmpty ? "" : " /* \(m.comment) */")")
            }
        }
        c.line("} \(p)_t;")
        c.line("")
        CCode(layout: layout, prefix: p).write(into: &c, float: float)
        c.line("#endif /* \(upper)_H */")
        return c.text
    }
}

struct CWriter {
    var text = ""
    var depth = 0

    mutating func line(_ s: String) {
        text += s.isEmpty ? "\n" : String(repeating: "    ", count: depth) + s + "\n"
    }
}

func cIdentifier(_ s: String) -> String {
    let mapped = String(s.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    return mapped.first?.isNumber == true ? "_" + mapped : mapped
}

/// A C double literal that reads back as exactly `d`.
func cDouble(_ d: Double) -> String {
    if d.isNaN { return "(0.0 / 0.0)" }
    if d.isInfinite { return d > 0 ? "HUGE_VAL" : "(-HUGE_VAL)" }
    let text = "\(d)"
    return text.contains(".") || text.contains("e") ? text : text + ".0"
}
