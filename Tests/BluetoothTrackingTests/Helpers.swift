import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureFiles
import CaptureModel
import EventOutput
import JSON
import Testing
import TestSupport

/// Bytes from hex as the specs and tshark print them ("1B 0E 00 06 52").
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        Issue.record("not hex: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

/// HCI traffic built record by record, framed as Core v5.4, Vol 4, Part E, §5.4 draws it.
/// Each builder returns the frame number its record gets (1-based, as Wireshark counts).
struct HCITrace {
    private(set) var records: [StoredRecord] = []
    /// Microseconds since the epoch of the next record; records are 1 ms apart.
    var time: Int64 = 1_710_495_001_151_075

    @discardableResult
    mutating func record(_ kind: RecordKind, _ direction: Direction, _ payload: [UInt8]) -> Int {
        records.append(
            StoredRecord(frame: records.count + 1, timestamp: time, direction: direction, kind: kind, payload: payload))
        time += 1_000
        return records.count
    }

    /// An event packet (§5.4.4): code, parameter length, parameters.
    @discardableResult
    mutating func event(_ code: UInt8, _ parameters: [UInt8]) -> Int {
        record(.event, .received, [code, UInt8(parameters.count)] + parameters)
    }

    /// An LE Meta event (§7.7.65) with its subevent code.
    @discardableResult
    mutating func leMeta(_ subevent: UInt8, _ parameters: [UInt8]) -> Int {
        event(0x3E, [subevent] + parameters)
    }

    /// LE Connection Complete (§7.7.65.1), status 0, 30 ms interval, 5 s supervision timeout.
    @discardableResult
    mutating func connect(_ handle: UInt16, peer: String, addressType: UInt8 = 0, role: UInt8 = 0) -> Int {
        let address = BluetoothAddress(peer)?.wireBytes ?? []
        return leMeta(0x01, [0x00] + le16(handle) + [role, addressType] + address + hex("18 00 00 00 F4 01 01"))
    }

    /// Disconnection Complete (§7.7.5), status 0.
    @discardableResult
    mutating func disconnect(_ handle: UInt16, reason: UInt8 = 0x13) -> Int {
        event(0x05, [0x00] + le16(handle) + [reason])
    }

    /// An ACL data packet (§5.4.2) with the given packet-boundary flag.
    @discardableResult
    mutating func acl(_ handle: UInt16, _ direction: Direction, pb: UInt8, _ data: [UInt8]) -> Int {
        record(.acl, direction, le16(handle | UInt16(pb) << 12) + le16(UInt16(data.count)) + data)
    }

    /// An L2CAP basic frame (Vol 3, Part A, §3.1) in one ACL packet: PB 0 host to controller, 2 the other way.
    @discardableResult
    mutating func l2cap(_ handle: UInt16, _ direction: Direction, channel: UInt16, _ payload: [UInt8]) -> Int {
        acl(handle, direction, pb: direction == .sent ? 0 : 2, le16(UInt16(payload.count)) + le16(channel) + payload)
    }

    /// One ATT PDU on the attribute channel (CID 0x0004).
    @discardableResult
    mutating func att(_ handle: UInt16, _ direction: Direction, _ pdu: String) -> Int {
        l2cap(handle, direction, channel: 0x0004, hex(pdu))
    }

    func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// The parameters of an LE Extended Advertising Report (§7.7.65.13) holding one report: random address
    /// 66:55:44:33:22:11, LE 1M and LE 2M, TX power not available, RSSI −64, no periodic advertising.
    static func extendedReport(eventType: UInt16, sid: UInt8, data: [UInt8], address: String = "11 22 33 44 55 66")
        -> [UInt8]
    {
        [0x01, UInt8(eventType & 0xFF), UInt8(eventType >> 8), 0x01] + hex(address)
            + [0x01, 0x02, sid, 0x7F, 0xC0, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data
    }
}

/// The events a fresh tracker makes of the records, `finish` included.
func track(_ trace: HCITrace, options: Tracker.Options = Tracker.Options()) -> [Event] {
    track(trace.records, options: options)
}

func track(_ records: [StoredRecord], options: Tracker.Options = Tracker.Options()) -> [Event] {
    let tracker = Tracker(options: options)
    var events: [Event] = []
    for record in records {
        record.withRecord { tracker.consume($0) { events.append($0) } }
    }
    tracker.finish { events.append($0) }
    return events
}

/// Every event of a capture file, read the way `bluetape events` reads it.
func events(inCapture path: String, options: Tracker.Options = Tracker.Options()) throws -> [Event] {
    var events: [Event] = []
    EventStream.read(try CaptureReader(path: path, formats: testFormats), options: options) { events.append($0) }
    return events
}

/// One event as its JSON line (without the newline).
func jsonLine(_ event: Event) -> String {
    var writer = JSONWriter(capacity: 256)
    EventJSON.write(event, to: &writer)
    var bytes = writer.bytes
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
}

extension Event {
    var att: ATTEvent? {
        if case .att(let value) = body { return value }
        return nil
    }

    var diagnostic: Diagnostic? {
        if case .diagnostic(let value) = body { return value }
        return nil
    }

    var advertisement: Advertisement? {
        if case .advertisement(let value) = body { return value }
        return nil
    }
}

extension Array where Element == Event {
    /// ATT events with the frame that completed them.
    var atts: [(frame: Int, att: ATTEvent)] { compactMap { e in e.att.map { (e.frame, $0) } } }

    /// "frame:id" of every diagnostic, in order.
    var diagnostics: [String] { compactMap { e in e.diagnostic.map { "\(e.frame):\($0.id)" } } }

    /// The single ATT event of a frame with this op; nil (and an issue) when there is not exactly one.
    func att(frame: Int, op: String, sourceLocation: SourceLocation = #_sourceLocation) -> ATTEvent? {
        let found = atts.filter { $0.frame == frame && $0.att.op == op }
        guard found.count == 1 else {
            Issue.record("\(found.count) \(op) events at frame \(frame)", sourceLocation: sourceLocation)
            return nil
        }
        return found[0].att
    }
}

extension ATTEvent {
    /// uuid, where it came from and the frame that taught it, in one line: "2a37 discovery 6".
    var resolution: String? {
        attribute.map { "\($0.uuid) \($0.source.rawValue)\($0.frame.map { " \($0)" } ?? "")" }
    }
}

/// The shared captures' MANIFEST: Wireshark's counts per file (section 2 and the PacketLogger table).
enum Manifest {
    /// The leading number of a column ("att", "adv", "extadv", "adv (0x02/0x0d)") in the row of a file.
    static func count(_ file: String, column: String) -> Int? {
        guard let dir = TestPaths.sharedCaptures, let text = TestPaths.readText(dir + "/MANIFEST.md") else {
            return nil
        }
        var header: [String]?
        for line in text.split(separator: "\n") {
            guard line.hasPrefix("|") else {
                header = nil
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            }
            if cells.contains("File") {
                header = cells
                continue
            }
            guard let header, let f = header.firstIndex(of: "File"), let c = header.firstIndex(of: column),
                cells.count > max(f, c), cells[f].filter({ $0 != "`" }) == file
            else { continue }
            return Int(String(cells[c].prefix { $0.isNumber }))
        }
        return nil
    }
}

/// Events of the real captures in ../shared/captures, read once per file and kept for every test.
enum SharedCapture {
    static func path(_ name: String) -> String? { TestPaths.sharedCaptures.map { $0 + "/" + name } }

    static func load(_ name: String) -> [Event] {
        guard let path = path(name) else { return [] }
        return (try? events(inCapture: path)) ?? []
    }

    static let pongbot = load("pongbot-mcp__btsnoop_hci.log.last")
    static let lightControl = load("bluethooth_light_controll__btsnoop_hci.log")
}
