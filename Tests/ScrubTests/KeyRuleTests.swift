import BluetoothPackets
import CaptureModel
import Scrub
import Testing

/// Pairing material: zeroed where it stands, every length and every other byte kept.
struct KeyRuleTests {
    static let peer = "C2:6B:30:F9:0E:C7"

    /// Sixteen bytes that are not zero, different for each `seed`.
    static func key(_ seed: UInt8, _ count: Int = 16) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0 &+ 1) } }

    /// `expected` where the record should be zero, the rest as it was.
    static func expectZeroed(_ out: StoredRecord, _ original: StoredRecord, _ ranges: [Range<Int>],
        sourceLocation: SourceLocation = #_sourceLocation)
    {
        var expected = original.payload
        for range in ranges { for i in range { expected[i] = 0 } }
        #expect(out.payload == expected, sourceLocation: sourceLocation)
        #expect(ranges.allSatisfy { range in original.payload[range].contains { $0 != 0 } }, sourceLocation: sourceLocation)
    }

    @Test func `SMP confirm, random, keys and DHKey check are zeroed and the identity address mapped`() {
        var trace = Trace()
        trace.connect(0x40, peer: Self.peer)
        let identity = "D0:11:22:33:44:55"
        let pdus: [[UInt8]] = [
            [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07],  // Pairing Request: kept
            [0x03] + Self.key(1),  // Pairing Confirm
            [0x04] + Self.key(2),  // Pairing Random
            [0x06] + Self.key(3),  // Encryption Information (LTK)
            [0x07] + Self.key(4, 10),  // Central Identification: EDIV, Rand
            [0x08] + Self.key(5),  // Identity Information (IRK)
            [0x09, 0x00] + wire(identity),  // Identity Address Information
            [0x0A] + Self.key(6),  // Signing Information (CSRK)
            [0x0C] + Self.key(7, 64),  // Pairing Public Key
            [0x0D] + Self.key(8),  // DHKey Check
        ]
        for pdu in pdus { trace.smp(0x40, .received, pdu) }
        let (out, scrubber) = scrubbed(trace.records)
        // ACL header 4, L2CAP header 4, SMP code: values from byte 9.
        #expect(out[1].payload == trace.records[1].payload)
        for index in [2, 3, 4, 6, 8, 9, 10] {
            Self.expectZeroed(out[index], trace.records[index], [9..<trace.records[index].payload.count])
        }
        Self.expectZeroed(out[5], trace.records[5], [9..<11, 11..<19])
        #expect(address(in: out[7].payload, at: 10) == scrubber.pseudonym(identity))
        #expect(scrubber.statistics.keysZeroed == 9)
    }

    @Test func `a public key split over three ACL fragments is zeroed in each`() {
        var trace = Trace()
        trace.connect(0x40, peer: Self.peer)
        let frame = le16(65) + le16(6) + [0x0C] + Self.key(9, 64)
        trace.acl(0x40, .received, Array(frame[0..<27]))
        trace.event(0x13, hex("01 40 00 01 00"))  // Number of Completed Packets in between
        trace.acl(0x40, .received, Array(frame[27..<54]), start: false)
        trace.acl(0x40, .received, Array(frame[54...]), start: false)
        let (out, _) = scrubbed(trace.records)
        Self.expectZeroed(out[1], trace.records[1], [9..<31])
        #expect(out[2].payload == trace.records[2].payload)
        Self.expectZeroed(out[3], trace.records[3], [4..<31])
        Self.expectZeroed(out[4], trace.records[4], [4..<19])
        #expect(out.map(\.frame) == [1, 2, 3, 4, 5])
    }

    @Test func `LE encryption keys in HCI commands and events are zeroed`() {
        var trace = Trace()
        trace.leMeta(0x05, le16(0x40) + Self.key(1, 8) + [0x12, 0x34])  // LE Long Term Key Request: Rand, EDIV
        trace.command(0x201A, le16(0x40) + Self.key(2))  // LE Long Term Key Request Reply
        trace.command(0x2019, le16(0x40) + Self.key(3, 8) + [0x56, 0x78] + Self.key(4))  // LE Enable Encryption
        trace.command(0x2017, Self.key(5) + Self.key(6))  // LE Encrypt: key, plaintext
        trace.commandComplete(0x2017, Self.key(7))  // its encrypted block
        trace.commandComplete(0x2018, Self.key(8, 8))  // LE Rand
        trace.command(0x2026, Self.key(9, 64))  // LE Generate DHKey
        trace.leMeta(0x09, [0x00] + Self.key(10, 32))  // LE Generate DHKey Complete
        let (out, scrubber) = scrubbed(trace.records)
        Self.expectZeroed(out[0], trace.records[0], [5..<13, 13..<15])
        Self.expectZeroed(out[1], trace.records[1], [5..<21])
        Self.expectZeroed(out[2], trace.records[2], [5..<13, 13..<15, 15..<31])
        Self.expectZeroed(out[3], trace.records[3], [3..<19, 19..<35])
        Self.expectZeroed(out[4], trace.records[4], [6..<22])
        Self.expectZeroed(out[5], trace.records[5], [6..<14])
        Self.expectZeroed(out[6], trace.records[6], [3..<67])
        Self.expectZeroed(out[7], trace.records[7], [4..<36])
        #expect(scrubber.statistics.keysZeroed == 12)
    }

    @Test func `classic link keys, PIN codes and passkeys are zeroed and addresses mapped`() {
        let phone = "A4:5E:60:11:22:33"
        var trace = Trace()
        trace.event(0x03, [0x00, 0x0B, 0x00] + wire(phone) + [0x01, 0x00])  // Connection Complete
        trace.event(0x17, wire(phone))  // Link Key Request
        trace.command(0x040B, wire(phone) + Self.key(1))  // Link Key Request Reply
        trace.event(0x18, wire(phone) + Self.key(2) + [0x04])  // Link Key Notification
        trace.command(0x040D, wire(phone) + [0x04] + Array("1234".utf8) + [UInt8](repeating: 0, count: 12))  // PIN Code Request Reply
        trace.event(0x3B, wire(phone) + [0x40, 0xE2, 0x01, 0x00])  // User Passkey Notification: 123456
        let (out, scrubber) = scrubbed(trace.records)
        let pseudonym = scrubber.pseudonym(phone)!
        #expect(address(in: out[0].payload, at: 5) == pseudonym)
        #expect(address(in: out[1].payload, at: 2) == pseudonym)
        #expect(address(in: out[2].payload, at: 3) == pseudonym)
        #expect(out[2].payload[9...].allSatisfy { $0 == 0 })
        #expect(address(in: out[3].payload, at: 2) == pseudonym)
        #expect(out[3].payload[8..<24].allSatisfy { $0 == 0 })
        #expect(out[3].payload[24] == 0x04)  // key type kept
        #expect(out[4].payload[9] == 4)  // PIN length kept
        #expect(out[4].payload[10...].allSatisfy { $0 == 0 })
        #expect(out[5].payload[8...].allSatisfy { $0 == 0 })
        #expect(out.map(\.payload.count) == trace.records.map(\.payload.count))
    }
}
