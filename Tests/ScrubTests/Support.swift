import BluetoothPackets
import ByteReading
import CaptureModel
import Scrub
import Testing

/// Bytes from hex as the specs and tshark print them ("1B 0E 00 06 52").
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        Issue.record("not hex: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

/// An address's six bytes as they go on the wire (little-endian).
func wire(_ text: String) -> [UInt8] { BluetoothAddress(text)!.wireBytes }

/// The address in six little-endian bytes at `offset`.
func address(in bytes: [UInt8], at offset: Int) -> BluetoothAddress {
    BluetoothAddress(bytes[offset..<offset + 6].reversed().reduce(0) { $0 << 8 | UInt64($1) })
}

/// Whether `needle` occurs in `haystack`.
func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}

/// HCI and air traffic built record by record (Core v5.4, Vol 4, Part E, §5.4; Vol 6, Part B, §2).
struct Trace {
    private(set) var records: [StoredRecord] = []
    var time: Int64 = 1_710_495_001_151_075

    @discardableResult
    mutating func record(_ kind: RecordKind, _ direction: Direction, _ payload: [UInt8], linkType: LinkType = .h4,
        gap: Int64 = 1_000) -> Int
    {
        records.append(
            StoredRecord(frame: records.count + 1, timestamp: time, direction: direction, kind: kind, linkType: linkType, payload: payload))
        time += gap
        return records.count
    }

    @discardableResult
    mutating func command(_ opcode: UInt16, _ parameters: [UInt8]) -> Int {
        record(.command, .sent, le16(opcode) + [UInt8(parameters.count)] + parameters)
    }

    @discardableResult
    mutating func event(_ code: UInt8, _ parameters: [UInt8]) -> Int {
        record(.event, .received, [code, UInt8(parameters.count)] + parameters)
    }

    @discardableResult
    mutating func leMeta(_ subevent: UInt8, _ parameters: [UInt8]) -> Int { event(0x3E, [subevent] + parameters) }

    /// Command Complete with status 0 and these return parameters.
    @discardableResult
    mutating func commandComplete(_ opcode: UInt16, _ returned: [UInt8]) -> Int {
        event(0x0E, [0x01] + le16(opcode) + [0x00] + returned)
    }

    /// LE Connection Complete (§7.7.65.1), status 0.
    @discardableResult
    mutating func connect(_ handle: UInt16, peer: String, addressType: UInt8 = 1) -> Int {
        leMeta(0x01, [0x00] + le16(handle) + [0x00, addressType] + wire(peer) + hex("18 00 00 00 F4 01 01"))
    }

    /// One LE Advertising Report (§7.7.65.2).
    @discardableResult
    mutating func advertising(_ address: String, type: UInt8 = 1, data: [UInt8]) -> Int {
        leMeta(0x02, [0x01, 0x00, type] + wire(address) + [UInt8(data.count)] + data + [0xC4])
    }

    /// An ACL packet (§5.4.2); `start` false marks a continuing fragment.
    @discardableResult
    mutating func acl(_ handle: UInt16, _ direction: Direction, _ data: [UInt8], start: Bool = true) -> Int {
        let flags: UInt16 = start ? 0x2000 : 0x1000
        return record(.acl, direction, le16(handle | flags) + le16(UInt16(data.count)) + data)
    }

    /// An L2CAP basic frame in one ACL packet.
    @discardableResult
    mutating func l2cap(_ handle: UInt16, _ direction: Direction, channel: UInt16, _ payload: [UInt8]) -> Int {
        acl(handle, direction, le16(UInt16(payload.count)) + le16(channel) + payload)
    }

    @discardableResult
    mutating func att(_ handle: UInt16, _ direction: Direction, _ pdu: [UInt8]) -> Int {
        l2cap(handle, direction, channel: 4, pdu)
    }

    @discardableResult
    mutating func smp(_ handle: UInt16, _ direction: Direction, _ pdu: [UInt8]) -> Int {
        l2cap(handle, direction, channel: 6, pdu)
    }

    @discardableResult
    mutating func note(_ text: String) -> Int { record(.note, .unknown, Array(text.utf8), linkType: .packetLogger) }
}

/// Records handed over one by one, as a capture reader does: each payload lives until the next call.
final class StoredRecordSource: RecordSource {
    private let records: [StoredRecord]
    private var index = 0
    private var current: UnsafeMutableRawBufferPointer?
    let problems = ProblemLog()

    init(_ records: [StoredRecord]) { self.records = records }

    deinit { current?.deallocate() }

    func next() -> CaptureRecord? {
        current?.deallocate()
        current = nil
        guard index < records.count else { return nil }
        let record = records[index]
        index += 1
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(record.payload.count, 1), alignment: 8)
        bytes.copyBytes(from: record.payload)
        current = bytes
        return CaptureRecord(
            frame: record.frame, timestamp: record.timestamp, direction: record.direction, kind: record.kind,
            adapter: record.adapter, linkType: record.linkType, sourceType: record.sourceType,
            payload: UnsafeRawBufferPointer(rebasing: bytes[0..<record.payload.count]),
            originalLength: record.originalLength, fileOffset: 0)
    }
}

/// The records scrubbed with `options` (seed 1 unless given), and the scrubber for its maps.
func scrubbed(_ records: [StoredRecord], _ options: ScrubOptions = ScrubOptions(seed: 1)) -> ([StoredRecord], Scrubber) {
    let scrubber = Scrubber(options: options)
    scrubber.learn(StoredRecordSource(records))
    var out: [StoredRecord] = []
    scrubber.rewrite(StoredRecordSource(records)) { out.append($0) }
    return (out, scrubber)
}

extension Scrubber {
    func pseudonym(_ text: String) -> BluetoothAddress? {
        let original = BluetoothAddress(text)
        return addressMap.first { $0.original == original }?.pseudonym
    }
}
