import BluetoothPackets

/// Index numbers by Bluetooth address, for the per-advert lookups of the accumulators: an
/// open-addressing table on the 48-bit value with a multiplicative hash, several times cheaper
/// than a `Dictionary` (which hashes every key through SipHash).
public struct AddressIndex: Sendable {
    private var keys: [UInt64]
    private var values: [Int32]
    public private(set) var count = 0
    private var mask: Int

    /// Marks an empty slot: no address has bits above the 48th.
    private static let empty = UInt64.max

    public init() {
        keys = [UInt64](repeating: Self.empty, count: 64)
        values = [Int32](repeating: 0, count: 64)
        mask = 63
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask }

    public subscript(_ address: BluetoothAddress?) -> Int? {
        get {
            let key = address.map(\.value) ?? Self.none
            var i = slot(key)
            while true {
                let k = keys[i]
                if k == key { return Int(values[i]) }
                if k == Self.empty { return nil }
                i = (i + 1) & mask
            }
        }
        set {
            guard let newValue else { return }  // entries are never removed
            let key = address.map(\.value) ?? Self.none
            if (count + 1) * 4 > keys.count * 3 { grow() }
            var i = slot(key)
            while keys[i] != Self.empty, keys[i] != key { i = (i + 1) & mask }
            if keys[i] == Self.empty { count += 1 }
            keys[i] = key
            values[i] = Int32(truncatingIfNeeded: newValue)
        }
    }

    /// The key that stands for "no address".
    private static let none: UInt64 = 1 << 48

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = [UInt64](repeating: Self.empty, count: oldKeys.count * 2)
        values = [Int32](repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (i, key) in oldKeys.enumerated() where key != Self.empty {
            var j = slot(key)
            while keys[j] != Self.empty { j = (j + 1) & mask }
            keys[j] = key
            values[j] = oldValues[i]
        }
    }
}
