import BluetapeCLI
import BluetoothPackets
import ByteReading
import JSON
import SystemIO
import Testing

/// Runs the command line in-process.
func runTool(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
    let out = Output()
    let err = Output()
    let code = CommandLineTool.run(arguments, stdout: out, stderr: err)
    return (code, out.text, err.text)
}

func jsonLines(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
}

/// The original-to-pseudonym table `scrub --map` writes, and the question every difference
/// between a capture's events and its scrubbed copy's must answer: is it the map, and only the map?
struct AddressMap {
    var pseudonyms: [UInt64: UInt64] = [:]
    var names: [String: String] = [:]
    /// Keys found in the original (`KeyFinder`): their copies elsewhere are zeroed too.
    var keys: [[UInt8]] = [] {
        didSet { keysByPrefix = Dictionary(grouping: keys.filter { $0.count >= 8 && Set($0).count >= 6 }) { Array($0.prefix(4)) } }
    }
    private var keysByPrefix: [[UInt8]: [[UInt8]]] = [:]

    init(json: JSONValue) {
        for (original, pseudonym) in json["addresses"]?.object?.entries ?? [] {
            if let a = BluetoothAddress(original), let text = pseudonym.string, let p = BluetoothAddress(text) {
                pseudonyms[a.value] = p.value
            }
        }
        for (original, pseudonym) in json["names"]?.object?.entries ?? [] { names[original] = pseudonym.string }
    }

    /// Six bytes that could only be that address (the scrubber's own test, restated): at most two
    /// bytes 00 or FF, at least four different bytes.
    static func isDistinctive(_ value: UInt64) -> Bool {
        let bytes = (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
        return bytes.filter { $0 == 0 || $0 == 0xFF }.count <= 2 && Set(bytes).count >= 4
    }

    var distinctiveOriginals: [UInt64] { pseudonyms.keys.filter(Self.isDistinctive) }

    /// Every byte where `a` and `b` differ lies in six bytes where `a` holds an address of the map,
    /// in either byte order, and `b` its pseudonym in the same order.
    func explains(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var i = 0
        while i < a.count {
            if i + 6 <= a.count, windowMapped(a, b, at: i) {
                i += 6
            } else if let key = zeroedKey(a, b, at: i) {
                i += key
            } else if a[i] == b[i] {
                i += 1
            } else {
                return false
            }
        }
        return true
    }

    /// The length of a known key at `i` in `a` that is all zeros in `b`.
    private func zeroedKey(_ a: [UInt8], _ b: [UInt8], at i: Int) -> Int? {
        guard i + 4 <= a.count, let candidates = keysByPrefix[Array(a[i..<i + 4])] else { return nil }
        return candidates.first { key in
            i + key.count <= a.count && a[i..<i + key.count].elementsEqual(key) && b[i..<i + key.count].allSatisfy { $0 == 0 }
        }?.count
    }

    private func windowMapped(_ a: [UInt8], _ b: [UInt8], at i: Int) -> Bool {
        var little: (UInt64, UInt64) = (0, 0)
        var big: (UInt64, UInt64) = (0, 0)
        for k in 0..<6 {
            little.0 |= UInt64(a[i + k]) << UInt64(8 * k)
            little.1 |= UInt64(b[i + k]) << UInt64(8 * k)
            big.0 = big.0 << 8 | UInt64(a[i + k])
            big.1 = big.1 << 8 | UInt64(b[i + k])
        }
        return (little.0 != little.1 && pseudonyms[little.0] == little.1) || (big.0 != big.1 && pseudonyms[big.0] == big.1)
    }

    /// The same for text: addresses written "C2:6B:30:F9:0E:C7" (either case) replaced by their pseudonyms.
    func explains(text a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var i = 0
        while i < x.count {
            if i + 17 <= x.count, let original = BluetoothAddress(String(decoding: x[i..<i + 17], as: UTF8.self)),
                x[i + 2] == UInt8(ascii: ":"), let pseudonym = pseudonyms[original.value],
                String(decoding: y[i..<i + 17], as: UTF8.self).uppercased() == BluetoothAddress(pseudonym).description
            {
                i += 17
            } else if x[i] == y[i] {
                i += 1
            } else {
                return false
            }
        }
        return true
    }

    /// Whether `b` is `a` with this map applied, field by field.
    func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard x.keys == y.keys else { return false }
            return zip(x.entries, y.entries).allSatisfy { matches($0.value, $1.value) }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        case (.string(let x), .string(let y)):
            if x == y { return true }
            if x.count == 17, let original = BluetoothAddress(x), let pseudonym = pseudonyms[original.value] {
                return BluetoothAddress(pseudonym).description == y
            }
            if let xs = Hex.decode(x), let ys = Hex.decode(y), x.allSatisfy(\.isHexDigit) { return explains(xs, ys) }
            return explains(text: x, y)
        default:
            return a == b
        }
    }
}

/// What a scrubbed event may differ in besides the map: fields whose bytes are pairing material,
/// taken out on both sides (Core v5.4, Vol 4, Part E §7 and Vol 6, Part B §2.4.2).
enum ScrubbedFields {
    /// LE Encrypt, LE Enable Encryption, LE Long Term Key Request Reply, LE Generate DHKey (v1, v2),
    /// LE Add Device To Resolving List, Link Key Request Reply, PIN Code Request Reply, User Passkey
    /// Request Reply, Remote OOB Data Request Reply, Remote OOB Extended Data Request Reply,
    /// Write Stored Link Key.
    static let commands: Set<Int64> = [
        0x2017, 0x2019, 0x201A, 0x2026, 0x205E, 0x2027, 0x040B, 0x040D, 0x042E, 0x0430, 0x0445, 0x0C11,
    ]
    /// Command Complete of LE Encrypt, LE Rand, Read Local OOB Data, Read Local OOB Extended Data.
    static let returns: Set<Int> = [0x2017, 0x2018, 0x0C57, 0x0C7D]
    /// Return Link Keys, Link Key Notification, User Confirmation Request, User Passkey Notification.
    static let events: Set<Int64> = [0x15, 0x18, 0x33, 0x3B]
    /// LE Long Term Key Request, LE Read Local P-256 Public Key Complete, LE Generate DHKey Complete.
    static let leSubevents: Set<Int64> = [0x05, 0x08, 0x09]

    /// The event with its scrubbed fields and the fields lifted out of `ad` taken out (the `ad`
    /// list itself is compared: what is lifted from it follows).
    static func blanked(_ event: JSONValue) -> JSONValue {
        guard var object = event.object else { return event }
        let type = object["type"]?.string
        var drop: Set<String> = []
        if object["ad"] != nil { drop.formUnion(["mfr", "service_data", "uuids", "name", "tx_power"]) }
        if type == "hci" {
            let data = object["data"]?.string.flatMap { Hex.decode($0) } ?? []
            if object["kind"]?.string == "command", let opcode = object["opcode"]?.int64, commands.contains(opcode) {
                drop.insert("data")
            }
            if let code = object["code"]?.int64 {
                if events.contains(code) { drop.insert("data") }
                if code == 0x3E, let subevent = object["subevent"]?.int64, leSubevents.contains(subevent) { drop.insert("data") }
                if code == 0x0E, data.count >= 3, returns.contains(Int(data[1]) | Int(data[2]) << 8) { drop.insert("data") }
            }
        }
        if type == "ll", let op = object["op"]?.string, op == "enc_req" || op == "enc_rsp" { drop.insert("data") }
        if type == "hci", drop.contains("data") {
            // The parameters read from the scrubbed bytes (keys, random numbers) go with them;
            // what names the packet stays.
            let kept: Set<String> = ["frame", "ts", "type", "kind", "opcode", "name", "code", "subevent", "adapter", "direction"]
            object.entries.removeAll { !kept.contains($0.key) }
        }
        object.entries.removeAll { drop.contains($0.key) }
        return .object(object)
    }
}
