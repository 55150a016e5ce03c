import ByteReading
import PayloadDecoders

/// The functions of the C header: byte helpers, decode, encode and from_values.
struct CCode {
    let layout: Layout
    let prefix: String
    var upper: String { prefix.uppercased() }

    var hasOptional: Bool {
        func any(_ nodes: [Node]) -> Bool {
            nodes.contains { node in
                if node.isOptional { return true }
                if case .switchOn(let s) = node { return s.cases.contains { any($0.nodes) } || any(s.defaultNodes ?? []) }
                return false
            }
        }
        return any(layout.nodes)
    }

    func write(into c: inout CWriter, float: Bool) {
        let p = prefix
        c.line("static inline uint64_t \(p)_get(const uint8_t *b, size_t n, int le) {")
        c.line("    uint64_t x = 0;")
        c.line("    for (size_t i = 0; i < n; i++) x = (x << 8) | b[le ? n - 1 - i : i];")
        c.line("    return x;")
        c.line("}")
        c.line("")
        c.line("static inline void \(p)_put(uint8_t *b, size_t n, int le, uint64_t x) {")
        c.line("    for (size_t i = 0; i < n; i++) b[le ? i : n - 1 - i] = (uint8_t)(x >> (8 * i));")
        c.line("}")
        c.line("")
        c.line("static inline int64_t \(p)_signed(uint64_t x, size_t n) {")
        c.line("    if (n >= 8) return (int64_t)x;")
        c.line("    uint64_t m = (uint64_t)1 << (8 * n - 1);")
        c.line("    return (int64_t)(x ^ m) - (int64_t)m;")
        c.line("}")
        c.line("")
        c.line("static inline int \(p)_negative(int64_t x) { return x < 0; }")
        c.line("")
        c.line("/* Bits shift … shift+width-1 of n bytes taken as one integer (any n: packed fields). */")
        c.line("static inline uint64_t \(p)_bits(const uint8_t *b, size_t n, int le, unsigned shift, unsigned width) {")
        c.line("    uint64_t x = 0;")
        c.line("    for (unsigned i = 0; i < width; i++) {")
        c.line("        unsigned bit = shift + i;")
        c.line("        size_t index = le ? bit / 8 : n - 1 - bit / 8;")
        c.line("        x |= (uint64_t)((b[index] >> (bit % 8)) & 1u) << i;")
        c.line("    }")
        c.line("    return x;")
        c.line("}")
        c.line("")
        c.line("static inline void \(p)_set_bits(uint8_t *b, size_t n, int le, unsigned shift, unsigned width, uint64_t x) {")
        c.line("    for (unsigned i = 0; i < width; i++) {")
        c.line("        unsigned bit = shift + i;")
        c.line("        size_t index = le ? bit / 8 : n - 1 - bit / 8;")
        c.line("        uint8_t mask = (uint8_t)(1u << (bit % 8));")
        c.line("        b[index] = (uint8_t)(((x >> i) & 1u) ? (b[index] | mask) : (b[index] & (uint8_t)~mask));")
        c.line("    }")
        c.line("}")
        c.line("")
        if float {
            c.line("/* Half away from zero at `decimals` places: the rounding Bluetape applies (layouts/README.md). */")
            c.line("static inline double \(p)_round(double v, int decimals) {")
            c.line("    double scale = 1.0;")
            c.line("    for (int i = 0; i < decimals; i++) scale *= 10.0;")
            c.line("    double s = v * scale;")
            c.line("    if (!(fabs(s) < 9007199254740992.0)) return v;")
            c.line("    double r = round(s) / scale;")
            c.line("    return r == 0.0 ? 0.0 : r;")
            c.line("}")
            c.line("")
            c.line("static inline double \(p)_displayed(double v, int resolution, int decimals) {")
            c.line("    if (resolution <= decimals) return \(p)_round(v, decimals);")
            c.line("    double units = round(v * pow(10.0, resolution));")
            c.line("    double step = pow(10.0, resolution - decimals);")
            c.line("    double whole = floor((fabs(units) + floor(step / 2.0)) / step);")
            c.line("    double r = (units < 0 ? -whole : whole) / pow(10.0, decimals);")
            c.line("    return r == 0.0 ? 0.0 : r;")
            c.line("}")
            c.line("")
            c.line("static inline double \(p)_medfloat(int64_t mantissa, int exponent) {")
            c.line("    double power = 1.0;")
            c.line("    for (int i = 0; i < (exponent < 0 ? -exponent : exponent); i++) power *= 10.0;")
            c.line("    return exponent < 0 ? (double)mantissa / power : (double)mantissa * power;")
            c.line("}")
            c.line("")
        }
        writeValues(&c)
        writeDecode(&c, float: float)
        writeEncode(&c)
        writeFromValues(&c)
    }

    // MARK: - Decode

    private func writeDecode(_ c: inout CWriter, float: Bool) {
        let p = prefix
        c.line("/* Decodes a payload: \(upper)_OK, or a negative error. */")
        c.line("static inline int \(p)_decode(const uint8_t *buf, size_t len, \(p)_t *out) {")
        c.depth += 1
        c.line("size_t pos = 0;")
        c.line("memset(out, 0, sizeof *out);")
        if let rule = layout.program.lengthRule {
            c.line("if (len < \(rule.lowerBound)u || len > \(rule.upperBound)u) return \(upper)_E_LENGTH;")
        }
        decodeNodes(layout.nodes, &c)
        c.line("if (pos != len) return \(upper)_E_TRAILING;")
        if hasOptional {
            c.depth -= 1
            c.line("done:")
            c.depth += 1
        }
        c.line("\(p)_values(out);")
        var rules: [(String, NullCondition)] = []
        layout.forEachValue { if let n = $0.nullWhen { rules.append(($0.name, n)) } }
        for (target, condition) in rules {
            let tests = condition.values.compactMap { rawTest(condition.field, $0) }
            if !tests.isEmpty { c.line("if (\(tests.joined(separator: " || "))) out->\(target)_null = true;") }
        }
        c.line("return \(upper)_OK;")
        c.depth -= 1
        c.line("}")
        c.line("")
    }

    /// `out->field == raw` for a null_when value, through the field's enum.
    private func rawTest(_ field: String, _ value: FieldValue) -> String? {
        var spec: ValueSpec?
        layout.forEachValue { if $0.name == field, spec == nil { spec = $0 } }
        guard let spec else { return nil }
        let presence = optionalPresence(field).map { "out->\($0) && " } ?? ""
        switch value {
        case .string(let name):
            guard let raw = spec.enumCases.first(where: { $0.name == name })?.value else { return nil }
            return "(\(presence)out->\(field) == \(raw))"
        case .int(let i): return "(\(presence)out->\(field) == \(i))"
        case .bool(let b): return "(\(presence)out->\(field) == \(b))"
        default: return nil
        }
    }

    /// The presence member of the optional node that holds `field`, if any.
    private func optionalPresence(_ field: String) -> String? {
        var found: String?
        func visit(_ nodes: [Node]) {
            for node in nodes {
                var holds = false
                node.forEachValue { if $0.name == field { holds = true } }
                if holds, node.isOptional, found == nil { found = CExport.presentName(node) }
                if case .switchOn(let s) = node {
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                }
            }
        }
        visit(layout.nodes)
        return found
    }

    private func need(_ n: String, _ c: inout CWriter) {
        c.line("if (len - pos < (size_t)(\(n))) return \(upper)_E_SHORT;")
    }

    private func store(_ v: ValueSpec, _ x: String, rawType: String, isBool: Bool, _ c: inout CWriter) {
        if let constant = v.constant { c.line("if (\(x) != (uint64_t)\(constant)\(constant < 0 ? "" : "u")) return \(upper)_E_VALUE;") }
        if isBool {
            c.line("out->\(v.name) = \(v.inverted ? "\(x) == 0" : "\(x) != 0");")
            return
        }
        let target = v.conversion == .unscaled ? v.name : v.name + "_raw"
        if rawType.hasPrefix("int") {
            c.line("out->\(target) = (\(rawType))\(prefix)_signed(\(x), sizeof(\(rawType)));")
        } else {
            c.line("out->\(target) = (\(rawType))\(x);")
        }
    }

    private func decodeNodes(_ nodes: [Node], _ c: inout CWriter) {
        let p = prefix
        for node in nodes {
            if node.isOptional {
                c.line("if (pos >= len) goto done;")
                c.line("out->\(CExport.presentName(node)) = true;")
            }
            switch node {
            case .scalar(let s):
                let size = s.type.size
                let le = s.endian == .little ? 1 : 0
                if let count = s.count {
                    let cap = CExport.capacity(count, elementSize: size, layout)
                    c.line("{")
                    c.depth += 1
                    switch count {
                    case .fixed(let n): c.line("size_t count = \(n)u;")
                    case .rest:
                        c.line("size_t count = (len - pos) / \(size)u;")
                        c.line("if ((len - pos) % \(size)u != 0) return \(upper)_E_TRAILING;")
                    case .field(let f):
                        c.line("if (\(prefix)_negative((int64_t)out->\(f))) return \(upper)_E_VALUE;")
                        c.line("size_t count = (size_t)out->\(f);")
                    }
                    c.line("if (count > \(cap)u) return \(upper)_E_VALUE;")
                    need("count * \(size)u", &c)
                    c.line("for (size_t i = 0; i < count; i++, pos += \(size)u) {")
                    let element = s.type.isInteger ? CExport.intType(size, s.type.rawRange.min < 0) : "uint64_t"
                    if element.hasPrefix("int") {
                        c.line("    out->\(s.value.name)[i] = (\(element))\(p)_signed(\(p)_get(buf + pos, \(size)u, \(le)), \(size)u);")
                    } else {
                        c.line("    out->\(s.value.name)[i] = (\(element))\(p)_get(buf + pos, \(size)u, \(le));")
                    }
                    c.line("}")
                    c.line("out->\(s.value.name)_count = count;")
                    c.depth -= 1
                    c.line("}")
                    continue
                }
                need("\(size)u", &c)
                c.line("{")
                c.depth += 1
                c.line("uint64_t x = \(p)_get(buf + pos, \(size)u, \(le));")
                switch s.type {
                case .integer(let size, let signed): store(s.value, "x", rawType: CExport.intType(size, signed), isBool: false, &c)
                case .ieee754(let size): c.line("out->\(s.value.name)_raw = (\(size == 4 ? "uint32_t" : "uint64_t"))x;")
                case .medfloat(let size): c.line("out->\(s.value.name)_raw = (\(size == 2 ? "uint16_t" : "uint32_t"))x;")
                }
                c.line("pos += \(size)u;")
                c.depth -= 1
                c.line("}")
            case .bits(let b):
                let size = b.type.size
                let le = b.endian == .little ? 1 : 0
                need("\(size)u", &c)
                c.line("{")
                c.depth += 1
                if let container = b.container {
                    c.line("uint64_t x = \(p)_get(buf + pos, \(size)u, \(le));")
                    store(container, "x", rawType: CExport.intType(size, false), isBool: false, &c)
                }
                for part in b.parts {
                    c.line("{")
                    c.line("    uint64_t x = \(p)_bits(buf + pos, \(size)u, \(le), \(part.shift)u, \(part.width)u);")
                    c.depth += 1
                    store(part.value, "x", rawType: CExport.intType((part.width + 7) / 8, false), isBool: part.isBool, &c)
                    c.depth -= 1
                    c.line("}")
                }
                c.line("pos += \(size)u;")
                c.depth -= 1
                c.line("}")
            case .data(let d):
                let cap = CExport.capacity(d.length, elementSize: 1, layout)
                c.line("{")
                c.depth += 1
                switch d.length {
                case .fixed(let n): c.line("size_t n = \(n)u;")
                case .rest: c.line("size_t n = len - pos;")
                case .field(let f):
                    c.line("if (\(prefix)_negative((int64_t)out->\(f))) return \(upper)_E_VALUE;")
                    c.line("size_t n = (size_t)out->\(f);")
                }
                c.line("if (n > \(cap)u) return \(upper)_E_VALUE;")
                need("n", &c)
                c.line("memcpy(out->\(d.name), buf + pos, n);")
                c.line("out->\(d.name)_len = n;")
                if case .fixed = d.length, d.encoding != .hex {
                    c.line("while (out->\(d.name)_len > 0 && out->\(d.name)[out->\(d.name)_len - 1] == 0) out->\(d.name)_len--;")
                }
                if d.encoding == .ascii {
                    c.line("for (size_t i = 0; i < out->\(d.name)_len; i++) if (out->\(d.name)[i] >= 0x80) return \(upper)_E_VALUE;")
                }
                c.line("pos += n;")
                c.depth -= 1
                c.line("}")
            case .pad(let n):
                need("\(n)u", &c)
                c.line("pos += \(n)u;")
            case .computed:
                break
            case .switchOn(let s):
                var first = true
                for arm in s.cases {
                    c.line("\(first ? "" : "} else ")if ((int64_t)out->\(s.field) == \(arm.value)) {")
                    first = false
                    c.depth += 1
                    decodeNodes(arm.nodes, &c)
                    c.depth -= 1
                }
                c.line(first ? "{" : "} else {")
                c.depth += 1
                if let d = s.defaultNodes { decodeNodes(d, &c) } else { c.line("return \(upper)_E_VALUE;") }
                c.depth -= 1
                c.line("}")
            }
        }
    }
}
