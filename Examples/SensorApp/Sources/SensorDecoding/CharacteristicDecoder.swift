import BluetoothPackets
import ByteReading
import Layouts
import PayloadDecoders

/// What a CoreBluetooth delegate hands over in `peripheral(_:didUpdateValueFor:error:)`: the
/// characteristic's UUID (`characteristic.uuid.uuidString`, "2A37" or a 128-bit string) and its
/// value (`characteristic.value`, a `Data`; `[UInt8](data)` here).
public struct CharacteristicValue: Sendable {
    public var uuid: String
    public var bytes: [UInt8]
    public var notified: Bool

    public init(uuid: String, bytes: [UInt8], notified: Bool = true) {
        self.uuid = uuid
        self.bytes = bytes
        self.notified = notified
    }
}

/// One decoded value for the screen: its name, the value as text, and its unit.
public struct DisplayValue: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: FieldValue
    public var unit: String?
    public var description: String { "\(name) = \(value)" + (unit.map { " \($0)" } ?? "") }
}

/// Decodes characteristic values and advertisements with the app's own layout files and the
/// built-in decoders: the same code `bluetape decode` runs over captures.
public struct SensorDecoder: Sendable {
    /// The app's layouts first: where one claims a payload, it wins over a built-in decoder.
    public let decoders: [any PayloadDecoder]

    /// `layoutFiles`: the app's payload layouts (JSON, as `bluetape layout lint` checks them).
    public init(layoutFiles: [String] = []) throws {
        var decoders: [any PayloadDecoder] = []
        for path in layoutFiles { decoders.append(try Layout.load(path: path)) }
        self.decoders = decoders + Registry.builtIn
    }

    /// The values of one characteristic update; an error says which field failed at which byte.
    public func decode(_ value: CharacteristicValue) -> Result<[DisplayValue], DecodeError>? {
        guard let uuid = BluetoothUUID(value.uuid) else { return nil }
        let payload = Payload(.attribute(uuid: uuid, operation: value.notified ? .notify : .read), value.bytes)
        return first(payload, .characteristic(uuid))
    }

    /// The values in an advertisement's manufacturer data (`kCBAdvDataManufacturerData`: the company
    /// id's two bytes first, little-endian).
    public func decode(manufacturerData data: [UInt8], localName: String? = nil) -> Result<[DisplayValue], DecodeError>? {
        guard data.count >= 2 else { return nil }
        let company = UInt16(data[0]) | UInt16(data[1]) << 8
        let payload = Payload(
            .manufacturerData(company: company), Array(data.dropFirst(2)), context: PayloadContext(localName: localName))
        return first(payload, .company(company))
    }

    private func first(_ payload: Payload, _ key: MatchKey) -> Result<[DisplayValue], DecodeError>? {
        for decoder in decoders where decoder.matches.contains(key) {
            guard let outcome = decoder.decode(payload).first else { continue }
            switch outcome {
            case .fields(let fields):
                let units = Dictionary(decoder.fields.map { ($0.name, $0.unit) }, uniquingKeysWith: { a, _ in a })
                return .success(fields.entries.map { DisplayValue(name: $0.name, value: $0.value, unit: units[$0.name] ?? nil) })
            case .error(let error):
                return .failure(error)
            }
        }
        return nil
    }
}
