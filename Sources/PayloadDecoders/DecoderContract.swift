import BluetoothPackets
import ByteReading

// The decoder contract: a decoder is a pure function from one payload's bytes (with what matched
// them) to named, typed fields, or to an error located in the bytes. No state, no clock, no
// Foundation, so an iOS app can decode live CoreBluetooth values with exactly this code.

/// A decoded value.
public enum FieldValue: Sendable, Hashable {
    case int(Int64)
    case double(Double)
    case string(String)
    case bool(Bool)
    case list([FieldValue])
    /// A value the format marks as absent or unknown (a sentinel such as 0x8000): written as null.
    case null
}

extension FieldValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// The value as a person reads it (`72`, `-40.722`, `true`, `"EnvSensor"`, `[1.0, 0.775]`, `null`),
/// for an app's logs and screens; readings' JSON is written elsewhere, in its own canonical form.
extension FieldValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let text): "\"\(text)\""
        case .bool(let flag): flag ? "true" : "false"
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .null: "null"
        }
    }
}

/// One named value. Names are snake_case and end in their unit where they have one
/// (`temperature_c`, `humidity_pct`, `pressure_hpa`, `voltage_v`, `current_ma`, `power_mw`).
public struct Field: Sendable, Hashable {
    public var name: String
    public var value: FieldValue
    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// Fields in the order the decoder produced them.
public struct Fields: Sendable, Hashable, ExpressibleByArrayLiteral {
    public var entries: [Field]

    public init(_ entries: [Field] = []) { self.entries = entries }

    /// No fields yet, with room for `capacity` (one allocation where appends would grow it).
    public init(capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }
    public init(arrayLiteral elements: Field...) { entries = elements }

    public mutating func append(_ name: String, _ value: FieldValue) { entries.append(Field(name, value)) }

    public subscript(name: String) -> FieldValue? {
        entries.first { $0.name == name }?.value
    }

    public var names: [String] { entries.map(\.name) }
}

/// What one decode produced: fields, or an error that says which field failed at which byte.
public enum DecodeOutcome: Sendable, Hashable {
    case fields(Fields)
    /// Boxed: an error is rare and 48 bytes long, and the list of outcomes is made for every
    /// payload.
    indirect case error(DecodeError)
}

/// The operation that carried a characteristic value.
public enum ValueOperation: String, Sendable, Hashable {
    /// Handle Value Notification (or one value of a Multiple Handle Value Notification).
    case notify
    /// Handle Value Indication.
    case indicate
    /// Read Response (or a reassembled long read).
    case read
    /// Write Request, Write Command, Signed Write or a reassembled prepared write: client to server.
    case write

    /// True when the value travels from the GATT server to the client.
    public var fromServer: Bool { self != .write }
}

/// Where a payload came from.
public enum PayloadSource: Sendable, Hashable {
    /// Manufacturer-specific advertising data; the bytes start after the company identifier.
    case manufacturerData(company: UInt16)
    /// Service data in advertising; the bytes start after the service UUID.
    case serviceData(uuid: BluetoothUUID)
    /// A characteristic value carried by an ATT operation.
    case attribute(uuid: BluetoothUUID, operation: ValueOperation)
}

/// What else is known about the device that sent a payload. Built-in decoders rarely need it;
/// declarative layouts match on it (local-name prefix, advertised service UUIDs).
public struct PayloadContext: Sendable, Hashable {
    public var address: BluetoothAddress?
    /// The advertised local name (complete or shortened), when the same advertisement carried one.
    public var localName: String?
    /// Service UUIDs listed in the same advertisement (AD types 0x02–0x07).
    public var serviceUUIDs: [BluetoothUUID]
    public init(address: BluetoothAddress? = nil, localName: String? = nil, serviceUUIDs: [BluetoothUUID] = []) {
        self.address = address
        self.localName = localName
        self.serviceUUIDs = serviceUUIDs
    }
}

/// The bytes a decoder is given, with where they came from.
public struct Payload: Sendable, Hashable {
    public var source: PayloadSource
    public var bytes: [UInt8]
    public var context: PayloadContext
    public init(_ source: PayloadSource, _ bytes: [UInt8], context: PayloadContext = PayloadContext()) {
        self.source = source
        self.bytes = bytes
        self.context = context
    }
}

/// What a decoder claims. The registry looks decoders up by these keys.
public enum MatchKey: Sendable, Hashable, CustomStringConvertible {
    case company(UInt16)
    case serviceData(BluetoothUUID)
    case characteristic(BluetoothUUID)

    public var description: String {
        switch self {
        case .company(let id): "manufacturer data, company 0x\(hex4(id))"
        case .serviceData(let uuid): "service data \(uuid)"
        case .characteristic(let uuid): "characteristic \(uuid)"
        }
    }
}

func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
}

/// One field a decoder can produce, for `bluetape decoders`.
public struct FieldDescription: Sendable, Hashable {
    public var name: String
    /// Unit symbol ("°C", "%", "hPa"); nil for unitless values.
    public var unit: String?
    public var summary: String
    public init(_ name: String, unit: String? = nil, _ summary: String) {
        self.name = name
        self.unit = unit
        self.summary = summary
    }
}

/// A payload decoder for one documented payload.
///
/// Everything a decoder knows about its device lives with it: the settings it takes, which
/// fields make a repeated advertisement the same reading, and any work across payloads. The
/// generic layers (readings, the command line, golden files) only ask.
public protocol PayloadDecoder: Sendable {
    /// Stable id used in readings and `--decoder` ("envsensor", "combustion.advert", "sig.heart_rate").
    var id: String { get }
    /// One line: what it decodes.
    var summary: String { get }
    var matches: [MatchKey] { get }
    var fields: [FieldDescription] { get }
    /// Decodes one payload. Returns no outcome when the payload has the matched key but is not this
    /// decoder's (another sub-type under the same company id), one outcome normally, and several
    /// when one payload carries several messages.
    func decode(_ payload: Payload) -> [DecodeOutcome]
    /// `decode(_:)` for output on its way to JSON: a payload's one outcome with its fields
    /// written into `packer` (after the caller's `beginOutcome`), the same fields in the same
    /// order as `decode(_:)` gives. A decoder without a packing path of its own gives
    /// `.outcomes(decode(payload))`.
    func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome

    /// The settings it takes (`--param NAME=VALUE`), each with its default and the value in use.
    var parameters: [DecoderParameter] { get }
    /// This decoder with `values` applied. They are for parameters it declared, each already
    /// checked against its kind; a value that is still wrong (out of range) throws.
    func configured(with values: DecoderParameterValues) throws(DecoderParameterError) -> any PayloadDecoder
    /// Field names whose values identify a payload the device repeats (EnvSensor: its nonce): copies
    /// within a few seconds are one reading with `repeats`. Nil: every payload is a reading. A copy
    /// byte for byte the same as the held reading's payload is counted without being decoded again
    /// (decoders are pure), unless the decoder has a follow-up or gave that payload several outcomes.
    var dedupKey: [String]? { get }
    /// Fresh state for work across this decoder's payloads (a log download followed over many
    /// notifications), one per decoding run; nil when it decodes payloads one by one.
    func makeFollowUp() -> (any DecoderFollowUp)?
    /// Whether it looks at an advertisement's local name or service UUIDs (`PayloadContext`);
    /// when no decoder does, they are not gathered. The address is always given.
    var readsAdvertisingContext: Bool { get }
}

extension PayloadDecoder {
    public var parameters: [DecoderParameter] { [] }
    public func configured(with values: DecoderParameterValues) throws(DecoderParameterError) -> any PayloadDecoder {
        self
    }
    public var dedupKey: [String]? { nil }
    public func makeFollowUp() -> (any DecoderFollowUp)? { nil }
    public var readsAdvertisingContext: Bool { false }

    /// Runs `body` over the payload bytes and turns its result or error into one outcome.
    public func decoding(_ bytes: [UInt8], _ body: (inout ByteReader) throws(DecodeError) -> Fields)
        -> DecodeOutcome
    {
        do {
            return .fields(try ByteReader.reading(bytes, body))
        } catch {
            return .error(error)
        }
    }
}

/// When something happened in the capture: the frame that completed it and its time (µs since the
/// Unix epoch).
public struct CaptureMoment: Sendable, Hashable {
    public var frame: Int
    public var timestamp: Int64
    public init(frame: Int, timestamp: Int64) {
        self.frame = frame
        self.timestamp = timestamp
    }
}

/// A reading that a follow-up makes from several payloads (a download's summary).
public struct FollowUpReading: Sendable {
    /// Its decoder id, one of the follow-up's `ids`.
    public var decoder: String
    public var address: BluetoothAddress
    public var moment: CaptureMoment
    /// What the reading's `source` says ("summary").
    public var source: String
    public var match: MatchKey
    public var fields: Fields

    public init(
        decoder: String, address: BluetoothAddress, moment: CaptureMoment, source: String, match: MatchKey,
        fields: Fields
    ) {
        self.decoder = decoder
        self.address = address
        self.moment = moment
        self.source = source
        self.match = match
        self.fields = fields
    }
}

/// State a decoder keeps across its payloads during one decoding run. It sees each set of fields
/// its decoder produced, the end of each connection and the end of the capture, and answers with
/// the readings those complete.
public protocol DecoderFollowUp: AnyObject {
    /// The decoder ids of the readings it makes (they can be selected with `--decoder`).
    var ids: [String] { get }
    func observe(_ fields: Fields, from address: BluetoothAddress, at moment: CaptureMoment) -> [FollowUpReading]
    func connectionEnded(with address: BluetoothAddress, at moment: CaptureMoment) -> [FollowUpReading]
    func finish(at moment: CaptureMoment) -> [FollowUpReading]
    /// The field and value of the only readings it looks at (BTHome's counter check: `encrypted`
    /// true), or nil for every reading. `observe` is then given only those: the others' fields
    /// can stay packed (`decode(_:packingInto:)`), never made for it.
    var observesOnly: (name: String, value: FieldValue)? { get }
}

extension DecoderFollowUp {
    public var observesOnly: (name: String, value: FieldValue)? { nil }
}
