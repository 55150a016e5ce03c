import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel
import TestSupport

/// Pairing material read out of a capture by this test alone, from the layouts in the spec (Core
/// v5.4: HCI Vol 4 Part E §7, SMP Vol 3 Part H §3.5–3.6, LL control Vol 6 Part B §2.4.2): keys
/// carried whole in one record. Only keys with at least four different bytes are kept, so a scan
/// for them cannot hit by chance.
enum KeyFinder {
    static func keys(in path: String) throws -> [[UInt8]] {
        let reader = try CaptureReader(path: path, formats: testFormats)
        var keys: [[UInt8]] = []
        func take(_ bytes: [UInt8], _ ranges: [Range<Int>]) {
            for range in ranges where range.upperBound <= bytes.count {
                let key = Array(bytes[range])
                if Set(key).count >= 4 { keys.append(key) }
            }
        }
        func smp(_ pdu: [UInt8]) {
            guard let code = pdu.first else { return }
            switch code {
            case 0x03, 0x04, 0x06, 0x08, 0x0A, 0x0D: take(pdu, [1..<17])
            case 0x07: take(pdu, [1..<11])
            case 0x0C: take(pdu, [1..<33, 33..<65])
            default: break
            }
        }
        /// An L2CAP frame whole in these bytes: the SMP PDU on channel 6.
        func l2cap(_ bytes: [UInt8]) {
            guard bytes.count >= 5, Int(bytes[0]) | Int(bytes[1]) << 8 == bytes.count - 4, bytes[2] == 6, bytes[3] == 0
            else { return }
            smp(Array(bytes[4...]))
        }
        while let record = reader.next() {
            let bytes = [UInt8](record.payload)
            switch record.kind {
            case .command where bytes.count >= 3:
                let opcode = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
                let p = Array(bytes[3...])
                switch opcode {
                case 0x201A: take(p, [2..<18])  // LE Long Term Key Request Reply
                case 0x2019: take(p, [2..<10, 12..<28])  // LE Enable Encryption
                case 0x2017: take(p, [0..<16, 16..<32])  // LE Encrypt
                case 0x040B: take(p, [6..<22])  // Link Key Request Reply
                default: break
                }
            case .event where bytes.count >= 2:
                let p = Array(bytes[2...])
                switch bytes[0] {
                case 0x18: take(p, [6..<22])  // Link Key Notification
                case 0x3E where p.first == 0x05: take(p, [3..<11])  // LE Long Term Key Request: Rand
                case 0x0E where p.count >= 4:
                    let opcode = UInt16(p[1]) | UInt16(p[2]) << 8
                    if opcode == 0x2017 { take(p, [4..<20]) }  // LE Encrypt's result
                    if opcode == 0x2018 { take(p, [4..<12]) }  // LE Rand
                default: break
                }
            case .acl where bytes.count > 4 && bytes[1] & 0x30 != 0x10:
                l2cap(Array(bytes[4...]))
            case .linkLayer:
                var r = ByteReader(record.payload)
                guard let packet = try? LinkLayerPacket(linkType: record.linkType.rawValue, parsing: &r),
                    !packet.isAdvertising
                else { continue }
                let payload = [UInt8](packet.payload.unread)
                switch packet.header0 & 0x03 {
                case 2: l2cap(payload)
                case 3 where payload.first == 0x03: take(payload, [1..<9, 11..<19, 19..<23])  // LL_ENC_REQ
                case 3 where payload.first == 0x04: take(payload, [1..<9, 9..<13])  // LL_ENC_RSP
                default: break
                }
            default:
                break
            }
        }
        return keys
    }
}

/// Scans a whole file in one pass, for the tests' "nothing left behind" checks.
enum ByteScan {
    /// Which of `addresses` the file holds in six consecutive bytes, in either byte order, or
    /// written as text ("C2:6B:30:F9:0E:C7", either case).
    static func addresses(in bytes: [UInt8], among addresses: Set<UInt64>) -> Set<UInt64> {
        var found: Set<UInt64> = []
        guard bytes.count >= 6 else { return found }
        for i in 0...(bytes.count - 6) {
            var little: UInt64 = 0
            var big: UInt64 = 0
            for k in 0..<6 {
                little |= UInt64(bytes[i + k]) << UInt64(8 * k)
                big = big << 8 | UInt64(bytes[i + k])
            }
            if addresses.contains(little) { found.insert(little) }
            if addresses.contains(big) { found.insert(big) }
            if i + 17 <= bytes.count, bytes[i + 2] == UInt8(ascii: ":"), bytes[i + 14] == UInt8(ascii: ":"),
                let text = BluetoothAddress(String(decoding: bytes[i..<i + 17], as: UTF8.self))
            {
                if addresses.contains(text.value) { found.insert(text.value) }
            }
        }
        return found
    }

    /// The needles (4 bytes or longer) that occur in `bytes`.
    static func occurrences(of needles: [[UInt8]], in bytes: [UInt8]) -> [[UInt8]] {
        let candidates = needles.filter { $0.count >= 4 }
        var byPrefix: [UInt32: [[UInt8]]] = [:]
        for needle in candidates {
            byPrefix[UInt32(needle[0]) | UInt32(needle[1]) << 8 | UInt32(needle[2]) << 16 | UInt32(needle[3]) << 24, default: []]
                .append(needle)
        }
        var found: Set<[UInt8]> = []
        guard bytes.count >= 4, !byPrefix.isEmpty else { return [] }
        for i in 0...(bytes.count - 4) {
            let prefix = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            guard let matches = byPrefix[prefix] else { continue }
            for needle in matches where i + needle.count <= bytes.count && bytes[i..<i + needle.count].elementsEqual(needle) {
                found.insert(needle)
            }
        }
        return Array(found)
    }
}
