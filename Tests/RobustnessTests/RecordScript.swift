import CaptureFiles
import CaptureModel

/// The tracker fuzz target's input format, also read here so that inputs kept from it replay as
/// tests (scripts/fuzz compiles this file into the target). Each record:
///
///   control  u8   bits 0-2 kind (command, event, acl, link layer, note, sco, other, acl),
///                 bit 3 received, bits 4-5 link type of a link-layer record (272, 251, 256, 147),
///                 bit 6 adapter 1, bit 7 a raw 8-byte timestamp follows instead of a step
///   step     u8   milliseconds since the record before (only when bit 7 is clear)
///   time     i64  little-endian microseconds (only when bit 7 is set)
///   length   u16  little-endian, cut to what is left
///   payload
enum RecordScript {
    static let kinds: [RecordKind] = [.command, .event, .acl, .linkLayer, .note, .sco, .other, .acl]
    static let linkTypes: [LinkType] = [.nordicBLE, .leLL, .leLLWithPHDR, .user0]

    static func records(_ bytes: [UInt8]) -> [StoredRecord] {
        var records: [StoredRecord] = []
        var index = 0
        var timestamp: Int64 = 1_700_000_000_000_000
        while index + 4 <= bytes.count {
            let control = bytes[index]
            index += 1
            if control & 0x80 != 0 {
                guard index + 8 <= bytes.count else { break }
                var raw: UInt64 = 0
                for i in (0..<8).reversed() { raw = raw << 8 | UInt64(bytes[index + i]) }
                timestamp = Int64(bitPattern: raw)
                index += 8
            } else {
                timestamp = timestamp &+ Int64(bytes[index]) * 1000
                index += 1
            }
            guard index + 2 <= bytes.count else { break }
            let length = min(Int(bytes[index]) | Int(bytes[index + 1]) << 8, bytes.count - index - 2)
            index += 2
            let kind = kinds[Int(control & 7)]
            records.append(
                StoredRecord(
                    frame: records.count + 1, timestamp: timestamp, direction: control & 8 != 0 ? .received : .sent,
                    kind: kind, adapter: UInt16(control >> 6 & 1),
                    linkType: kind == .linkLayer ? linkTypes[Int(control >> 4 & 3)] : .h4,
                    payload: Array(bytes[index..<index + length])))
            index += length
        }
        return records
    }

    /// The records of a capture in this format (for seeds), at most `limit` bytes of it.
    static func encode(_ records: [StoredRecord], limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        var last: Int64?
        for record in records {
            guard let kindIndex = kinds.firstIndex(of: record.kind) else { continue }
            var control = UInt8(kindIndex) | (record.direction == .received ? 8 : 0) | (record.adapter != 0 ? 0x40 : 0)
            if let linkIndex = linkTypes.firstIndex(of: record.linkType), record.kind == .linkLayer {
                control |= UInt8(linkIndex) << 4
            }
            var entry: [UInt8]
            if let last, record.timestamp >= last, record.timestamp - last < 255_000 {
                entry = [control, UInt8((record.timestamp - last) / 1000)]
            } else {
                entry = [control | 0x80]
                for i in 0..<8 {
                    entry.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: record.timestamp) >> (8 * i)))
                }
            }
            last = record.timestamp
            let payload = record.payload.prefix(0xFFFF)
            entry += [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
            if out.count + entry.count > limit { break }
            out += entry
        }
        return out
    }
}
