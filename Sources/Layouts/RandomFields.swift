import ByteReading
import JSON
import PayloadDecoders

extension Layout {
    /// Valid values for one payload, chosen with `generator` (for round-trip and fuzz tests).
    /// Every numeric value is one the field can hold exactly, and stays within min and max.
    public func randomFields(using generator: inout some RandomNumberGenerator) -> Fields {
        // A draw the match rules out (a switch's default value where a prefix fixes the byte) is
        // drawn again, a few times.
        var fields = Fields()
        for _ in 0..<16 {
            fields = randomDraw(using: &generator)
            if (try? encode(fields)) != nil { break }
        }
        return fields
    }

    private func randomDraw(using generator: inout some RandomNumberGenerator) -> Fields {
        var walker = ValueWalker(nodes: nodes)
        // One payload in four ends before an optional field, as older firmware sends it.
        let optional = optionalPaths(nodes)
        if !optional.isEmpty, Int.random(in: 0..<4, using: &generator) == 0 {
            walker.stopAt = optional.randomElement(using: &generator)
        }
        walker.walk(nodes) { slot in randomValue(slot, &generator) }
        var fields = walker.fields
        program.applyNullRules(&fields)
        return fields
    }

    private func optionalPaths(_ nodes: [Node]) -> [String] {
        nodes.flatMap { node -> [String] in
            var paths = node.isOptional ? [node.path] : []
            if case .switchOn(let s) = node {
                paths += s.cases.flatMap { optionalPaths($0.nodes) } + optionalPaths(s.defaultNodes ?? [])
            }
            return paths
        }
    }

    private func randomValue(_ slot: Slot, _ g: inout some RandomNumberGenerator) -> FieldValue {
        let spec = slot.spec
        switch slot.kind {
        case .bit(_, true):
            return .bool(Bool.random(using: &g))
        case .integer, .bit:
            if let constant = spec.constant { return spec.value(raw: Int128(constant)) }
            if let cases = slot.cases, !cases.isEmpty {
                if slot.hasDefault, Int.random(in: 0..<4, using: &g) == 0 {
                    let (low, high) = spec.usableRawBounds(slot.kind)
                    let r = Int128.random(in: low...high, using: &g)
                    return spec.value(raw: r)
                }
                return spec.value(raw: Int128(cases.randomElement(using: &g)!))
            }
            if !spec.enumCases.isEmpty { return spec.value(raw: Int128(spec.enumCases.randomElement(using: &g)!.value)) }
            let (low, high) = spec.usableRawBounds(slot.kind)
            if slot.isExtentSource {
                return spec.value(raw: Int128.random(in: low...min(high, max(low, 6)), using: &g))
            }
            // Edges are where bugs live: one draw in four is a boundary.
            switch Int.random(in: 0..<8, using: &g) {
            case 0: return spec.value(raw: low)
            case 1: return spec.value(raw: high)
            default: return spec.value(raw: Int128.random(in: low...high, using: &g))
            }
        case .float(let type):
            let (low, high) = spec.floatBounds(type)
            switch type {
            case .ieee754(let size):
                if spec.conversion.isIdentity, spec.minimum == nil, spec.maximum == nil {
                    if size == 4 {
                        var f: Float
                        repeat { f = Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &g)) } while !f.isFinite
                        return .double(Double(f))
                    }
                    var d: Double
                    repeat { d = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &g)) } while !d.isFinite
                    return .double(d)
                }
                let value = Double.random(in: low...high, using: &g)
                return .double(floatValue(value, type, spec))
            case .medfloat(let size):
                let (limit, exponents) = MedicalFloat.limits(wide: size == 4)
                for _ in 0..<32 {
                    let mantissa = Int64.random(in: -limit...limit, using: &g)
                    let exponent = Int.random(
                        in: max(exponents.lowerBound, -12)...min(exponents.upperBound, 12), using: &g)
                    let value = spec.conversion.apply(.double(decimalValue(mantissa, exponent))).number ?? 0
                    if value >= low, value <= high,
                        MedicalFloat.encode(.double(spec.conversion.unapply(value)), wide: size == 4) != nil
                    {
                        return .double(value)
                    }
                }
                return .double(floatValue(max(low, min(high, 0)), type, spec))
            case .integer:
                return .null
            }
        case .data(let encoding, let length):
            let n = length ?? Int.random(in: 0...8, using: &g)
            switch encoding {
            case .hex:
                return .string(Hex.encode((0..<n).map { _ in UInt8.random(in: 0...255, using: &g) }))
            case .ascii, .utf8:
                let count = length == nil ? n : Int.random(in: 0...n, using: &g)
                let letters = Array("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".utf8)
                return .string(
                    String(decoding: (0..<count).map { _ in letters.randomElement(using: &g)! }, as: UTF8.self))
            }
        case .array(let type, let count):
            let n = count ?? Int.random(in: 0...5, using: &g)
            let element = Slot(spec: spec, kind: type.isInteger ? .integer(type) : .float(type))
            return .list((0..<n).map { _ in randomValue(element, &g) })
        }
    }
}

