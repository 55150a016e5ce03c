import FieldJSON
import ByteReading
import JSON
import PayloadDecoders

extension Layout {
    /// Test payloads for every boundary of every field (min, max, zero where valid), every enum
    /// name, every switch case and the default, each with its bytes and its decoded reading.
    /// Each vector changes one thing from a baseline of typical values (zero where allowed, the
    /// first enum name, the first case), which comes first unless another vector equals it.
    public func vectors() -> [LayoutVector] {
        var result: [LayoutVector] = []
        var seen: Set<String> = []

        func make(_ name: String, _ overrides: [String: FieldValue], stopAt: String? = nil) {
            guard seen.insert(name).inserted else { return }
            var walker = ValueWalker(nodes: nodes)
            walker.stopAt = stopAt
            walker.walk(nodes) { slot in overrides[slot.spec.path] ?? baselineValue(slot) }
            var input = walker.fields
            program.applyNullRules(&input)
            let bytes: [UInt8]
            do {
                bytes = try encode(input)
            } catch {
                return
            }
            result.append(LayoutVector(name: name, input: input, bytes: bytes, reading: decode(bytes: bytes)))
        }

        make("baseline", [:])
        visitVariations(nodes, requirements: [:]) { make($0, $1) }
        // Payloads that end before each optional field, as older firmware sends them.
        for (path, name) in optionalStarts(nodes) { make("ends before \(name) (optional)", [:], stopAt: path) }
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

    /// The path and first field name of every optional node, in order (switch arms included).
    private func optionalStarts(_ nodes: [Node]) -> [(String, String)] {
        var out: [(String, String)] = []
        for node in nodes {
            if node.isOptional {
                var first = ""
                node.forEachValue { if first.isEmpty { first = $0.name } }
                if case .data(let d) = node { first = d.name }
                out.append((node.path, first))
            }
            if case .switchOn(let s) = node {
                for arm in s.cases { out += optionalStarts(arm.nodes) }
                out += optionalStarts(s.defaultNodes ?? [])
            }
        }
        return out
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
                return spec.enumCases.map { ("\($0.name) (\($0.value))", spec.value(raw: Int128($0.value))) }
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
}
