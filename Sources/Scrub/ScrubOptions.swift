import BluetoothPackets

/// What `bluetape scrub` removes and how it names what it replaces.
public struct ScrubOptions: Sendable {
    /// Makes pseudonyms reproducible: the same seed and input give the same output, byte for byte.
    /// Without one, a random key is drawn for each run.
    public var seed: UInt64?
    /// Keep the top 24 bits of every address (the OUI of a public address) and pseudonymise the rest.
    public var keepOUI = false
    /// Replace device names by `device-1`, `device-2`, … (names are kept otherwise).
    public var names = false
    /// Characteristics whose values are blanked (zeroed).
    public var values: Set<BluetoothUUID> = []

    public init(seed: UInt64? = nil, keepOUI: Bool = false, names: Bool = false, values: Set<BluetoothUUID> = []) {
        self.seed = seed
        self.keepOUI = keepOUI
        self.names = names
        self.values = values
    }
}

/// What a scrub did, for the summary line and the tests.
public struct ScrubStatistics: Sendable, Equatable {
    public var records = 0
    /// Records whose bytes changed.
    public var recordsRewritten = 0
    /// Address fields (and copies found elsewhere in the bytes) replaced by their pseudonyms.
    public var addressesReplaced = 0
    /// Key, random, confirm and similar fields that held something and were zeroed.
    public var keysZeroed = 0
    public var namesReplaced = 0
    public var valuesBlanked = 0
    /// Link-layer PDUs whose CRC was adjusted to the rewritten bytes.
    public var crcsUpdated = 0
    /// Encrypted link-layer PDUs, which cannot be rewritten: written as they were.
    public var encryptedPDUsLeft = 0
    /// Fragmented frames or advertising chains that never completed: rewritten as far as they went.
    public var incompleteUnits = 0

    public init() {}
}
