import ByteReading
import PayloadDecoders

/// The C header's conversions (raw ↔ values) and its encoder.
extension CCode {
    /// The value of a field as a C expression, for formulas.
    func formulaTerm(_ name: String) -> String {
        var spec: ValueSpec?
        layout.forEachValue { if $0.name == name, spec == nil { spec = $0 } }
        return "(double)in->\(name)"
    }

    func formula(_ expression: Expression) -> String {
        var stack: [String] = []
        for token in expression.tokens {
            switch token {
            case .number(let d): stack.append(cDouble(d))
            case .name(let n): stack.append(formulaTerm(n))
            case .register: stack.append("(0.0 / 0.0)")
            case .negate: stack.append("(-\(stack.removeLast()))")
            case .add, .subtract, .multiply, .divide:
                let b = stack.removeLast()
                let a = stack.removeLast()
                let op = token == .add ? "+" : token == .subtract ? "-" : token == .multiply ? "*" : "/"
                stack.append("(\(a) \(op) \(b))")
            }
        }
        return stack.last ?? "(0.0 / 0.0)"
    }

    /// `*_values`: the values from the raw members (called by decode).
    func writeValues(_ c: inout CWriter) {
        let p = prefix
        c.line("/* The values (engineering units) from the raw members. */")
        c.line("static inline void \(p)_values(\(p)_t *in) {")
        c.depth += 1
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .scalar(let s) where s.count == nil:
                    switch s.type {
                    case .integer: value(s.value, &c)
                    case .ieee754(let size):
                        c.line("{")
                        c.line(size == 4 ? "    float f; uint32_t w = in->\(s.value.name)_raw; memcpy(&f, &w, 4); double d = (double)f;" : "    double d; uint64_t w = in->\(s.value.name)_raw; memcpy(&d, &w, 8);")
                        c.line("    in->\(s.value.name)_null = d != d;")
                        c.line("    in->\(s.value.name) = \(apply(s.value.conversion, "d"));")
                        c.line("}")
                    case .medfloat(let size):
                        let w = "in->\(s.value.name)_raw"
                        c.line("{")
                        if size == 2 {
                            c.line("    int64_t m = (int64_t)(\(w) & 0x0FFFu); if (m >= 0x800) m -= 0x1000;")
                            c.line("    int e = (int)(\(w) >> 12); if (e >= 8) e -= 16;")
                            c.line("    in->\(s.value.name)_null = \(w) == 0x07FFu || \(w) == 0x0800u || \(w) == 0x0801u || \(w) == 0x07FEu || \(w) == 0x0802u;")
                        } else {
                            c.line("    int64_t m = (int64_t)(\(w) & 0xFFFFFFu); if (m >= 0x800000) m -= 0x1000000;")
                            c.line("    int e = (int)(int8_t)(uint8_t)(\(w) >> 24);")
                            c.line("    in->\(s.value.name)_null = \(w) == 0x007FFFFFu || \(w) == 0x00800000u || \(w) == 0x00800001u || \(w) == 0x007FFFFEu || \(w) == 0x00800002u;")
                        }
                        c.line("    double d = in->\(s.value.name)_null ? (0.0 / 0.0) : \(p)_medfloat(m, e);")
                        c.line("    in->\(s.value.name) = \(apply(s.value.conversion, "d"));")
                        c.line("}")
                    }
                case .bits(let b):
                    if let container = b.container { value(container, &c) }
                    for part in b.parts where !part.isBool { value(part.value, &c) }
                case .computed(let comp):
                    var expression = formula(comp.expression)
                    if let display = comp.display {
                        expression = "\(p)_displayed(\(expression), \(comp.resolution ?? 99), \(display))"
                    } else if let resolution = comp.resolution {
                        expression = "\(p)_round(\(expression), \(resolution))"
                    }
                    c.line("in->\(comp.value.name) = \(expression);")
                case .switchOn(let s):
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                default: break
                }
            }
        }
        visit(layout.nodes)
        c.line("(void)in;")
        c.depth -= 1
        c.line("}")
        c.line("")
    }

    private func apply(_ conversion: Conversion, _ d: String) -> String {
        switch conversion {
        case .identity(let add): return add == 0 ? d : "(\(d) + \(add).0)"
        case .reciprocal(let n, let addN): return "((\(d) + \(addN).0) / \(n).0)"
        case .linear(let scale, let add, _): return "(\(d) * \(cDouble(scale)) + \(cDouble(add)))"
        }
    }

    private func value(_ v: ValueSpec, _ c: inout CWriter) {
        let raw = "in->\(v.name)_raw"
        switch v.conversion {
        case .identity(let add):
            if add != 0 { c.line("in->\(v.name) = (int64_t)\(raw) + \(add);") }
        case .reciprocal(let n, let addN):
            c.line("in->\(v.name) = (double)((int64_t)\(raw) + \(addN)) / \(n).0;")
        case .linear(let scale, let add, let decimals):
            let plain = "(double)\(raw) * \(cDouble(scale)) + \(cDouble(add))"
            c.line("in->\(v.name) = \(decimals.map { "\(prefix)_round(\(plain), \($0))" } ?? plain);")
        }
    }

    /// `*_from_values`: the raw members from the values, nearest raw; E_VALUE when out of range.
    func writeFromValues(_ c: inout CWriter) {
        let p = prefix
        c.line("/* The raw members from the values (engineering units): each the nearest raw integer. */")
        c.line("static inline int \(p)_from_values(\(p)_t *in) {")
        c.depth += 1
        func raw(_ v: ValueSpec, _ type: String, bits: Int) {
            guard v.conversion != .unscaled else { return }
            let expression: String
            switch v.conversion {
            case .identity(let add): expression = "in->\(v.name) - \(add)"
            case .reciprocal(let n, let addN): expression = "(int64_t)llround(in->\(v.name) * \(n).0) - \(addN)"
            case .linear(let scale, let add, _): expression = "(int64_t)llround((in->\(v.name) - \(cDouble(add))) / \(cDouble(scale)))"
            }
            let signed = type.hasPrefix("int")
            let low = signed ? "-(int64_t)(((uint64_t)1 << \(bits - 1)))" : "0"
            let high = signed ? "(int64_t)(((uint64_t)1 << \(bits - 1)) - 1)" : bits >= 63 ? "INT64_MAX" : "(int64_t)(((uint64_t)1 << \(bits)) - 1)"
            c.line("{")
            if v.nullWhen != nil { c.line("    if (in->\(v.name)_null) { in->\(v.name)_raw = 0; } else {") }
            c.line("    int64_t r = \(expression);")
            c.line("    if (r < \(low) || r > \(high)) return \(upper)_E_VALUE;")
            c.line("    in->\(v.name)_raw = (\(type))r;")
            if v.nullWhen != nil { c.line("    }") }
            c.line("}")
        }
        func visit(_ nodes: [Node]) {
            for node in nodes {
                // Fields the payload does not carry keep their raw members as they are.
                if node.isOptional {
                    c.line("if (in->\(CExport.presentName(node))) {")
                    c.depth += 1
                }
                defer {
                    if node.isOptional {
                        c.depth -= 1
                        c.line("}")
                    }
                }
                switch node {
                case .scalar(let s) where s.count == nil:
                    switch s.type {
                    case .integer(let size, let signed): raw(s.value, CExport.intType(size, signed), bits: size * 8)
                    case .ieee754(let size):
                        let d = unapply(s.value.conversion, "in->\(s.value.name)")
                        c.line("{")
                        if size == 4 {
                            c.line("    float f = in->\(s.value.name)_null ? (float)(0.0 / 0.0) : (float)\(d); uint32_t w; memcpy(&w, &f, 4); in->\(s.value.name)_raw = w;")
                        } else {
                            c.line("    double f = in->\(s.value.name)_null ? (0.0 / 0.0) : \(d); uint64_t w; memcpy(&w, &f, 8); in->\(s.value.name)_raw = w;")
                        }
                        c.line("}")
                    case .medfloat(let size):
                        let wide = size == 4
                        let d = unapply(s.value.conversion, "in->\(s.value.name)")
                        c.line("{")
                        c.depth += 1
                        c.line("double v = \(d);")
                        c.line("if (in->\(s.value.name)_null || v != v) { in->\(s.value.name)_raw = \(wide ? "0x007FFFFFu" : "0x07FFu"); }")
                        c.line("else if (v == HUGE_VAL) { in->\(s.value.name)_raw = \(wide ? "0x007FFFFEu" : "0x07FEu"); }")
                        c.line("else if (v == -HUGE_VAL) { in->\(s.value.name)_raw = \(wide ? "0x00800002u" : "0x0802u"); }")
                        c.line("else {")
                        c.line("    /* Exponent 0 first, then finer decimals, then coarser, as Bluetape encodes. */")
                        c.line("    static const int order[] = { \(medfloatOrder(wide: wide)) };")
                        c.line("    int found = 0;")
                        c.line("    for (size_t i = 0; i < sizeof order / sizeof order[0] && !found; i++) {")
                        c.line("        int e = order[i];")
                        c.line("        double power = \(prefix)_medfloat(1, e < 0 ? -e : e);")
                        c.line("        double scaled = e < 0 ? v * power : v / power;")
                        c.line("        if (fabs(scaled) > \(wide ? "8388606.0" : "2046.0")) continue;")
                        c.line("        int64_t m = (int64_t)llround(scaled);")
                        c.line("        if (m > \(wide ? 8_388_605 : 2045) || m < -\(wide ? 8_388_605 : 2045) || \(prefix)_medfloat(m, e) != v) continue;")
                        if wide {
                            c.line("        in->\(s.value.name)_raw = (uint32_t)((uint32_t)(uint8_t)(int8_t)e << 24 | ((uint32_t)m & 0xFFFFFFu));")
                        } else {
                            c.line("        in->\(s.value.name)_raw = (uint16_t)(((unsigned)(uint8_t)(int8_t)e & 0x0Fu) << 12 | ((unsigned)m & 0x0FFFu));")
                        }
                        c.line("        found = 1;")
                        c.line("    }")
                        c.line("    if (!found) return \(upper)_E_VALUE;")
                        c.line("}")
                        c.depth -= 1
                        c.line("}")
                    }
                case .bits(let b):
                    if let container = b.container { raw(container, CExport.intType(b.type.size, false), bits: b.type.size * 8) }
                    for part in b.parts where !part.isBool {
                        raw(part.value, CExport.intType((part.width + 7) / 8, false), bits: part.width)
                    }
                case .switchOn(let s):
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                default: break
                }
            }
        }
        visit(layout.nodes)
        c.line("(void)in;")
        c.line("return \(upper)_OK;")
        c.depth -= 1
        c.line("}")
        c.line("")
    }

    private func medfloatOrder(wide: Bool) -> String {
        let exponents = wide ? -128...127 : -8...7
        let order = Array((exponents.lowerBound...0).reversed()) + Array(1...exponents.upperBound)
        return order.map(String.init).joined(separator: ", ")
    }

    private func unapply(_ conversion: Conversion, _ d: String) -> String {
        switch conversion {
        case .identity(let add): return add == 0 ? d : "(\(d) - \(add).0)"
        case .reciprocal(let n, let addN): return "(\(d) * \(n).0 - \(addN).0)"
        case .linear(let scale, let add, _): return "((\(d) - \(cDouble(add))) / \(cDouble(scale)))"
        }
    }

    // MARK: - Encode

    func writeEncode(_ c: inout CWriter) {
        let p = prefix
        c.line("/* Encodes the raw members: the number of bytes written, or a negative error. */")
        c.line("static inline int \(p)_encode(const \(p)_t *in, uint8_t *buf, size_t len) {")
        c.depth += 1
        c.line("size_t pos = 0;")
        encodeNodes(layout.nodes, &c)
        if hasOptional {
            c.depth -= 1
            c.line("done:")
            c.depth += 1
        }
        if let rule = layout.match.length ?? layout.program.lengthRule {
            c.line("if (pos < \(rule.lowerBound)u || pos > \(rule.upperBound)u) return \(upper)_E_LENGTH;")
        }
        c.line("return (int)pos;")
        c.depth -= 1
        c.line("}")
        c.line("")
    }

    private func room(_ n: String, _ c: inout CWriter) {
        c.line("if (len - pos < (size_t)(\(n))) return \(upper)_E_SHORT;")
    }

    /// The raw integer of a value member, as uint64_t.
    private func rawExpression(_ v: ValueSpec, isBool: Bool) -> String {
        if let constant = v.constant { return "(uint64_t)\(constant)\(constant < 0 ? "" : "u")" }
        if isBool { return "(uint64_t)(\(v.inverted ? "!" : "")in->\(v.name) ? 1u : 0u)" }
        let member = v.conversion == .unscaled ? "in->\(v.name)" : "in->\(v.name)_raw"
        return "(uint64_t)\(member)"
    }

    private func encodeNodes(_ nodes: [Node], _ c: inout CWriter) {
        let p = prefix
        for node in nodes {
            if node.isOptional { c.line("if (!in->\(CExport.presentName(node))) goto done;") }
            switch node {
            case .scalar(let s):
                let size = s.type.size
                let le = s.endian == .little ? 1 : 0
                if let count = s.count {
                    let cap = CExport.capacity(count, elementSize: size, layout)
                    c.line("{")
                    c.depth += 1
                    c.line("size_t count = in->\(s.value.name)_count;")
                    c.line("if (count > \(cap)u) return \(upper)_E_VALUE;")
                    switch count {
                    case .fixed(let n): c.line("if (count != \(n)u) return \(upper)_E_VALUE;")
                    case .field(let f): c.line("if ((uint64_t)in->\(f) != (uint64_t)count) return \(upper)_E_VALUE;")
                    case .rest: break
                    }
                    room("count * \(size)u", &c)
                    c.line("for (size_t i = 0; i < count; i++, pos += \(size)u) \(p)_put(buf + pos, \(size)u, \(le), (uint64_t)in->\(s.value.name)[i]);")
                    c.depth -= 1
                    c.line("}")
                    continue
                }
                room("\(size)u", &c)
                switch s.type {
                case .integer(let size, let signed):
                    let x = signed && s.value.constant == nil ? "(uint64_t)(int64_t)\(s.value.conversion == .unscaled ? "in->\(s.value.name)" : "in->\(s.value.name)_raw")" : rawExpression(s.value, isBool: false)
                    c.line("\(p)_put(buf + pos, \(size)u, \(le), \(x));")
                default:
                    c.line("\(p)_put(buf + pos, \(size)u, \(le), (uint64_t)in->\(s.value.name)_raw);")
                }
                c.line("pos += \(size)u;")
            case .bits(let b):
                let size = b.type.size
                let le = b.endian == .little ? 1 : 0
                room("\(size)u", &c)
                c.line("memset(buf + pos, 0, \(size)u);")
                if let container = b.container {
                    c.line("\(p)_put(buf + pos, \(size)u, \(le), \(rawExpression(container, isBool: false)));")
                }
                for part in b.parts {
                    let x = rawExpression(part.value, isBool: part.isBool)
                    if part.width < 64 {
                        c.line("if (\(x) > \(UInt64(1) << UInt64(part.width) - 1)u) return \(upper)_E_VALUE;")
                    }
                    c.line("\(p)_set_bits(buf + pos, \(size)u, \(le), \(part.shift)u, \(part.width)u, \(x));")
                }
                c.line("pos += \(size)u;")
            case .data(let d):
                let cap = CExport.capacity(d.length, elementSize: 1, layout)
                c.line("{")
                c.depth += 1
                c.line("size_t n = in->\(d.name)_len;")
                c.line("if (n > \(cap)u) return \(upper)_E_VALUE;")
                switch d.length {
                case .fixed(let n):
                    if d.encoding == .hex { c.line("if (n != \(n)u) return \(upper)_E_VALUE;") }
                    room("\(n)u", &c)
                    c.line("memset(buf + pos, 0, \(n)u);")
                    c.line("memcpy(buf + pos, in->\(d.name), n);")
                    c.line("pos += \(n)u;")
                case .rest:
                    room("n", &c)
                    c.line("memcpy(buf + pos, in->\(d.name), n);")
                    c.line("pos += n;")
                case .field(let f):
                    c.line("if ((uint64_t)in->\(f) != (uint64_t)n) return \(upper)_E_VALUE;")
                    room("n", &c)
                    c.line("memcpy(buf + pos, in->\(d.name), n);")
                    c.line("pos += n;")
                }
                c.depth -= 1
                c.line("}")
            case .pad(let n):
                room("\(n)u", &c)
                c.line("memset(buf + pos, 0, \(n)u);")
                c.line("pos += \(n)u;")
            case .computed:
                break
            case .switchOn(let s):
                var first = true
                for arm in s.cases {
                    c.line("\(first ? "" : "} else ")if ((int64_t)in->\(s.field) == \(arm.value)) {")
                    first = false
                    c.depth += 1
                    encodeNodes(arm.nodes, &c)
                    c.depth -= 1
                }
                c.line(first ? "{" : "} else {")
                c.depth += 1
                if let d = s.defaultNodes { encodeNodes(d, &c) } else { c.line("return \(upper)_E_VALUE;") }
                c.depth -= 1
                c.line("}")
            }
        }
    }
}
