/// How one HCI parameter is read and shown: a row of a command's or event's parameter table
/// (Core v6.0, Vol 4, Part E, §7), in the spirit of Wireshark's field catalogues.
///
/// `label` is what text output prints (btmon's wording where btmon has one), `key` the snake_case
/// JSON key. Layouts are data: `HCIParameters.decode` is the one interpreter.
public struct HCIField: Sendable {
    public let label: StaticString
    public let key: StaticString
    public let kind: HCIFieldKind
    /// Only meaningful when the status before it is Success (a failed Connection Complete's handle).
    public let onlyOnSuccess: Bool

    public init(_ label: StaticString, _ key: StaticString, _ kind: HCIFieldKind, onlyOnSuccess: Bool = false) {
        self.label = label
        self.key = key
        self.kind = kind
        self.onlyOnSuccess = onlyOnSuccess
    }
}

/// The wire shape of a parameter. Multi-byte values are little-endian (Vol 4, Part E, §5.2).
public indirect enum HCIFieldKind: Sendable {
    /// An unsigned number of 1–4 bytes, shown in decimal.
    case unsigned(Int)
    /// An unsigned number of 1–8 bytes, shown in hex.
    case hex(Int)
    /// A signed byte.
    case signed8
    /// A power or RSSI in dBm, signed byte; 127 means "not available".
    case dbm
    /// A 12-bit connection handle in two bytes.
    case handle
    /// A status: an error code (Vol 1, Part F). When it is not Success, the fields after it marked
    /// `onlyOnSuccess` are left out, and return parameters that end early are no error.
    case status
    /// A reason or other error code (Vol 1, Part F).
    case errorCode
    /// A six-byte device address.
    case address
    /// A coded value of 1 or 2 bytes with names.
    case named(Int, HCIValueNames)
    /// A bit field of 1–8 bytes with a name per bit.
    case bits(Int, HCIBitNames)
    /// A time of 1–4 bytes in units of `micros` microseconds.
    case duration(Int, micros: Int)
    /// A fixed number of bytes (keys, random numbers, feature pages), shown in hex.
    case bytes(Int)
    /// Every byte left.
    case rest
    /// Text in a fixed-size field, UTF-8, ended by a NUL (a local name: 248 bytes).
    case text(Int)
    /// Advertising data: a length byte, then that many bytes (`padded`: the field always takes that
    /// many, as the legacy 31-byte fields do).
    case advertisingData(padded: Int?)
    /// Extended inquiry response data in a fixed-size field (240 bytes), read as AD structures.
    case eir(Int)
    /// A company identifier, two bytes.
    case company
    /// A count byte, then that many entries of the fields given.
    case list([HCIField])
    /// A PHY bit field byte, then one entry of the fields given for each bit set (LE 1M, 2M, Coded).
    case perPHY([HCIField])
}

/// Names of coded values: a table of (code, name).
public struct HCIValueNames: Sendable {
    public let entries: [HCICodeName]
    public init(_ entries: [HCICodeName]) { self.entries = entries }

    public func name(_ code: UInt64) -> StaticString? {
        entries.first { UInt64($0.code) == code }?.name
    }
}

/// Names of the bits of a bit field: bit number and name.
public struct HCIBitNames: Sendable {
    public let entries: [HCICodeName]
    public init(_ entries: [HCICodeName]) { self.entries = entries }

    /// The names of the bits set, in bit order, and the bits set that have no name.
    public func names(_ value: UInt64) -> (names: [StaticString], unknown: UInt64) {
        var names: [StaticString] = []
        var unknown = value
        for entry in entries where entry.code < 64 && value & (1 << UInt64(entry.code)) != 0 {
            names.append(entry.name)
            unknown &= ~(1 << UInt64(entry.code))
        }
        return (names, unknown)
    }
}

/// A code and its name: one row of a name table.
public struct HCICodeName: Sendable {
    public let code: UInt16
    public let name: StaticString
    public init(_ code: UInt16, _ name: StaticString) {
        self.code = code
        self.name = name
    }
}
