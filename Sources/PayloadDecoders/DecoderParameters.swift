import BluetoothPackets
import ByteReading

// Settings a decoder declares for itself: a company id that varies by firmware, an unpublished
// characteristic UUID, a device's encryption key. One mechanism sets them all, built-in decoders
// and layouts alike: `--param NAME=VALUE` on the command line (or `ID.NAME=VALUE` for one decoder),
// `"param.NAME": "VALUE"` in golden.json.

/// One setting a decoder takes, with its default and the value in use.
public struct DecoderParameter: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A 16- or 128-bit UUID (`2a6e`, `7a5b0002-3c9d-4e2f-8a1b-2c3d4e5f6071`).
        case uuid
        /// A whole number, decimal or `0x` hexadecimal.
        case integer
        case string
        /// Bytes as hex digits.
        case hex
        /// Per-device keys, `AA:BB:CC:DD:EE:FF=<32 hex digits>`; may be given several times.
        case keys
    }

    public var name: String
    public var kind: Kind
    public var defaultValue: String?
    /// The value in use: the one given, else the default.
    public var value: String?
    public var summary: String

    public init(name: String, kind: Kind, defaultValue: String? = nil, value: String? = nil, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.value = value ?? defaultValue
        self.summary = summary
    }
}

extension DecoderParameter.Kind {
    /// What is wrong with `text` as a value of this kind; nil when it is one.
    public func problem(with text: String) -> String? {
        switch self {
        case .uuid: return BluetoothUUID(text) == nil ? "not a UUID (2a6e, or 8-4-4-4-12 hex digits)" : nil
        case .integer: return DecoderParameterValues.integer(text) == nil ? "not a whole number (12, 0xABCD)" : nil
        case .string: return nil
        case .hex: return Hex.decode(text) == nil ? "not hex digits" : nil
        case .keys: return DecoderParameterValues.key(text) == nil ? "not ADDRESS=KEY (AA:BB:CC:DD:EE:FF=32 hex digits)" : nil
        }
    }
}

/// The values given for a decoder's parameters, checked against their kinds, by name.
public struct DecoderParameterValues: Sendable, Hashable {
    /// Every value given for each name, in the order given (`keys` parameters keep them all).
    public var given: [String: [String]]

    public init(_ given: [String: [String]] = [:]) { self.given = given }

    public var isEmpty: Bool { given.isEmpty }

    /// The last value given for `name`.
    public func text(_ name: String) -> String? { given[name]?.last }

    public func integer(_ name: String) -> Int64? { text(name).flatMap(Self.integer) }

    public func uuid(_ name: String) -> BluetoothUUID? { text(name).flatMap(BluetoothUUID.init) }

    /// Every `ADDRESS=KEY` given for `name`; a later key for the same device wins.
    public func keys(_ name: String) -> [BluetoothAddress: [UInt8]] {
        var keys: [BluetoothAddress: [UInt8]] = [:]
        for text in given[name] ?? [] {
            if let (address, key) = Self.key(text) { keys[address] = key }
        }
        return keys
    }

    static func integer(_ text: String) -> Int64? {
        let lower = text.lowercased()
        if lower.hasPrefix("0x") { return Int64(lower.dropFirst(2), radix: 16) }
        if lower.hasPrefix("-0x") { return Int64(lower.dropFirst(3), radix: 16).map { -$0 } }
        return Int64(text)
    }

    static func key(_ text: String) -> (BluetoothAddress, [UInt8])? {
        guard let equals = text.firstIndex(of: "="), let address = BluetoothAddress(String(text[..<equals])),
            let key = Hex.decode(String(text[text.index(after: equals)...])), key.count == 16
        else { return nil }
        return (address, key)
    }
}

/// A parameter value a decoder cannot use, said so that the user can fix it.
public struct DecoderParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    public var decoder: String
    public var parameter: String
    public var reason: String

    public init(decoder: String, parameter: String, reason: String) {
        self.decoder = decoder
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String { "\(decoder): parameter '\(parameter)': \(reason)" }
}
