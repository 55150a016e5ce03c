import BluetoothPackets

/// Every device address of a capture and the pseudonym that replaces it.
///
/// A pseudonym keeps the bits that say what kind of address it is: the top two (random static 11,
/// resolvable private 01, non-resolvable 00) and the two lowest bits of the first byte (a public
/// address's group and locally-administered bits), or with `keepOUI` the whole top 24 bits. The rest
/// comes from a keyed hash of the address, so the same address always gets the same pseudonym and
/// nothing in the pseudonym tells the address without the key. Addresses are collected in a first
/// pass and given pseudonyms in the order they were first seen, each different from every other
/// pseudonym and from every address of the capture, so no original survives in the output even by
/// coincidence. All zeros and all ones name no device and stay as they are.
struct AddressPseudonyms {
    private let hash: KeyedHash
    /// Bits copied from the address into its pseudonym.
    private let kept: UInt64
    private static let all: UInt64 = 0xFFFF_FFFF_FFFF

    private var seen: Set<UInt64> = []
    private var order: [UInt64] = []
    private var table: [UInt64: UInt64] = [:]
    private var taken: Set<UInt64> = []

    init(hash: KeyedHash, keepOUI: Bool) {
        self.hash = hash
        kept = keepOUI ? 0xFFFF_FF00_0000 : 0xC300_0000_0000
    }

    static func isReserved(_ address: UInt64) -> Bool { address == 0 || address == all }

    /// Whether six bytes like these turning up elsewhere can only be this address. A placeholder
    /// such as 00:00:00:00:00:01 is mapped where the format says it is an address, but its bytes
    /// are everywhere (a 1 and five zeros): the sweep leaves them alone.
    static func isDistinctive(_ address: UInt64) -> Bool {
        var bytes: Set<UInt64> = []
        var flat = 0
        for i in 0..<6 {
            let byte = (address >> UInt64(8 * i)) & 0xFF
            bytes.insert(byte)
            if byte == 0 || byte == 0xFF { flat += 1 }
        }
        return flat <= 2 && bytes.count >= 4
    }

    /// True once `address` is known (seen in the first pass, or given a pseudonym since).
    func contains(_ address: UInt64) -> Bool { seen.contains(address) }

    var count: Int { order.count }

    /// Known addresses the sweep looks for.
    var distinctive: [UInt64] { order.filter(Self.isDistinctive) }

    /// Notes an address found in the first pass.
    mutating func note(_ address: UInt64) {
        guard !Self.isReserved(address), seen.insert(address).inserted else { return }
        order.append(address)
    }

    /// Gives every address noted so far its pseudonym, in the order they were first seen.
    mutating func assign() {
        for address in order where table[address] == nil { table[address] = makePseudonym(address) }
    }

    /// The pseudonym of `address`; an address the first pass did not see gets one now.
    mutating func pseudonym(_ address: UInt64) -> UInt64 {
        if Self.isReserved(address) { return address }
        if let known = table[address] { return known }
        note(address)
        let made = makePseudonym(address)
        table[address] = made
        return made
    }

    private mutating func makePseudonym(_ address: UInt64) -> UInt64 {
        let free = ~kept & Self.all
        var attempt: UInt64 = 0
        while true {
            let candidate = (address & kept) | (hash.hash(address | attempt << 48) & free)
            attempt += 1
            let rest = candidate & free
            // Not the address itself, nor any other address or pseudonym of the capture; and not
            // all zeros or all ones where the address is random (the spec forbids those).
            if rest != 0, rest != free, candidate != address, !seen.contains(candidate),
                taken.insert(candidate).inserted
            {
                return candidate
            }
        }
    }

    /// Original and pseudonym, in the order the addresses were first seen.
    var pairs: [(original: BluetoothAddress, pseudonym: BluetoothAddress)] {
        order.compactMap { address in table[address].map { (BluetoothAddress(address), BluetoothAddress($0)) } }
    }
}

/// Device names and the numbers of their pseudonyms (`device-1`, `device-2`, … in the order the
/// names were first seen). A replacement keeps the length of the name it replaces wherever the
/// length is part of the format (an AD structure, an attribute value): longer names get
/// `device-N` padded with spaces, shorter ones `d-N`, `dN`, or N's last digits.
struct NamePseudonyms {
    private var numbers: [[UInt8]: Int] = [:]
    private(set) var order: [[UInt8]] = []

    var count: Int { order.count }

    /// The number of `name`, given one when it is new. Empty names are no names.
    @discardableResult
    mutating func note<Bytes: Collection<UInt8>>(_ name: Bytes) -> Int? {
        let key = [UInt8](name)
        guard !key.isEmpty else { return nil }
        if let known = numbers[key] { return known }
        order.append(key)
        numbers[key] = order.count
        return order.count
    }

    func number<Bytes: Collection<UInt8>>(_ name: Bytes) -> Int? { numbers[[UInt8](name)] }

    /// Whether a name is long and varied enough that its bytes elsewhere are the name (for the sweep).
    static func isDistinctive(_ name: [UInt8]) -> Bool {
        name.count >= 4 && Set(name).count >= 3 && name.contains { $0 > 0x20 }
    }

    /// `device-N` in `length` bytes.
    static func fitted(_ number: Int, length: Int) -> [UInt8] {
        let full = Array("device-\(number)".utf8)
        if length >= full.count { return full + [UInt8](repeating: UInt8(ascii: " "), count: length - full.count) }
        for short in ["d-\(number)", "d\(number)"] where short.utf8.count <= length { return Array(short.utf8) + padding(length - short.utf8.count) }
        let digits = Array(String(number, radix: 36).utf8)
        return Array(digits.suffix(length))
    }

    private static func padding(_ count: Int) -> [UInt8] { [UInt8](repeating: UInt8(ascii: " "), count: count) }

    /// `device-N` as it stands in a name field with room to spare (a NUL-terminated 248-byte field).
    static func full(_ number: Int) -> [UInt8] { Array("device-\(number)".utf8) }
}

/// Key material the rules zeroed, long and varied enough that a copy of it elsewhere is that key.
struct KeyRegister {
    private var seen: Set<[UInt8]> = []
    private(set) var order: [[UInt8]] = []

    var count: Int { order.count }

    static func isDistinctive(_ key: some Collection<UInt8>) -> Bool { key.count >= 8 && Set(key).count >= 6 }

    mutating func note(_ key: some Collection<UInt8>) {
        guard Self.isDistinctive(key), order.count < 100_000 else { return }
        let bytes = [UInt8](key)
        if seen.insert(bytes).inserted { order.append(bytes) }
    }
}
