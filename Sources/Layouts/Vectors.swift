import FieldJSON
import ByteReading
import JSON
import PayloadDecoders

/// One generated test payload: the values it was built from, its bytes, and what decoding them gives.
public struct LayoutVector: Sendable, Hashable {
    /// What the vector exercises: "temperature_c = -327.68 (min)", "kind = 2 (case)".
    public var name: String
    /// The values given to the encoder.
    public var input: Fields
    public var bytes: [UInt8]
    /// Decoding `bytes` with the layout; equal to `.fields(input)` for a sound layout.
    public var reading: DecodeOutcome

    /// `{"name":…,"hex":…,"expect":{…}}` (or `"error"` instead of `"expect"`), the line format of
    /// Tests/Fixtures/payloads/*.vectors.jsonl.
    public var jsonLine: String {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("name")
        w.string(name)
        w.key("hex")
        w.hex(bytes)
        switch reading {
        case .fields(let fields):
            w.key("expect")
            FieldJSON.write(fields, to: &w)
        case .error(let error):
            w.key("error")
            FieldJSON.write(error, to: &w)
        }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// What `bluetape layout decode` prints for one payload.
public enum LayoutJSON {
    /// A decode outcome as one JSON object: the fields, or `{"error": {…}}`.
    public static func text(_ outcome: DecodeOutcome) -> String {
        var w = JSONWriter(capacity: 256)
        switch outcome {
        case .fields(let fields): FieldJSON.write(fields, to: &w)
        case .error(let error):
            w.beginObject()
            w.key("error")
            FieldJSON.write(error, to: &w)
            w.endObject()
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

// MARK: - Choosing values

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
            if let name = enumCases.first(where: { $0.value == small })?.name { return .string(name) }
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

    mutating func walk(_ nodes: [Node], _ choose: (Slot) -> FieldValue) {
        for node in nodes {
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
                    case .bool(let v): raw = v ? 1 : 0
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
                let result = c.expression.evaluate { numbers[$0] }
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
        if let first = spec.enumCases.first { return .string(first.name) }
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

extension Layout {
    /// Test payloads for every boundary of every field (min, max, zero where valid), every enum
    /// name, every switch case and the default, each with its bytes and its decoded reading.
    /// Each vector changes one thing from a baseline of typical values (zero where allowed, the
    /// first enum name, the first case), which comes first unless another vector equals it.
    public func vectors() -> [LayoutVector] {
        var result: [LayoutVector] = []
        var seen: Set<String> = []

        func make(_ name: String, _ overrides: [String: FieldValue]) {
            guard seen.insert(name).inserted else { return }
            var walker = ValueWalker(nodes: nodes)
            walker.walk(nodes) { slot in overrides[slot.spec.path] ?? baselineValue(slot) }
            let input = walker.fields
            let bytes: [UInt8]
            do {
                bytes = try encode(input)
            } catch {
                return
            }
            result.append(LayoutVector(name: name, input: input, bytes: bytes, reading: decode(bytes: bytes)))
        }

        make("baseline", [:])
        visitVariations(nodes, requirements: [:], make)
        // The baseline is only worth its line when no boundary vector has the same bytes.
        if let baseline = result.first, result.dropFirst().contains(where: { $0.bytes == baseline.bytes }) {
            result.removeFirst()
        }
        return result
    }

    /// Calls `make` with a name and the values to change from the baseline, for every variation.
    private func visitVariations(
        _ nodes: [Node], requirements: [String: FieldValue], _ make: (String, [String: FieldValue]) -> Void
    ) {
        let walker = ValueWalker(nodes: self.nodes)
        func variations(_ spec: ValueSpec, _ kind: Slot.Kind) {
            let slot = Slot(
                spec: spec, kind: kind, cases: walker.switchCases[spec.name]?.cases,
                hasDefault: walker.switchCases[spec.name]?.hasDefault ?? false,
                isExtentSource: walker.extentSources.contains(spec.name))
            for (label, value) in boundaryValues(slot) {
                var overrides = requirements
                overrides[spec.path] = value
                make("\(spec.name) = \(label)", overrides)
            }
        }
        for node in nodes {
            switch node {
            case .scalar(let s):
                switch s.count {
                case nil: variations(s.value, s.type.isInteger ? .integer(s.type) : .float(s.type))
                case .fixed(let n)?: variations(s.value, .array(s.type, count: n))
                case .rest?: variations(s.value, .array(s.type, count: nil))
                case .field?: break
                }
            case .bits(let b):
                for part in b.parts { variations(part.value, .bit(width: part.width, isBool: part.isBool)) }
            case .data(let d):
                let spec = ValueSpec(name: d.name, path: d.path, unit: nil, summary: "")
                switch d.length {
                case .fixed(let n): variations(spec, .data(d.encoding, length: n))
                case .rest: variations(spec, .data(d.encoding, length: nil))
                case .field: break
                }
            case .pad, .computed:
                break
            case .switchOn(let s):
                guard let discriminator = findValue(s.field) else { continue }
                let flag = isFlag(s.field)
                func value(_ raw: Int64) -> FieldValue {
                    flag ? .bool(raw != 0) : discriminator.value(raw: Int128(raw))
                }
                for arm in s.cases {
                    var armRequirements = requirements
                    armRequirements[discriminator.path] = value(arm.value)
                    make("\(s.field) = \(arm.label) (case)", armRequirements)
                    visitVariations(arm.nodes, requirements: armRequirements, make)
                }
                if let d = s.defaultNodes, let other = unusedValue(discriminator, s) {
                    var armRequirements = requirements
                    armRequirements[discriminator.path] = value(other)
                    make("\(s.field) = \(other) (default)", armRequirements)
                    visitVariations(d, requirements: armRequirements, make)
                }
            }
        }
    }

    /// True when `name` is a single bit read as true/false.
    private func isFlag(_ name: String) -> Bool {
        var found = false
        func visit(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .bits(let b): if b.parts.contains(where: { $0.value.name == name && $0.isBool }) { found = true }
                case .switchOn(let s):
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                default: break
                }
            }
        }
        visit(nodes)
        return found
    }

    private func findValue(_ name: String) -> ValueSpec? {
        var found: ValueSpec?
        for node in nodes where found == nil {
            node.forEachValue { if $0.name == name, found == nil { found = $0 } }
        }
        return found
    }

    /// A raw value of the switch field that no case takes.
    private func unusedValue(_ spec: ValueSpec, _ s: SwitchNode) -> Int64? {
        var kind: Slot.Kind = .integer(.integer(size: 8, signed: true))
        for node in nodes {
            switch node {
            case .scalar(let scalar) where scalar.value.name == spec.name: kind = .integer(scalar.type)
            case .bits(let b):
                if b.container?.name == spec.name { kind = .integer(b.type) }
                if let part = b.parts.first(where: { $0.value.name == spec.name }) {
                    kind = .bit(width: part.width, isBool: false)
                }
            default: break
            }
        }
        let (low, high) = spec.usableRawBounds(kind)
        let taken = Set(s.cases.map(\.value))
        var candidate = max(low, 0)
        while candidate <= high {
            if let small = Int64(exactly: candidate), !taken.contains(small) { return small }
            candidate += 1
            if candidate > max(low, 0) + 4096 { break }
        }
        return nil
    }

    /// Labelled boundary values of one slot.
    private func boundaryValues(_ slot: Slot) -> [(String, FieldValue)] {
        let spec = slot.spec
        if spec.constant != nil || slot.cases != nil { return [] }
        switch slot.kind {
        case .bit(_, true):
            return [("false", .bool(false)), ("true", .bool(true))]
        case .integer, .bit:
            if !spec.enumCases.isEmpty {
                return spec.enumCases.map { ("\($0.name) (\($0.value))", .string($0.name)) }
            }
            let (low, high) = spec.usableRawBounds(slot.kind)
            if slot.isExtentSource {
                return [("0 (empty)", spec.value(raw: max(low, 0))), ("4", spec.value(raw: min(high, max(low, 4))))]
            }
            var out = [("\(spec.value(raw: low).numberText) (min)", spec.value(raw: low))]
            let zero = spec.conversion.raw(for: 0)
            if let zero, Int128(zero) > low, Int128(zero) < high { out.append(("0", spec.value(raw: Int128(zero)))) }
            if high != low { out.append(("\(spec.value(raw: high).numberText) (max)", spec.value(raw: high))) }
            return out
        case .float(let type):
            let (low, high) = spec.floatBounds(type)
            let lowValue = floatValue(low, type, spec)
            let highValue = floatValue(high, type, spec)
            var out: [(String, FieldValue)] = [("\(formatNumber(lowValue)) (min)", .double(lowValue))]
            if low < 0, high > 0 { out.append(("0", .double(floatValue(0, type, spec)))) }
            if highValue != lowValue { out.append(("\(formatNumber(highValue)) (max)", .double(highValue))) }
            return out
        case .data(let encoding, let length):
            if let length {
                return [("\(length) × \(encoding == .hex ? "ff" : "A")", dataValue(encoding, length, fill: 0xFF))]
            }
            return [("empty", dataValue(encoding, 0, fill: 0)), ("8 bytes", dataValue(encoding, 8, fill: 0xFF))]
        case .array(let type, let count):
            let elementKind: Slot.Kind = type.isInteger ? .integer(type) : .float(type)
            let element = Slot(spec: spec, kind: elementKind)
            let bounds = boundaryValues(element)
            if let count {
                return bounds.map { ("[\($0.0)] × \(count)", .list(Array(repeating: $0.1, count: count))) }
            }
            return [("[] (empty)", .list([]))]
                + bounds.map { ("[\($0.0)] × 3", .list(Array(repeating: $0.1, count: 3))) }
        }
    }

    // MARK: - Random values

    /// Valid values for one payload, chosen with `generator` (for round-trip and fuzz tests).
    /// Every numeric value is one the field can hold exactly, and stays within min and max.
    public func randomFields(using generator: inout some RandomNumberGenerator) -> Fields {
        var walker = ValueWalker(nodes: nodes)
        walker.walk(nodes) { slot in randomValue(slot, &generator) }
        return walker.fields
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
            if !spec.enumCases.isEmpty { return .string(spec.enumCases.randomElement(using: &g)!.name) }
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
