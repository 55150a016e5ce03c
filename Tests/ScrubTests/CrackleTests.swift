import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// The crackle captures (LE legacy pairing over PPI/USER0, LE Secure Connections over LE LL with
/// pseudo-header), sniffed over the air: after scrubbing, what crackle needs to recover the keys is
/// gone, and every PDU's CRC is as good or as bad as it was.
struct CrackleTests {
    struct PDU {
        var frame: Int
        var packet: LinkLayerPacket
        var payload: [UInt8]
        var crcGood: Bool?
    }

    /// Each link-layer record with its CRC checked as a sniffer would: 0x555555 on advertising
    /// channels, the CONNECT_IND's CRCInit on the connection.
    static func pdus(_ bytes: [UInt8], name: String) throws -> [PDU] {
        let reader = try CaptureReader(bytes: bytes, name: name, formats: testFormats)
        var crcInit: [UInt32: UInt32] = [:]
        var result: [PDU] = []
        while let record = reader.next() {
            var r = ByteReader(record.payload)
            guard let packet = try? LinkLayerPacket(linkType: record.linkType.rawValue, parsing: &r) else { continue }
            let payload = [UInt8](packet.payload.unread)
            if packet.isAdvertising, packet.header0 & 0x0F == 5, payload.count >= 22 {
                let aa = UInt32(payload[12]) | UInt32(payload[13]) << 8 | UInt32(payload[14]) << 16 | UInt32(payload[15]) << 24
                crcInit[aa] = UInt32(payload[16]) | UInt32(payload[17]) << 8 | UInt32(payload[18]) << 16
            }
            let initial = packet.isAdvertising ? 0x55_5555 : crcInit[packet.accessAddress]
            result.append(
                PDU(frame: record.frame, packet: packet, payload: payload,
                    crcGood: packet.metadata.crcValid ?? initial.flatMap { packet.crcMatches(initial: $0) }))
        }
        return result
    }

    static func scrub(_ name: String) throws -> (before: [PDU], after: [PDU])? {
        guard let directory = TestPaths.sharedCaptures, let input = TestPaths.readFile(directory + "/" + name) else {
            print("skipped \(name): ../shared/captures is not here")
            return nil
        }
        let output = TestPaths.temporaryDirectory() + "/" + name
        let (code, _, err) = runTool(["scrub", directory + "/" + name, "-o", output, "--seed", "1"])
        #expect(code == 0, "\(err)")
        let before = try pdus(input, name: name)
        let after = try pdus(TestPaths.readFile(output) ?? [], name: name)
        #expect(before.count == after.count)
        for (a, b) in zip(before, after) { #expect(a.crcGood == b.crcGood, "frame \(a.frame): CRC validity changed") }
        return (before, after)
    }

    /// SMP PDUs on air whose L2CAP frame is whole in one PDU: (frame, code, values).
    static func smp(_ pdus: [PDU]) -> [(frame: Int, code: UInt8, values: [UInt8])] {
        pdus.compactMap { pdu in
            let p = pdu.payload
            guard !pdu.packet.isAdvertising, pdu.packet.header0 & 0x03 == 2, p.count >= 5, p[2] == 6, p[3] == 0,
                Int(p[0]) | Int(p[1]) << 8 == p.count - 4
            else { return nil }
            return (pdu.frame, p[4], Array(p[5...]))
        }
    }

    static func control(_ pdus: [PDU], _ opcode: UInt8) -> [[UInt8]] {
        pdus.filter { !$0.packet.isAdvertising && $0.packet.header0 & 0x03 == 3 && $0.payload.first == opcode }
            .map { Array($0.payload.dropFirst()) }
    }

    @Test func `legacy pairing: confirm and random values are zero, and the LTK exchange cannot be decrypted`() throws {
        guard let (before, after) = try Self.scrub("crackle__pairing_and_ltk_exchange.pcap") else { return }
        // tshark (with DLT 147 as btle): Pairing Confirm in frames 569 and 572, Pairing Random in 573 and 576.
        let original = Self.smp(before)
        #expect(original.filter { $0.code == 3 }.map(\.frame) == [569, 572])
        #expect(original.filter { $0.code == 4 }.map(\.frame) == [573, 576])
        #expect(original.filter { $0.code == 3 || $0.code == 4 }.allSatisfy { $0.values.contains { $0 != 0 } })
        let scrubbed = Self.smp(after).filter { $0.code == 3 || $0.code == 4 }
        #expect(scrubbed.count == 4)
        // crackle finds the TK by trying every value against the confirm (c1 of TK, Mrand, …): with
        // confirm and random all zero there is nothing to try against.
        #expect(scrubbed.allSatisfy { $0.values == [UInt8](repeating: 0, count: 16) })
        // The LTK goes over the encrypted link; LL_ENC_REQ and LL_ENC_RSP give the session key's
        // diversifiers and IVs, without which it cannot be decrypted (frames 577 and 580).
        #expect(Self.control(before, 0x03).count == 1)
        #expect(Self.control(before, 0x03).allSatisfy { $0.contains { $0 != 0 } })
        #expect(Self.control(after, 0x03) == [[UInt8](repeating: 0, count: 22)])
        #expect(Self.control(after, 0x04) == [[UInt8](repeating: 0, count: 12)])
    }

    @Test func `LE Secure Connections: public keys, confirm, random and DHKey checks are zero`() throws {
        guard let (before, after) = try Self.scrub("crackle__le_secure_connections.pcapng") else { return }
        // tshark: Pairing Confirm 140, Pairing Random 143 and 148, DHKey Check 151 and 156, each in one PDU.
        let whole = Self.smp(after).filter { [3, 4, 13].contains($0.code) }
        #expect(whole.map(\.frame) == [140, 143, 148, 151, 156])
        #expect(whole.allSatisfy { $0.values == [UInt8](repeating: 0, count: 16) })
        #expect(Self.smp(before).filter { [3, 4, 13].contains($0.code) }.allSatisfy { $0.values.contains { $0 != 0 } })
        // The two Pairing Public Keys come in three fragments each (tshark: 71, 73, 75 and 134, 136, 138):
        // every byte after the L2CAP header and the SMP code is zero.
        for frames in [[71, 73, 75], [134, 136, 138]] {
            let parts = frames.compactMap { frame in after.first { $0.frame == frame } }
            #expect(parts.count == 3)
            #expect(parts[0].payload[5...].allSatisfy { $0 == 0 })
            #expect(parts[1...].allSatisfy { $0.payload.allSatisfy { $0 == 0 } })
            let original = frames.compactMap { frame in before.first { $0.frame == frame } }
            #expect(original[1...].allSatisfy { $0.payload.contains { $0 != 0 } })
        }
        #expect(Self.control(after, 0x03) == [[UInt8](repeating: 0, count: 22)])
        #expect(Self.control(after, 0x04) == [[UInt8](repeating: 0, count: 12)])
    }
}
