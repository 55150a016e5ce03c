import BluetoothPackets
import ByteReading
import CaptureModel
import Scrub
import Testing
import TestSupport

/// Sniffer captures: link-layer addresses, encryption set-up values, CRCs kept right.
struct LinkLayerRuleTests {
    static let accessAddress: UInt32 = 0xAF9A_84A1
    /// The CONNECT_IND sample's CRCInit (tshark: 0x5865dd).
    static let crcInit: UInt32 = 0x58_65DD

    static func parse(_ record: StoredRecord) -> LinkLayerPacket? {
        record.withRecord { record in
            var r = ByteReader(record.payload)
            return try? LinkLayerPacket(linkType: record.linkType.rawValue, parsing: &r)
        }
    }

    static func crcMatches(_ record: StoredRecord, _ initial: UInt32) -> Bool? {
        record.withRecord { record in
            var r = ByteReader(record.payload)
            return (try? LinkLayerPacket(linkType: record.linkType.rawValue, parsing: &r))?.crcMatches(initial: initial)
        }
    }

    /// A raw link-layer packet as USER0 carries it: access address, header, payload, CRC computed
    /// with `initial` (or made wrong).
    static func packet(_ header0: UInt8, _ payload: [UInt8], accessAddress: UInt32 = accessAddress,
        initial: UInt32 = crcInit, badCRC: Bool = false) -> [UInt8]
    {
        let pdu = [header0, UInt8(payload.count)] + payload
        var crc = pdu.withUnsafeBytes { LinkLayerCRC.compute($0, initial: initial) }
        var reversed: UInt32 = 0
        for i in 0..<24 where crc & (1 << UInt32(i)) != 0 { reversed |= 1 << UInt32(23 - i) }
        crc = reversed ^ (badCRC ? 1 : 0)
        let aa = (0..<4).map { UInt8(truncatingIfNeeded: accessAddress >> UInt32(8 * $0)) }
        return aa + pdu + (0..<3).map { UInt8(truncatingIfNeeded: crc >> UInt32(8 * $0)) }
    }

    /// The nRF Sniffer CONNECT_IND sample's PDU, as USER0 (access address onwards).
    static var connectIndication: [UInt8] { Array(LinkLayerSamples.connectIndication[17...]) }

    @Test func `nRF Sniffer advertising and CONNECT_IND addresses are mapped and their CRCs still match`() {
        var trace = Trace()
        trace.record(.linkLayer, .unknown, LinkLayerSamples.advertisement, linkType: .nordicBLE)
        trace.record(.linkLayer, .unknown, LinkLayerSamples.connectIndication, linkType: .nordicBLE)
        let (out, scrubber) = scrubbed(trace.records)
        // nRF header 17 bytes, access address 4, PDU header 2: AdvA (or InitA) at 23.
        #expect(address(in: out[0].payload, at: 23) == scrubber.pseudonym("14:AC:CA:5B:84:AD"))
        #expect(address(in: out[1].payload, at: 23) == scrubber.pseudonym("40:F1:98:B9:D1:03"))
        #expect(address(in: out[1].payload, at: 29) == scrubber.pseudonym("C0:48:FF:F5:9D:B8"))
        for (original, rewritten) in zip(trace.records, out) {
            #expect(Self.crcMatches(original, 0x55_5555) == true)
            #expect(Self.crcMatches(rewritten, 0x55_5555) == true)
            #expect(rewritten.payload != original.payload)
        }
        #expect(scrubber.statistics.crcsUpdated == 2)
    }

    @Test func `a PDU whose CRC was bad is rewritten and its CRC stays bad`() {
        var bad = LinkLayerSamples.advertisement
        bad[bad.count - 1] ^= 0x01
        // The nRF header's flags say the CRC is good: clear that, so the CRC itself decides.
        bad[8] &= ~0x01
        var trace = Trace()
        trace.record(.linkLayer, .unknown, bad, linkType: .nordicBLE)
        let (out, scrubber) = scrubbed(trace.records)
        #expect(Self.crcMatches(trace.records[0], 0x55_5555) == false)
        #expect(Self.crcMatches(out[0], 0x55_5555) == false)
        #expect(address(in: out[0].payload, at: 23) == scrubber.pseudonym("14:AC:CA:5B:84:AD"))
    }

    @Test func `LL_ENC_REQ and LL_ENC_RSP values are zeroed and the CRC matches the connection's CRCInit`() {
        var trace = Trace()
        trace.record(.linkLayer, .unknown, Self.connectIndication, linkType: .user0)
        let request = [0x03] + KeyRuleTests.key(1, 22)  // Rand, EDIV, SKDm, IVm
        let response = [0x04] + KeyRuleTests.key(2, 12)  // SKDs, IVs
        trace.record(.linkLayer, .unknown, Self.packet(0x03, request), linkType: .user0)
        trace.record(.linkLayer, .unknown, Self.packet(0x0B, response), linkType: .user0)
        let (out, scrubber) = scrubbed(trace.records)
        #expect(Self.crcMatches(trace.records[1], Self.crcInit) == true)
        for index in [1, 2] {
            #expect(out[index].payload[7..<(out[index].payload.count - 3)].allSatisfy { $0 == 0 })
            #expect(Self.crcMatches(out[index], Self.crcInit) == true)
            #expect(out[index].payload[6] == trace.records[index].payload[6])  // the opcode
        }
        #expect(scrubber.statistics.keysZeroed == 6)
    }

    @Test func `after LL_START_ENC_REQ the PDUs are encrypted and written as they were`() {
        var trace = Trace()
        trace.record(.linkLayer, .unknown, Self.connectIndication, linkType: .user0)
        trace.record(.linkLayer, .unknown, Self.packet(0x03, [0x05]), linkType: .user0, gap: 5_000)
        // Looks like an SMP Pairing Confirm, but it is ciphertext.
        let lookalike = le16(17) + le16(6) + [0x03] + KeyRuleTests.key(3)
        trace.record(.linkLayer, .unknown, Self.packet(0x02, lookalike), linkType: .user0)
        let (out, scrubber) = scrubbed(trace.records)
        #expect(out[2].payload == trace.records[2].payload)
        #expect(scrubber.statistics.encryptedPDUsLeft == 1)
    }

    @Test func `SMP on air is zeroed, and a retransmission the same way`() {
        var trace = Trace()
        trace.record(.linkLayer, .unknown, Self.connectIndication, linkType: .user0)
        let random = le16(17) + le16(6) + [0x04] + KeyRuleTests.key(4)
        // Same sequence number and bytes, 5 ms apart: the central sending its Pairing Random again.
        trace.record(.linkLayer, .unknown, Self.packet(0x02, random), linkType: .user0, gap: 5_000)
        trace.record(.linkLayer, .unknown, Self.packet(0x02, random), linkType: .user0, gap: 5_000)
        let (out, _) = scrubbed(trace.records)
        for index in [1, 2] {
            #expect(out[index].payload[11..<27].allSatisfy { $0 == 0 })
            #expect(Self.crcMatches(out[index], Self.crcInit) == true)
        }
        #expect(out[1].payload == out[2].payload)
    }
}
