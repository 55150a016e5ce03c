import BluetoothPackets
import ByteReading
import PayloadDecoders

// The layout as a tree, after the file has been read and checked. The decoder runs a flat
// instruction list compiled from it (Program.swift); the encoder and the vector generator walk
// the tree, since they are not on any hot path.

/// How a fixed-size value is stored.
enum ScalarType: Sendable, Hashable {
    case integer(size: Int, signed: Bool)
    /// IEEE 754 binary32 or binary64.
    case ieee754(size: Int)
    /// IEEE-11073 SFLOAT (2 bytes) or FLOAT (4 bytes).
    case medfloat(size: Int)

    var size: Int {
        switch self {
        case .integer(let size, _), .ieee754(let size), .medfloat(let size): size
        }
    }

    var isInteger: Bool { if case .integer = self { true } else { false } }

    var name: String {
        switch self {
        case .integer(let size, let signed): (signed ? "i" : "u") + String(size * 8)
        case .ieee754(let size): "f" + String(size * 8)
        case .medfloat(let size): "medfloat" + String(size * 8)
        }
    }

    /// Raw range of an integer of this type.
    var rawRange: (min: Int64, max: UInt64) {
        guard case .integer(let size, let signed) = self else { return (0, 0) }
        if signed {
            let bits = UInt64(size * 8)
            return (
                bits == 64 ? Int64.min : -(Int64(1) << (bits - 1)),
                bits == 64 ? UInt64(Int64.max) : (UInt64(1) << (bits - 1)) - 1
            )
        }
        return (0, size == 8 ? UInt64.max : (UInt64(1) << UInt64(size * 8)) - 1)
    }
}

/// A counter rule: each packet's value is the previous one plus `step`, modulo `modulo`.
struct CounterSpec: Sendable, Hashable {
    var step: Int64
    var modulo: Int64
}

/// A named value with its conversion, unit, names and rules: a scalar, a bit field, a computed
/// field, or the element of an array.
struct ValueSpec: Sendable, Hashable {
    var name: String
    var path: String
    var unit: String?
    var summary: String
    var conversion: Conversion = .unscaled
    /// Named values, in the order written.
    var enumCases: [(value: Int64, name: String)] = []
    var constant: Int64?
    var minimum: Double?
    var maximum: Double?
    var counter: CounterSpec?
    var maxJump: Double?
    /// How the raw integer is written instead of as a number (`"format"`, `"flags"`).
    var style: ValueStyle = .number
    /// With `"label"`: the field stays its number and the enum's name goes to this field.
    var label: String?
    /// A single bit that reads true when it is 0 (`"inverted"`).
    var inverted = false
    /// `"null_when"`: the value reads null when another field (possibly later) has one of these values.
    var nullWhen: NullCondition?

    var enumLookup: [Int64: String] {
        Dictionary(enumCases.map { ($0.value, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    static func == (a: ValueSpec, b: ValueSpec) -> Bool {
        a.name == b.name && a.path == b.path && a.unit == b.unit && a.conversion == b.conversion
            && a.enumCases.map(\.value) == b.enumCases.map(\.value)
            && a.enumCases.map(\.name) == b.enumCases.map(\.name)
            && a.constant == b.constant && a.minimum == b.minimum && a.maximum == b.maximum && a.counter == b.counter
            && a.maxJump == b.maxJump && a.style == b.style && a.label == b.label && a.inverted == b.inverted
            && a.nullWhen == b.nullWhen
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(path)
    }

    /// The rules this value carries, for `Layout.rules` and the rule checker.
    var rules: [LayoutRule] {
        var rules: [LayoutRule] = []
        if let minimum { rules.append(LayoutRule(field: name, kind: .minimum(minimum))) }
        if let maximum { rules.append(LayoutRule(field: name, kind: .maximum(maximum))) }
        if !enumCases.isEmpty, label == nil {
            rules.append(LayoutRule(field: name, kind: .enumValues(enumCases.map(\.name))))
        }
        if let counter {
            rules.append(LayoutRule(field: name, kind: .counter(step: counter.step, modulo: counter.modulo)))
        }
        if let maxJump { rules.append(LayoutRule(field: name, kind: .maxJump(maxJump))) }
        return rules
    }
}

/// How an integer's raw value is written in a reading, when not as a number.
enum ValueStyle: Sendable, Hashable {
    case number
    /// Upper-case hex text, zero-padded to this many digits (a serial number: "1000ABCD").
    case hex(digits: Int)
    /// The list of the names of the bits that are set, lowest first; a set bit without a name
    /// is listed as its number.
    case flags([Int: String])

    /// The reading's value for a raw integer in this style.
    func value(_ raw: Int64) -> FieldValue {
        switch self {
        case .number: return .int(raw)
        case .hex(let digits):
            let text = String(UInt64(bitPattern: raw), radix: 16, uppercase: true)
            return .string(String(repeating: "0", count: max(0, digits - text.count)) + text)
        case .flags(let names):
            var list: [FieldValue] = []
            var bits = UInt64(bitPattern: raw)
            var bit = 0
            while bits != 0 {
                if bits & 1 == 1 { list.append(names[bit].map { .string($0) } ?? .int(Int64(bit))) }
                bits >>= 1
                bit += 1
            }
            return .list(list)
        }
    }

    /// The raw integer for a reading's value in this style, nil when it is not one.
    func raw(_ value: FieldValue) -> Int64? {
        switch (self, value) {
        case (.hex, .string(let text)):
            guard !text.isEmpty, text.count <= 16, let n = UInt64(text, radix: 16) else { return nil }
            return Int64(bitPattern: n)
        case (.flags(let names), .list(let list)):
            var raw: UInt64 = 0
            for element in list {
                switch element {
                case .string(let name):
                    guard let bit = names.first(where: { $0.value == name })?.key else { return nil }
                    raw |= 1 << UInt64(bit)
                case .int(let bit) where (0..<64).contains(bit):
                    raw |= 1 << UInt64(bit)
                default: return nil
                }
            }
            return Int64(bitPattern: raw)
        default: return nil
        }
    }
}

/// `"null_when": {"field": "mode", "equals": ["instant_read"]}`.
struct NullCondition: Sendable, Hashable {
    var field: String
    var values: [FieldValue]
}

/// How many elements an array has, or how long a byte run is.
enum Extent: Sendable, Hashable {
    case fixed(Int)
    /// Up to the end of the payload.
    case rest
    /// The value of an earlier integer field.
    case field(String)
}

struct ScalarNode: Sendable, Hashable {
    var value: ValueSpec
    var type: ScalarType
    var endian: Endianness
    /// Set for arrays.
    var count: Extent?
    /// Present only while the payload has bytes left (`"optional"`).
    var optional = false
}

struct BitPart: Sendable, Hashable {
    var value: ValueSpec
    /// Lowest bit, 0 = least significant bit of the container.
    var shift: Int
    var width: Int
    /// Single bits without names, scale or enum read as true/false.
    var isBool: Bool

    var mask: UInt64 { width == 64 ? .max : (UInt64(1) << UInt64(width)) - 1 }
}

struct BitsNode: Sendable, Hashable {
    /// The whole byte or word, output too when it has a name.
    var container: ValueSpec?
    var path: String
    var type: ScalarType
    var endian: Endianness
    var parts: [BitPart]
    var optional = false
}

enum TextEncoding: Sendable, Hashable {
    /// Lower-case hex, as Bluetape writes bytes everywhere.
    case hex
    case ascii
    case utf8
}

struct DataNode: Sendable, Hashable {
    var name: String
    var path: String
    var summary: String
    var encoding: TextEncoding
    var length: Extent
    var optional = false
}

struct SwitchCase: Sendable, Hashable {
    var value: Int64
    /// The key as written ("1", "0x02", "reading").
    var label: String
    var path: String
    var nodes: [Node]
}

struct SwitchNode: Sendable, Hashable {
    var field: String
    var path: String
    var cases: [SwitchCase]
    /// Nil: any other value is malformed (`"default": "reject"`).
    var defaultNodes: [Node]?
    var defaultPath: String
}

struct ComputedNode: Sendable, Hashable {
    var value: ValueSpec
    var expression: Expression
    var text: String
    /// The decimals the inputs carry (DecimalRounding); nil when some input has none.
    var resolution: Int?
    /// The layout's `"decimals"`: the value as the device's app displays it.
    var display: Int?

    /// The formula's result as a reading gives it.
    @inline(__always)
    func finish(_ result: Double) -> Double { Self.finish(result, resolution: resolution, display: display) }

    @inline(__always)
    static func finish(_ result: Double, resolution: Int?, display: Int?) -> Double {
        if let display { return DecimalRounding.displayed(result, resolution: resolution, decimals: display) }
        if let resolution { return DecimalRounding.rounded(result, decimals: resolution) }
        return result
    }
}

indirect enum Node: Sendable, Hashable {
    case scalar(ScalarNode)
    case bits(BitsNode)
    case data(DataNode)
    case pad(Int)
    case switchOn(SwitchNode)
    case computed(ComputedNode)
}

/// What a layout matches, after its parameters are filled in.
struct MatchSpec: Sendable, Hashable {
    var companies: [UInt16] = []
    var serviceData: [BluetoothUUID] = []
    var characteristics: [BluetoothUUID] = []
    /// Operations a characteristic value must come with; empty: any.
    var operations: [ValueOperation] = []
    /// The advertisement must list one of these service UUIDs.
    var serviceUUIDs: [BluetoothUUID] = []
    var namePrefix: String?
    var length: ClosedRange<Int>?
    /// The parameters the company id or the UUID come from (`"$company"`), for exports.
    var companyParameter: String?
    var uuidParameter: String?
    /// The payload starts with one of these (empty: any).
    var prefixes: [[UInt8]] = []

    var keys: [MatchKey] {
        companies.map { .company($0) } + serviceData.map { .serviceData($0) }
            + characteristics.map { .characteristic($0) }
    }
}

extension Node {
    /// `"optional"`: the node is read only while the payload has bytes left.
    var isOptional: Bool {
        switch self {
        case .scalar(let s): s.optional
        case .bits(let b): b.optional
        case .data(let d): d.optional
        default: false
        }
    }

    /// True when decoding may stop at or inside this node: it, or a field in a switch arm, is optional.
    var mayEndEarly: Bool {
        if isOptional { return true }
        guard case .switchOn(let s) = self else { return false }
        return s.cases.contains { $0.nodes.contains(where: \.mayEndEarly) }
            || (s.defaultNodes ?? []).contains(where: \.mayEndEarly)
    }

    var isComputedOrSwitch: Bool {
        switch self {
        case .computed, .switchOn: true
        default: false
        }
    }

    /// The JSON path of the node, for messages and vector names.
    var path: String {
        switch self {
        case .scalar(let s): s.value.path
        case .bits(let b): b.path
        case .data(let d): d.path
        case .switchOn(let s): s.path
        case .computed(let c): c.value.path
        case .pad: ""
        }
    }

    /// Every value this node outputs, in order, with arrays and arms included.
    func forEachValue(_ body: (ValueSpec) -> Void) {
        switch self {
        case .scalar(let s): body(s.value)
        case .bits(let b):
            if let c = b.container { body(c) }
            for p in b.parts { body(p.value) }
        case .computed(let c): body(c.value)
        case .data, .pad: break
        case .switchOn(let s):
            for arm in s.cases { for n in arm.nodes { n.forEachValue(body) } }
            for n in s.defaultNodes ?? [] { n.forEachValue(body) }
        }
    }
}
