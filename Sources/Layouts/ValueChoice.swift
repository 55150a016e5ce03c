import ByteReading
import JSON
import PayloadDecoders

// How the vector and random-value generators choose values: slots, raw bounds, and a walk
// over the tree that fills in computed fields as it goes.

/// One value the generator must choose.
struct Slot {
    enum Kind {
        case integer(ScalarType)
        case bit(width: Int, isBool: Bool)
        case float(ScalarType)
        /// Bytes or text; `length` when fixed or set by an earlier field.
        case data(TextEncoding, length: Int?)
        /// An array of `element`; `count` when fixed or set by an earlier field.
        case array(ScalarType, count: Int?)
    }

    var spec: ValueSpec
    var kind: Kind
    /// Case values of the switches this field drives, and whether they have a default.
    var cases: [Int64]?
    var hasDefault = false
    /// An earlier field giving the length or count of a later one.
    var isExtentSource = false
}

extension ValueSpec {
    /// Raw bounds from the type, narrowed by `min` and `max`; nil when no raw value lies within them.
    func rawBounds(_ kind: Slot.Kind) -> (low: Int128, high: Int128)? {
        let typeLow: Int128
        let typeHigh: Int128
        switch kind {
        case .integer(let type), .array(let type, _):
            let range = type.rawRange
            (typeLow, typeHigh) = (Int128(range.min), Int128(range.max))
        case .bit(let width, _):
            (typeLow, typeHigh) = (0, (Int128(1) << Int128(width)) - 1)
        default:
            return (0, 0)
        }
        func number(_ raw: Int128) -> Double {
            if let small = Int64(exactly: raw) { return conversion.number(small) }
            return Double(raw)
        }
        func start(_ target: Double) -> Int128 {
            let estimate =
                conversion.raw(for: target, nearest: true).map { Int128($0) } ?? (target < 0 ? typeLow : typeHigh)
            return max(typeLow, min(typeHigh, estimate))
        }
        var low = typeLow
        var high = typeHigh
        if let minimum {
            var r = start(minimum)
            while r > typeLow, number(r - 1) >= minimum { r -= 1 }
            while r < typeHigh, number(r) < minimum { r += 1 }
            guard number(r) >= minimum else { return nil }
            low = r
        }
        if let maximum {
            var r = start(maximum)
            while r < typeHigh, number(r + 1) <= maximum { r += 1 }
            while r > typeLow, number(r) > maximum { r -= 1 }
            guard number(r) <= maximum else { return nil }
            high = r
        }
        return low <= high ? (low, high) : nil
    }

    /// The raw bounds, or the type's when `min` and `max` leave nothing (the linter reports that).
    func usableRawBounds(_ kind: Slot.Kind) -> (low: Int128, high: Int128) {
        if let bounds = rawBounds(kind) { return bounds }
        var open = self
        open.minimum = nil
        open.maximum = nil
        return open.rawBounds(kind) ?? (0, 0)
    }

    func value(raw: Int128) -> FieldValue {
        if let small = Int64(exactly: raw) {
            if style != .number { return style.value(small) }
            if label == nil, let name = enumCases.first(where: { $0.value == small })?.name { return .string(name) }
            return conversion.value(small)
        }
        return conversion.value(unsigned: UInt64(raw))
    }

    /// The raw value nearest to zero's (the value 0 where it is allowed).
    func rawNearZero(_ kind: Slot.Kind) -> Int128 {
        let (low, high) = usableRawBounds(kind)
        let zero = conversion.raw(for: 0, nearest: true).map { Int128($0) } ?? 0
        return max(low, min(high, zero))
    }

    func floatBounds(_ type: ScalarType) -> (low: Double, high: Double) {
        var (low, high): (Double, Double)
        switch type {
        case .ieee754(let size):
            (low, high) =
                size == 4
                ? (-Double(Float.greatestFiniteMagnitude), Double(Float.greatestFiniteMagnitude))
                : (-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude)
        case .medfloat(let size):
            let (mantissa, exponents) = MedicalFloat.limits(wide: size == 4)
            (low, high) = (decimalValue(-mantissa, exponents.upperBound), decimalValue(mantissa, exponents.upperBound))
        case .integer:
            (low, high) = (0, 0)
        }
        if !conversion.isIdentity {
            (low, high) = (conversion.apply(.double(low)).number ?? low, conversion.apply(.double(high)).number ?? high)
        }
        if let minimum { low = Swift.max(low, minimum) }
        if let maximum { high = Swift.min(high, maximum) }
        return low <= high ? (low, high) : (high, low)
    }
}

/// Walks the tree choosing a value for every slot, and computes the computed fields, giving the
/// values of one payload in output order.
struct ValueWalker {
    var fields = Fields()
    var numbers: [String: Double] = [:]
    var raws: [String: Int64] = [:]
    let switchCases: [String: (cases: [Int64], hasDefault: Bool)]
    let extentSources: Set<String>

    init(nodes: [Node]) {
        var cases: [String: (cases: [Int64], hasDefault: Bool)] = [:]
        var sources: Set<String> = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .switchOn(let s):
                    var entry = cases[s.field] ?? ([], false)
                    entry.cases += s.cases.map(\.value)
                    entry.hasDefault = entry.hasDefault || s.defaultNodes != nil
                    cases[s.field] = entry
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                case .scalar(let s): if case .field(let n)? = s.count { sources.insert(n) }
                case .data(let d): if case .field(let n) = d.length { sources.insert(n) }
                default: break
                }
            }
        }
        visit(nodes)
        switchCases = cases
        extentSources = sources
    }

    private func slot(_ spec: ValueSpec, _ kind: Slot.Kind) -> Slot {
        let cases = switchCases[spec.name]
        return Slot(
            spec: spec, kind: kind, cases: cases?.cases, hasDefault: cases?.hasDefault ?? false,
            isExtentSource: extentSources.contains(spec.name))
    }

    private mutating func record(_ spec: ValueSpec, _ value: FieldValue, isBool: Bool = false) {
        fields.append(spec.name, value)
        if let label = spec.label, case .int(let raw) = value,
            let name = spec.enumCases.first(where: { $0.value == raw })?.name
        {
            fields.append(label, .string(name))
        }
        switch value {
        case .string(let name):
            if let raw = spec.enumCases.first(where: { $0.name == name })?.value {
                raws[spec.name] = raw
                numbers[spec.name] = Double(raw)
            }
        case .bool(let b):
            raws[spec.name] = b ? 1 : 0
            numbers[spec.name] = b ? 1 : 0
        default:
            if let n = value.number {
                numbers[spec.name] = n
                if spec.enumCases.isEmpty, case .int(let i) = value, case .identity(let add) = spec.conversion {
                    raws[spec.name] = i - add
                } else if case .int(let i) = value {
                    raws[spec.name] = i
                }
            } else {
                numbers[spec.name] = .nan
            }
        }
    }

    /// The path of an optional node where the payload ends (vectors of older, shorter firmware).
    var stopAt: String?
    var stopped = false

    mutating func walk(_ nodes: [Node], _ choose: (Slot) -> FieldValue) {
        for node in nodes {
            if stopped { return }
            if node.isOptional, node.path == stopAt {
                stopped = true
                return
            }
            switch node {
            case .scalar(let s):
                switch s.count {
                case nil:
                    record(s.value, choose(slot(s.value, s.type.isInteger ? .integer(s.type) : .float(s.type))))
                case .fixed(let n)?:
                    fields.append(s.value.name, choose(slot(s.value, .array(s.type, count: n))))
                case .rest?:
                    fields.append(s.value.name, choose(slot(s.value, .array(s.type, count: nil))))
                case .field(let source)?:
                    fields.append(s.value.name, choose(slot(s.value, .array(s.type, count: Int(raws[source] ?? 0)))))
                }
            case .bits(let b):
                var word: UInt64 = 0
                var partValues: [(BitPart, FieldValue)] = []
                for part in b.parts {
                    let value = choose(slot(part.value, .bit(width: part.width, isBool: part.isBool)))
                    partValues.append((part, value))
                    let raw: Int64
                    switch value {
                    case _ where part.value.style.raw(value) != nil: raw = part.value.style.raw(value)!
                    case .bool(let v): raw = v != part.value.inverted ? 1 : 0
                    case .string(let name): raw = part.value.enumCases.first { $0.name == name }?.value ?? 0
                    default: raw = part.value.conversion.raw(for: value.number ?? 0) ?? 0
                    }
                    word |= (UInt64(bitPattern: raw) & part.mask) << UInt64(part.shift)
                }
                if let c = b.container {
                    record(c, c.value(raw: Int128(word)))
                }
                for (part, value) in partValues { record(part.value, value, isBool: part.isBool) }
            case .data(let d):
                let length: Int?
                switch d.length {
                case .fixed(let n): length = n
                case .rest: length = nil
                case .field(let source): length = Int(raws[source] ?? 0)
                }
                let spec = ValueSpec(name: d.name, path: d.path, unit: nil, summary: "")
                fields.append(d.name, choose(Slot(spec: spec, kind: .data(d.encoding, length: length))))
            case .pad:
                break
            case .computed(let c):
                let result = c.finish(c.expression.evaluate { numbers[$0] })
                numbers[c.value.name] = result
                fields.append(c.value.name, result.isFinite ? .double(result) : .null)
            case .switchOn(let s):
                let value = raws[s.field] ?? 0
                if let arm = s.cases.first(where: { $0.value == value }) {
                    walk(arm.nodes, choose)
                } else if let d = s.defaultNodes {
                    walk(d, choose)
                }
            }
        }
    }
}

/// Typical values: zero where allowed, the first enum name, the first switch case, short runs.
func baselineValue(_ slot: Slot) -> FieldValue {
    let spec = slot.spec
    switch slot.kind {
    case .integer, .bit:
        if case .bit(_, true) = slot.kind { return .bool(false) }
        if let constant = spec.constant { return spec.value(raw: Int128(constant)) }
        if let cases = slot.cases, let first = cases.first { return spec.value(raw: Int128(first)) }
        if let first = spec.enumCases.first { return spec.value(raw: Int128(first.value)) }
        if slot.isExtentSource {
            let (low, high) = spec.usableRawBounds(slot.kind)
            return spec.value(raw: max(low, min(high, 2)))
        }
        return spec.value(raw: spec.rawNearZero(slot.kind))
    case .float(let type):
        let (low, high) = spec.floatBounds(type)
        return .double(floatValue(max(low, min(high, 0)), type, spec))
    case .data(let encoding, let length):
        return dataValue(encoding, length ?? 2, fill: 0)
    case .array(let type, let count):
        let element = baselineValue(Slot(spec: spec, kind: type.isInteger ? .integer(type) : .float(type)))
        return .list(Array(repeating: element, count: count ?? 2))
    }
}

/// A value of a float type that the type can hold exactly (for medfloats: a decimal it can write).
func floatValue(_ target: Double, _ type: ScalarType, _ spec: ValueSpec) -> Double {
    switch type {
    case .ieee754(4):
        let raw = spec.conversion.unapply(target)
        return spec.conversion.apply(.double(Double(Float(raw)))).number ?? 0
    case .medfloat(let size):
        let raw = spec.conversion.unapply(target)
        let (limit, exponents) = MedicalFloat.limits(wide: size == 4)
        for exponent in exponents {
            let mantissa = (raw / decimalValue(1, exponent)).rounded(.towardZero)
            if mantissa.magnitude <= Double(limit) {
                let value = spec.conversion.apply(.double(decimalValue(Int64(mantissa), exponent))).number ?? 0
                if MedicalFloat.encode(.double(spec.conversion.unapply(value)), wide: size == 4) != nil { return value }
            }
        }
        return 0
    default:
        return target
    }
}

func dataValue(_ encoding: TextEncoding, _ length: Int, fill: UInt8) -> FieldValue {
    switch encoding {
    case .hex: .string(Hex.encode(repeatElement(fill, count: length)))
    case .ascii, .utf8: .string(fill == 0 ? "" : String(repeating: "A", count: length))
    }
}
