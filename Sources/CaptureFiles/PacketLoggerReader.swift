import CaptureModel

/// Reads Apple PacketLogger (`.pklg`) files, as macOS PacketLogger.app, iOS sysdiagnose and
/// BTstack's hci_dump write them.
///
/// There is no file header. Each record: length u32 (of everything after it), seconds u32,
/// microseconds u32, type u8, packet. PacketLogger.app writes little-endian, BTstack and older
/// iOS tools big-endian; the byte order is found from the first record's length.
final class PacketLoggerReader {
    static let recordHeaderSize = 12
    /// Types Wireshark accepts when recognising a file; any type is read once recognised.
    static let knownTypes: Set<UInt8> = [
        0x00, 0x01, 0x02, 0x03, 0x08, 0x09, 0x0A, 0x0B, 0xF7, 0xF8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE,
    ]

    let bigEndian: Bool
    private let input: InputBuffer
    @exclusivity(unchecked) private(set) var problems = ProblemLog()
    @exclusivity(unchecked) private var frame = 0
    @exclusivity(unchecked) private var lastTimestamp: Int64?

    /// Decides whether the input looks like a PacketLogger file (up to five plausible records, as
    /// Wireshark checks, but the plausible records before a damaged one are enough: a file damaged
    /// in its third record still has two to read). Returns whether it is big-endian, or nil when
    /// it is not PacketLogger.
    static func recognise(_ input: InputBuffer) -> Bool? {
        guard input.fill(recordHeaderSize) else { return nil }
        let first = input.u32le(at: 0)
        let bigEndian = first & 0xFFFF == 0 && first & 0xFFFF_0000 != 0
        var index = 0
        var checked = 0
        while checked < 5, input.fill(index + recordHeaderSize + 1) {
            let length = Int(bigEndian ? input.u32be(at: index) : input.u32le(at: index))
            let micros = bigEndian ? input.u32be(at: index + 8) : input.u32le(at: index + 8)
            guard length >= 8, length < 65_536, micros < 1_000_000 else { break }
            if length > 8, !knownTypes.contains(input.byte(at: index + recordHeaderSize)) { break }
            checked += 1
            index += 4 + length
        }
        return checked > 0 ? bigEndian : nil
    }

    init(input: InputBuffer, bigEndian: Bool) {
        self.input = input
        self.bigEndian = bigEndian
    }

    @inline(__always)
    private func u32(at index: Int) -> UInt32 {
        bigEndian ? input.u32be(at: index) : input.u32le(at: index)
    }

    func next() -> CaptureRecord? {
        while true {
            let recordOffset = input.offset
            guard input.fill(Self.recordHeaderSize) else {
                problems.endOfInput(input, frame: frame + 1, recordOffset: recordOffset, needed: Self.recordHeaderSize)
                return nil
            }
            let length = Int(u32(at: 0))
            if length < 8 || length - 8 > maximumRecordLength {
                frame += 1
                let reason =
                    length < 8
                    ? "record length \(length) is too small"
                    : "record length \(length) exceeds the 64 KiB maximum"
                let skipped = input.resynchronize(headerSize: Self.recordHeaderSize, after: lastTimestamp) {
                    candidate(at: $0, after: $1)
                }
                problems.add(
                    CaptureProblem(
                        kind: .badRecord, frame: frame, offset: recordOffset, reason: reason, skippedBytes: skipped))
                if skipped != nil { continue }
                reportFailure()
                return nil
            }
            let total = 4 + length
            guard input.fill(total) else {
                problems.endOfInput(input, frame: frame + 1, recordOffset: recordOffset, needed: total)
                return nil
            }
            frame += 1
            let timestamp = Int64(u32(at: 4)) * 1_000_000 + Int64(u32(at: 8))
            lastTimestamp = timestamp
            let type: UInt8 = length > 8 ? input.byte(at: Self.recordHeaderSize) : 0xFF
            let (kind, direction) = length > 8 ? HCIFraming.packetLogger(type: type) : (.other, .unknown)
            let payloadStart = min(Self.recordHeaderSize + 1, total)
            let record = CaptureRecord(
                frame: frame, timestamp: timestamp, direction: direction, kind: kind, adapter: 0,
                linkType: .packetLogger, sourceType: UInt16(type),
                payload: input.bytes(at: payloadStart, count: total - payloadStart),
                originalLength: total - payloadStart, fileOffset: recordOffset)
            input.consume(total)
            return record
        }
    }

    /// Could a record start at `index` of the unread input? Used only to resynchronize: the length
    /// holds a timestamp and a type and stays within bounds, the microseconds are below a second,
    /// the type is one PacketLogger writes, an HCI packet's own length agrees with the record's,
    /// and the time is close to `reference`.
    private func candidate(at index: Int, after reference: Int64?) -> ResumeCandidate? {
        guard input.fill(index + Self.recordHeaderSize + 1) else { return nil }
        let length = Int(u32(at: index))
        let micros = u32(at: index + 8)
        guard length > 8, length - 8 <= maximumRecordLength, micros < 1_000_000 else { return nil }
        let type = input.byte(at: index + Self.recordHeaderSize)
        guard Self.knownTypes.contains(type) else { return nil }
        let timestamp = Int64(u32(at: index + 4)) * 1_000_000 + Int64(micros)
        guard PlausibleTime.accepts(timestamp, after: reference) else { return nil }
        let size = 4 + length
        guard input.fill(index + size) else { return nil }
        let packet = input.bytes(at: index + Self.recordHeaderSize + 1, count: size - Self.recordHeaderSize - 1)
        guard HCILength.agrees(kind: HCIFraming.packetLogger(type: type).0, packet: packet) else { return nil }
        return ResumeCandidate(size: size, timestamp: timestamp)
    }

    /// A read that failed while looking for the next record (a damaged gzip, a limit passed) is
    /// damage of its own: reported after the record that started the search.
    private func reportFailure() {
        if let failure = input.failure {
            problems.add(CaptureProblem(kind: .readError, frame: frame + 1, offset: input.offset, reason: failure.message))
        }
    }
}
