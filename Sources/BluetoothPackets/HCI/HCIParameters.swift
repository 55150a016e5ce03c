import ByteReading

/// One decoded HCI parameter: the field's label and key, and its value.
public struct HCIParameter: Sendable {
    public let label: StaticString
    public let key: StaticString
    public let value: HCIValue
    /// The layout's status field: the one whose failure leaves other fields out.
    public let isStatus: Bool
}

/// A decoded parameter value, kept as data so that text and JSON print it each in their way.
public enum HCIValue: Sendable {
    /// A number; `hexDigits` 0 prints it in decimal.
    case number(UInt64, hexDigits: Int)
    case signed(Int64)
    /// dBm; 127 is "not available".
    case dbm(Int8)
    /// A coded value and its name, when the table has one.
    case code(UInt64, name: StaticString?, hexDigits: Int)
    /// A status or reason code (Vol 1, Part F).
    case error(UInt8)
    /// A bit field: the names of the bits set, and the set bits without a name.
    case bits(UInt64, names: [StaticString], unknown: UInt64, hexDigits: Int)
    /// A time: the raw value and its unit in microseconds.
    case duration(UInt64, unitMicros: UInt64, hexDigits: Int)
    case handle(UInt16)
    case address(BluetoothAddress)
    case bytes([UInt8])
    /// Text as UTF-8 bytes, the trailing NULs gone (escaped when printed: it comes from the air).
    case text([UInt8])
    /// AD structures, as advertising data carries them.
    case advertisingData([UInt8])
    case company(UInt16)
    /// Repeated entries (a list, or one entry per PHY); `mask` is the PHY bit field they follow.
    case entries([HCIEntry], mask: UInt64?)
}

/// One entry of a list: its title (a PHY's name) and parameters.
public struct HCIEntry: Sendable {
    public let title: StaticString?
    public let parameters: [HCIParameter]
}

/// The one interpreter of `HCIField` layouts.
public enum HCIParameters {
    public struct Decoded: Sendable {
        public var parameters: [HCIParameter] = []
        /// Bytes after the last field the layout describes.
        public var remainder: [UInt8] = []
        /// Why decoding stopped early, when the bytes ended before the layout did.
        public var error: DecodeError?
    }

    /// Reads `bytes` as the layout says. A layout that starts with a status stops quietly when the
    /// status is not Success and the bytes end: return parameters after a failure may be left out.
    public static func decode(_ layout: [HCIField], _ bytes: UnsafeRawBufferPointer) -> Decoded {
        var r = ByteReader(bytes)
        var decoded = Decoded()
        var failed = false
        do {
            try read(layout, &r, into: &decoded.parameters, failed: &failed)
        } catch {
            if !failed { decoded.error = error }
            return decoded
        }
        if !r.isAtEnd { decoded.remainder = [UInt8](r.unread) }
        return decoded
    }

    /// The PHY bits of the LE PHY bit fields (Vol 4, Part E, §7.8.64 and others).
    static let phyBits = HCIBitNames([HCICodeName(0, "LE 1M"), HCICodeName(1, "LE 2M"), HCICodeName(2, "LE Coded")])

    /// Appends each field as it is read, so that what came before bytes that end early is kept.
    private static func read(
        _ layout: [HCIField], _ r: inout ByteReader, into parameters: inout [HCIParameter], failed: inout Bool
    ) throws(DecodeError) {
        for field in layout {
            let value = try read(field, &r, failed: &failed)
            var isStatus = false
            if case .status = field.kind {
                isStatus = true
                if case .error(let code) = value, code != 0 { failed = true }
            }
            if field.onlyOnSuccess, failed { continue }
            parameters.append(HCIParameter(label: field.label, key: field.key, value: value, isStatus: isStatus))
        }
    }

    private static func read(_ field: HCIField, _ r: inout ByteReader, failed: inout Bool) throws(DecodeError)
        -> HCIValue
    {
        // The field's name for an error message, made only when one is.
        func name() -> String { field.key.description }
        switch field.kind {
        case .unsigned(let size):
            return .number(try r.unsigned(size: size, .little, name()), hexDigits: 0)
        case .hex(let size):
            return .number(try r.unsigned(size: size, .little, name()), hexDigits: size * 2)
        case .signed8:
            return .signed(Int64(try r.i8(name())))
        case .dbm:
            return .dbm(try r.i8(name()))
        case .handle:
            return .handle(try r.u16le(name()) & 0x0FFF)
        case .status, .errorCode:
            return .error(try r.u8(name()))
        case .address:
            return .address(try BluetoothAddress(reading: &r, name()))
        case .named(let size, let names):
            let code = try r.unsigned(size: size, .little, name())
            return .code(code, name: names.name(code), hexDigits: size * 2)
        case .bits(let size, let names):
            let value = try r.unsigned(size: size, .little, name())
            let (set, unknown) = names.names(value)
            return .bits(value, names: set, unknown: unknown, hexDigits: size * 2)
        case .duration(let size, let micros):
            let value = try r.unsigned(size: size, .little, name())
            return .duration(value, unitMicros: UInt64(micros), hexDigits: size * 2)
        case .bytes(let count):
            return .bytes(try r.array(count, name()))
        case .rest:
            return .bytes([UInt8](r.rest()))
        case .text(let size):
            let raw = try r.bytes(size, name())
            return .text([UInt8](raw.prefix { $0 != 0 }))
        case .advertisingData(let padded):
            let length = Int(try r.u8(name() + "_length"))
            if let padded {
                let all = try r.bytes(padded, name())
                return .advertisingData([UInt8](all.prefix(length)))
            }
            return .advertisingData(try r.array(length, name()))
        case .eir(let size):
            return .advertisingData(try r.array(size, name()))
        case .company:
            return .company(try r.u16le(name()))
        case .list(let fields):
            let count = Int(try r.u8(name()))
            var entries: [HCIEntry] = []
            for _ in 0..<count {
                var parameters: [HCIParameter] = []
                try read(fields, &r, into: &parameters, failed: &failed)
                entries.append(HCIEntry(title: nil, parameters: parameters))
            }
            return .entries(entries, mask: nil)
        case .perPHY(let fields):
            let mask = UInt64(try r.u8(name()))
            var entries: [HCIEntry] = []
            for bit in 0..<8 where mask & (1 << UInt64(bit)) != 0 {
                let title = phyBits.entries.first { $0.code == bit }?.name
                var parameters: [HCIParameter] = []
                try read(fields, &r, into: &parameters, failed: &failed)
                entries.append(HCIEntry(title: title, parameters: parameters))
            }
            return .entries(entries, mask: mask)
        }
    }
}
