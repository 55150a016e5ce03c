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
        self.input = input
        input.consume(Self.headerSize)
    }

    func next() -> CaptureRecord? {
        while true {
            let recordOffset = input.offset
            guard input.fill(Self.recordHeaderSize) else {
                return endOfInput(recordOffset: recordOffset, needed: Self.recordHeaderSize)
            }
            let originalLength = Int(input.u32be(at: 0))
            let includedLength = Int(input.u32be(at: 4))
            let flags = input.u32be(at: 8)
            if !isPlausible(includedLength: includedLength, flags: flags),
                let reason = implausibility(includedLength: includedLength, flags: flags)
            {
                frame += 1
                let skipped = resynchronize()
                report(.badRecord, offset: recordOffset, reason: reason, skipped: skipped)
                if skipped != nil { continue }
                return nil
            }
            guard input.fill(Self.recordHeaderSize + includedLength) else {
                return endOfInput(recordOffset: recordOffset, needed: Self.recordHeaderSize + includedLength)
            }
            frame += 1
            let timestamp = Int64(bitPattern: input.u64be(at: 16)) &- Self.epochOffset
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
        switch datalink {
        case .btsnoopMonitor:
            let opcode = UInt16(truncatingIfNeeded: flags)
            (record.kind, record.direction) = HCIFraming.monitor(opcode: opcode)
            record.adapter = UInt16(truncatingIfNeeded: flags >> 16)
            record.sourceType = opcode
        case .btsnoopHCI:
            let received = flags & 1 != 0
            record.direction = received ? .received : .sent
            record.kind = flags & 2 != 0 ? (received ? .event : .command) : .acl
            record.sourceType = UInt16(record.kind.h4Type ?? 0)
        default:
            record.direction = flags & 1 != 0 ? .received : .sent
            if let type = record.payload.first, let kind = RecordKind(h4Type: type) {
                record.kind = kind
                record.sourceType = UInt16(type)
                record.payload = UnsafeRawBufferPointer(rebasing: record.payload.dropFirst())
                record.originalLength -= 1
            } else {
                record.kind = .other
                record.sourceType = UInt16(record.payload.first ?? 0)
            }
        }
    }

    /// The test of `implausibility`, without building its message: it runs once per record.
    @inline(__always)
    private func isPlausible(includedLength: Int, flags: UInt32) -> Bool {
        includedLength <= maximumRecordLength && (datalink == .btsnoopMonitor ? flags & 0xFFFF <= 0x40 : flags <= 3)
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

    /// Could a record header start at `index` of the unread input? Used only to resynchronize.
    private func plausibleHeader(at index: Int) -> Bool {
        guard input.fill(index + Self.recordHeaderSize) else { return false }
        let original = Int(input.u32be(at: index))
        let included = Int(input.u32be(at: index + 4))
        guard included <= original, implausibility(includedLength: included, flags: input.u32be(at: index + 8)) == nil
        else { return false }
        if input.u32be(at: index + 12) != 0 { return false }  // cumulative drops: always 0 in practice
        if let last = lastTimestamp {
            // Within an hour before and a day after the last record; a damaged timestamp can be
            // anywhere in Int64, so the difference is taken without overflowing.
            let ts = Int64(bitPattern: input.u64be(at: index + 16)) &- Self.epochOffset
            let (delta, overflow) = ts.subtractingReportingOverflow(last)
            if overflow || delta < -3_600_000_000 || delta > 86_400_000_000 { return false }
        }
        if datalink == .btsnoopUART, included > 0 {
            guard input.fill(index + Self.recordHeaderSize + 1),
                RecordKind(h4Type: input.byte(at: index + Self.recordHeaderSize)) != nil
            else { return false }
        }
        return true
    }

    private func resynchronize() -> Int64? {
        input.resynchronize(headerSize: Self.recordHeaderSize) { index in
            plausibleHeader(at: index) ? Self.recordHeaderSize + Int(input.u32be(at: index + 4)) : nil
        }
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
}
