/// The open connections, by adapter and handle (`Tracker.connectionKey`).
///
/// Every ACL packet looks its connection up, and hashing the key cost 3% of tracking a mixed
/// capture, so a few recent lookups are kept in slots chosen by the handle's low bits: the
/// handles a controller gives out at once differ there.
struct ConnectionTable {
    private var byKey: [UInt32: Connection] = [:]
    private var recent = [Recent](repeating: Recent(), count: 16)

    private struct Recent {
        var key: UInt32 = 0
        var connection: Connection?
    }

    var count: Int { byKey.count }
    var values: Dictionary<UInt32, Connection>.Values { byKey.values }

    subscript(key: UInt32) -> Connection? {
        mutating get {
            let slot = Self.slot(key)
            if recent[slot].key == key, let connection = recent[slot].connection { return connection }
            let found = byKey[key]
            if found != nil { recent[slot] = Recent(key: key, connection: found) }
            return found
        }
        set {
            byKey[key] = newValue
            recent[Self.slot(key)] = Recent(key: key, connection: newValue)
        }
    }

    private static func slot(_ key: UInt32) -> Int { Int((key ^ key >> 16) & 15) }
}
