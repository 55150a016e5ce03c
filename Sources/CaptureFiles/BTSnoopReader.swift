import CaptureModel

/// Reads btsnoop version 1 files: datalinks 1001 (HCI), 1002 (H4, Android) and 2001 (Linux monitor).
///
/// File header: "btsnoop\0", version u32, datalink u32. Each record: original length, included
/// length, flags, cumulative drops (u32 each) and a timestamp (i64, µs since year 0); all big-endian.
final class BTSnoopReader {
    static let magic: [UInt8] = Array("btsnoop\0".utf8)
    static let headerSize = 16
    static let recordHeaderSize = 24
    /// µs between 0000-01-01 and the Unix epoch, as btsnoop counts them.
    static let epochOffset: Int64 = 0x00dc_ddb3_0f2f_8000

    let datalink: LinkType
    /// How the datalink frames a record, decided once: switching on `datalink` per record read
    /// its cases from another module each time.
    private let framing: Framing
    private let input: InputBuffer
    @exclusivity(unchecked) private(set) var problems = ProblemLog()
    @exclusivity(unchecked) private var frame = 0
    @exclusivity(unchecked) private var lastTimestamp: Int64?

    init(input: InputBuffer, path: String) throws(CaptureError) {
        guard input.fill(Self.headerSize) else {
            throw .truncatedHeader(path: path, format: .btsnoop, have: input.available, need: Self.headerSize)
        }
        let version = input.u32be(at: 8)
        guard version == 1 else { throw .unsupportedVersion(path: path, format: .btsnoop, version: version) }
        datalink = LinkType(rawValue: input.u32be(at: 12))
        guard datalink == .btsnoopHCI || datalink == .btsnoopUART || datalink == .btsnoopMonitor else {
            throw .unsupportedDatalink(path: path, datalink: datalink)
        }
        framing = datalink == .btsnoopMonitor ? .monitor : datalink == .btsnoopHCI ? .hci : .h4
        self.input = input
        input.consume(Self.headerSize)
    }

    private enum Framing {
        /// 2001: the monitor opcode and adapter in the flags.
        case monitor
        /// 1001: direction and command/event in the flags.
        case hci
        /// 1002: direction in the flags, the packet type in the H4 byte before the packet.
        case h4
    }

    /// Whether the first record header (at `index`, after the file header) of an H4 file could be
    /// btsnoop's: lengths within bounds and consistent, flags 0 to 3. A btsnoop header followed by
    /// btsnooz records fails this at once (their lengths read as billions).
    static func plausibleFirstRecord(in input: InputBuffer, at index: Int) -> Bool {
        guard input.fill(index + recordHeaderSize) else { return true }
        let original = Int(input.u32be(at: index))
        let included = Int(input.u32be(at: index + 4))
        return included <= maximumRecordLength && included <= original && input.u32be(at: index + 8) <= 3
    }

    @inline(__always)
    func next() -> CaptureRecord? {
        while true {
            let recordOffset = input.offset
            guard input.fill(Self.recordHeaderSize) else {
                return endOfInput(recordOffset: recordOffset, needed: Self.recordHeaderSize)
            }
            // One checked view of the header, then its fields read from it unchecked.
            let header = input.bytes(at: 0, count: Self.recordHeaderSize)
            let originalLength = Int(UInt32(bigEndian: header.loadUnaligned(as: UInt32.self)))
            let includedLength = Int(UInt32(bigEndian: header.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
            let flags = UInt32(bigEndian: header.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            // Read here: the fill below may move the window, and `header` with it.
            let timestamp =
                Int64(bitPattern: UInt64(bigEndian: header.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
                &- Self.epochOffset
            if !isPlausible(includedLength: includedLength, flags: flags),
                let reason = implausibility(includedLength: includedLength, flags: flags)
            {
                frame += 1
                let skipped = resynchronize()
                report(.badRecord, offset: recordOffset, reason: reason, skipped: skipped)
                if skipped != nil { continue }
                reportFailure()
                return nil
            }
            guard input.fill(Self.recordHeaderSize + includedLength) else {
                return endOfInput(recordOffset: recordOffset, needed: Self.recordHeaderSize + includedLength)
            }
            frame += 1
            lastTimestamp = timestamp
            var record = CaptureRecord(
                frame: frame, timestamp: timestamp, direction: .unknown, kind: .other, adapter: 0,
                linkType: datalink, sourceType: 0,
                payload: input.bytes(at: Self.recordHeaderSize, count: includedLength),
                originalLength: max(originalLength, includedLength), fileOffset: recordOffset)
            frameRecord(&record, flags: flags)
            input.consume(Self.recordHeaderSize + includedLength)
            return record
        }
    }

    /// Fills in kind, direction and adapter from the flags, and strips the H4 byte of datalink 1002.
    @inline(__always)
    private func frameRecord(_ record: inout CaptureRecord, flags: UInt32) {
        switch framing {
        case .monitor:
            let opcode = UInt16(truncatingIfNeeded: flags)
            (record.kind, record.direction) = HCIFraming.monitor(opcode: opcode)
            record.adapter = UInt16(truncatingIfNeeded: flags >> 16)
            record.sourceType = opcode
        case .hci:
            let received = flags & 1 != 0
            record.direction = received ? .received : .sent
            record.kind = flags & 2 != 0 ? (received ? .event : .command) : .acl
            record.sourceType = UInt16(record.kind.h4Type ?? 0)
        case .h4:
            record.direction = flags & 1 != 0 ? .received : .sent
            let payload = record.payload
            if let start = payload.baseAddress, !payload.isEmpty, let kind = RecordKind(h4Type: payload[0]) {
                record.kind = kind
                record.sourceType = UInt16(payload[0])
                record.payload = UnsafeRawBufferPointer(start: start + 1, count: payload.count - 1)
                record.originalLength -= 1
            } else {
                record.kind = .other
                record.sourceType = UInt16(payload.first ?? 0)
            }
        }
    }

    /// The test of `implausibility`, without building its message: it runs once per record.
    @inline(__always)
    private func isPlausible(includedLength: Int, flags: UInt32) -> Bool {
        includedLength <= maximumRecordLength && (framing == .monitor ? flags & 0xFFFF <= 0x40 : flags <= 3)
    }

    private func implausibility(includedLength: Int, flags: UInt32) -> String? {
        if includedLength > maximumRecordLength {
            return "record length \(includedLength) exceeds the 64 KiB maximum"
        }
        if datalink == .btsnoopMonitor {
            let opcode = flags & 0xFFFF
            if opcode > 0x40 { return "unknown monitor opcode \(opcode)" }
        } else if flags > 3 {
            return "flags 0x\(String(flags, radix: 16)) are not valid for datalink \(datalink.rawValue)"
        }
        return nil
    }

    /// Could a record start at `index` of the unread input? Used only to resynchronize, so it
    /// checks everything a real record has: lengths within bounds and consistent (the HCI packet's
    /// own length equal to what the record holds, unless snapped), flags or opcode and H4 type
    /// valid, no drops, and a time close to `reference`.
    private func candidate(at index: Int, after reference: Int64?) -> ResumeCandidate? {
        guard input.fill(index + Self.recordHeaderSize) else { return nil }
        let original = Int(input.u32be(at: index))
        let included = Int(input.u32be(at: index + 4))
        let flags = input.u32be(at: index + 8)
        guard included <= original, implausibility(includedLength: included, flags: flags) == nil else { return nil }
        if input.u32be(at: index + 12) != 0 { return nil }  // cumulative drops: always 0 in practice
        let timestamp = Int64(bitPattern: input.u64be(at: index + 16)) &- Self.epochOffset
        guard PlausibleTime.accepts(timestamp, after: reference) else { return nil }
        let size = Self.recordHeaderSize + included
        guard input.fill(index + size) else { return nil }
        var packet = input.bytes(at: index + Self.recordHeaderSize, count: included)
        let kind: RecordKind
        switch datalink {
        case .btsnoopMonitor:
            kind = HCIFraming.monitor(opcode: UInt16(truncatingIfNeeded: flags)).0
        case .btsnoopHCI:
            kind = flags & 2 != 0 ? (flags & 1 != 0 ? .event : .command) : .acl
        default:
            guard included > 0, let h4 = RecordKind(h4Type: input.byte(at: index + Self.recordHeaderSize)) else {
                return nil
            }
            kind = h4
            packet = UnsafeRawBufferPointer(rebasing: packet.dropFirst())
        }
        if included == original, !HCILength.agrees(kind: kind, packet: packet) { return nil }
        return ResumeCandidate(size: size, timestamp: timestamp)
    }

    private func resynchronize() -> Int64? {
        input.resynchronize(headerSize: Self.recordHeaderSize, after: lastTimestamp) { candidate(at: $0, after: $1) }
    }

    private func endOfInput(recordOffset: Int64, needed: Int) -> CaptureRecord? {
        problems.endOfInput(input, frame: frame + 1, recordOffset: recordOffset, needed: needed)
        return nil
    }

    private func report(
        _ kind: CaptureProblem.Kind, offset: Int64, reason: String, frame: Int? = nil, skipped: Int64? = nil
    ) {
        problems.add(
            CaptureProblem(kind: kind, frame: frame ?? self.frame, offset: offset, reason: reason, skippedBytes: skipped))
    }

    /// A read that failed while looking for the next record (a damaged gzip, a limit passed) is
    /// damage of its own: reported after the record that started the search.
    private func reportFailure() {
        if let failure = input.failure {
            problems.add(CaptureProblem(kind: .readError, frame: frame + 1, offset: input.offset, reason: failure.message))
        }
    }
}
