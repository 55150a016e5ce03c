import CaptureModel

/// Reads Android's btsnooz records: the ring a bug report carries in its BTSNOOP_LOG_SUMMARY section
/// (versions 1 and 2, after inflating), and the files some phones and tools write as a btsnoop
/// header followed by version-2 records (`../shared/specs/android-logs.md`, sections 3 and 4).
///
/// Record header, little-endian: `u16 length, [u16 packet_length,] u32 delta_time, u8 type`, then
/// `length - 1` bytes of the HCI packet. `length` counts the type byte and the bytes kept,
/// `packet_length` the original packet plus one. The writer keeps commands and events whole and cuts
/// ACL to its first bytes: such a record is read as truncated (kept shorter than it was), not damaged.
final class SnoozReader: FormatReader {
    enum Version: UInt8 {
        case v1 = 1
        case v2 = 2

        var headerSize: Int { self == .v1 ? 7 : 9 }
    }

    /// The H4 type, kind and direction of each snooz type (AOSP `btsnooz.py`).
    static func framing(_ type: UInt8) -> (h4: UInt8, kind: RecordKind, direction: Direction)? {
        switch type {
        case 0x10: (0x04, .event, .received)
        case 0x20: (0x01, .command, .sent)
        case 0x11: (0x02, .acl, .received)
        case 0x21: (0x02, .acl, .sent)
        case 0x12: (0x03, .sco, .received)
        case 0x22: (0x03, .sco, .sent)
        case 0x17: (0x05, .iso, .received)
        case 0x2D: (0x05, .iso, .sent)
        default: nil
        }
    }

    let linkType = LinkType.btsnoopUART
    let version: Version
    private let input: InputBuffer
    private(set) var problems = ProblemLog()
    private var frame = 0
    /// The previous record's time; each record adds its delta.
    private var time: Int64
    /// Files with no clock: the first record is at 0, whatever its delta.
    private let startsAtZero: Bool
    private var started = false
    /// `packet_length - length` of a whole record: 0 in bug reports, 1 in the btsnoop-header files
    /// seen in the wild; learned from the first command or event (always kept whole).
    private var lengthBias: Int?

    /// The records of a bug report's ring: `firstTime` is the preamble's last timestamp minus the
    /// sum of every delta (`Snooz.firstTime`).
    init(records input: InputBuffer, version: Version, firstTime: Int64) {
        self.input = input
        self.version = version
        time = firstTime
        startsAtZero = false
        lengthBias = 0
    }

    /// Version-2 records after a btsnoop header (already consumed): times count from 0.
    init(afterBTSnoopHeader input: InputBuffer) {
        self.input = input
        version = .v2
        time = 0
        startsAtZero = true
    }

    /// Whether the bytes at `index` of `input` hold a plausible version-2 record (recognising the
    /// btsnoop-header files, where a btsnoop reader would see absurd lengths).
    static func plausibleRecord(in input: InputBuffer, at index: Int) -> Bool {
        guard input.fill(index + Version.v2.headerSize) else { return false }
        let length = Int(input.u16le(at: index))
        let packetLength = Int(input.u16le(at: index + 2))
        guard length >= 1, packetLength >= length, framing(input.byte(at: index + 8)) != nil else { return false }
        return true
    }

    /// The sum of every record's delta in a ring held in memory: the first pass AOSP's decoder makes
    /// to date the first record. Stops where the records stop making sense.
    static func sumOfDeltas(_ bytes: [UInt8], version: Version) -> Int64 {
        let input = InputBuffer(bytes: bytes)
        var sum: Int64 = 0
        while input.fill(version.headerSize) {
            let length = Int(input.u16le(at: 0))
            guard length >= 1, input.fill(version.headerSize + length - 1) else { break }
            sum += Int64(input.u32le(at: version.headerSize - 5))
            input.consume(version.headerSize + length - 1)
        }
        return sum
    }

    func next() -> CaptureRecord? {
        let headerSize = version.headerSize
        while true {
            let recordOffset = input.offset
            guard input.fill(headerSize) else {
                problems.endOfInput(input, frame: frame + 1, recordOffset: recordOffset, needed: headerSize)
                return nil
            }
            let length = Int(input.u16le(at: 0))
            let packetLength = version == .v2 ? Int(input.u16le(at: 2)) : nil
            let delta = Int64(input.u32le(at: headerSize - 5))
            let type = input.byte(at: headerSize - 1)
            guard length >= 1, let (h4, kind, direction) = Self.framing(type) else {
                frame += 1
                let reason =
                    length < 1
                    ? "record length 0 cannot hold its type"
                    : "record type 0x\(String(type, radix: 16)) is not one btsnooz writes"
                let skipped = input.resynchronize(headerSize: headerSize, after: started ? time : nil) {
                    candidate(at: $0, after: $1)
                }
                problems.add(
                    CaptureProblem(kind: .badRecord, frame: frame, offset: recordOffset, reason: reason, skippedBytes: skipped))
                if skipped != nil { continue }
                reportFailure()
                return nil
            }
            let total = headerSize + length - 1
            guard input.fill(total) else {
                problems.endOfInput(input, frame: frame + 1, recordOffset: recordOffset, needed: total)
                return nil
            }
            frame += 1
            if startsAtZero, !started { time = 0 } else { time &+= delta }
            started = true
            let payload = input.bytes(at: headerSize, count: length - 1)
            let record = CaptureRecord(
                frame: frame, timestamp: time, direction: direction, kind: kind, adapter: 0, linkType: linkType,
                sourceType: UInt16(h4), payload: payload,
                originalLength: originalLength(kind: kind, payload: payload, length: length, packetLength: packetLength),
                fileOffset: recordOffset)
            input.consume(total)
            return record
        }
    }

    /// The packet's length before the writer cut it: from `packet_length` (version 2), or from the
    /// ACL header's own length (version 1, which does not say).
    private func originalLength(kind: RecordKind, payload: UnsafeRawBufferPointer, length: Int, packetLength: Int?) -> Int {
        guard let packetLength else {
            let declared = kind == .acl ? HCILength.declared(kind: kind, packet: payload) : nil
            return max(payload.count, declared ?? 0)
        }
        if lengthBias == nil, kind == .command || kind == .event, (0...1).contains(packetLength - length) {
            lengthBias = packetLength - length
        }
        let whole = packetLength - (lengthBias ?? min(max(packetLength - length, 0), 1))
        return max(payload.count, whole - 1)
    }

    /// Could a record start at `index`? Only to resynchronize: length and type valid, a whole
    /// packet's own length agreeing with the record's.
    private func candidate(at index: Int, after reference: Int64?) -> ResumeCandidate? {
        let headerSize = version.headerSize
        guard input.fill(index + headerSize) else { return nil }
        let length = Int(input.u16le(at: index))
        guard length >= 1, let (_, kind, _) = Self.framing(input.byte(at: index + headerSize - 1)) else { return nil }
        let whole: Bool
        if version == .v2 {
            let packetLength = Int(input.u16le(at: index + 2))
            guard packetLength >= length else { return nil }
            whole = packetLength - length <= (lengthBias ?? 1)
        } else {
            whole = kind != .acl
        }
        let size = headerSize + length - 1
        guard input.fill(index + size) else { return nil }
        if whole, !HCILength.agrees(kind: kind, packet: input.bytes(at: index + headerSize, count: length - 1)) {
            return nil
        }
        let timestamp = (reference ?? 0) &+ Int64(input.u32le(at: index + headerSize - 5))
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
