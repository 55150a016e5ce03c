import BluetoothPackets
import CaptureModel
import Testing

@testable import Scrub

/// Addresses: pseudonyms, their type bits, where they are found.
struct AddressRuleTests {
    // LE Advertising Report: event code, length, subevent, count, event type, address type → address at 6.
    static let reportAddress = 6

    @Test func `a pseudonym keeps the type bits and is the same in every field`() {
        let staticRandom = "C2:6B:30:F9:0E:C7"  // top bits 11
        let resolvable = "5A:11:22:33:44:55"  // 01
        let nonResolvable = "1A:11:22:33:44:56"  // 00
        let publicAddress = "00:1B:DC:07:32:EF"
        var trace = Trace()
        for text in [staticRandom, resolvable, nonResolvable, publicAddress] { trace.advertising(text, data: hex("02 01 06")) }
        // LE Create Connection (§7.8.12): the peer address after interval, window, policy and type.
        trace.command(0x200D, hex("60 00 30 00 00 01") + wire(staticRandom) + hex("00 18 00 28 00 00 00 F4 01 00 00 00 00"))
        trace.connect(0x40, peer: staticRandom)
        let (out, scrubber) = scrubbed(trace.records)
        for (index, text) in [staticRandom, resolvable, nonResolvable, publicAddress].enumerated() {
            let original = BluetoothAddress(text)!
            let pseudonym = address(in: out[index].payload, at: Self.reportAddress)
            #expect(pseudonym != original)
            #expect(pseudonym == scrubber.pseudonym(text))
            #expect(pseudonym.value >> 46 == original.value >> 46, "random address sub-type of \(text)")
            #expect((pseudonym.value >> 40) & 0x03 == (original.value >> 40) & 0x03, "group and local bits of \(text)")
        }
        #expect(address(in: out[4].payload, at: 9) == scrubber.pseudonym(staticRandom))
        // LE Connection Complete: code, length, subevent, status, handle, role, type → peer at 8.
        #expect(address(in: out[5].payload, at: 8) == scrubber.pseudonym(staticRandom))
        #expect(scrubber.addressMap.count == 4)
        #expect(out.map(\.payload.count) == trace.records.map(\.payload.count))
    }

    @Test func `keep-oui keeps the top 24 bits and changes the rest`() {
        var trace = Trace()
        trace.advertising("00:1B:DC:07:32:EF", type: 0, data: [])
        let (out, _) = scrubbed(trace.records, ScrubOptions(seed: 1, keepOUI: true))
        let pseudonym = address(in: out[0].payload, at: Self.reportAddress)
        #expect(pseudonym.value >> 24 == 0x001BDC)
        #expect(pseudonym.value & 0xFF_FFFF != 0x0732EF)
    }

    @Test func `all zeros and all ones name no device and stay`() {
        var trace = Trace()
        trace.advertising("00:00:00:00:00:00", data: [])
        trace.advertising("FF:FF:FF:FF:FF:FF", data: [])
        let (out, scrubber) = scrubbed(trace.records)
        #expect(out.map(\.payload) == trace.records.map(\.payload))
        #expect(scrubber.addressMap.isEmpty)
    }

    @Test func `the same seed gives the same pseudonyms, another seed others, and none is an address of the capture`() {
        var trace = Trace()
        let addresses = (0..<200).map { String(format6: 0xC0_0000_0000_00 | UInt64($0) &* 0x0101_0307_0B11) }
        for text in addresses { trace.advertising(text, data: []) }
        let (first, one) = scrubbed(trace.records)
        let (again, _) = scrubbed(trace.records)
        let (other, _) = scrubbed(trace.records, ScrubOptions(seed: 2))
        #expect(first.map(\.payload) == again.map(\.payload))
        #expect(first.map(\.payload) != other.map(\.payload))
        let originals = Set(addresses.map { BluetoothAddress($0)! })
        let pseudonyms = one.addressMap.map(\.pseudonym)
        #expect(Set(pseudonyms).count == addresses.count)
        #expect(originals.isDisjoint(with: pseudonyms))
    }

    @Test func `without a seed each run draws new pseudonyms`() {
        var trace = Trace()
        trace.advertising("C2:6B:30:F9:0E:C7", data: [])
        let (a, _) = scrubbed(trace.records, ScrubOptions())
        let (b, _) = scrubbed(trace.records, ScrubOptions())
        #expect(a[0].payload != b[0].payload)
    }

    @Test func `AD structures holding addresses are mapped like the report's own address`() {
        let device = "C2:6B:30:F9:0E:C7"
        let target = "D4:11:22:33:44:55"
        var trace = Trace()
        // LE Bluetooth Device Address (0x1B): address and type; Public Target Address (0x17): a list.
        let data = [0x08, 0x1B] + wire(device) + [0x01] + [0x0D, 0x17] + wire(target) + wire(device)
        trace.advertising(device, data: data)
        let (out, scrubber) = scrubbed(trace.records)
        let dataStart = Self.reportAddress + 7
        #expect(address(in: out[0].payload, at: dataStart + 2) == scrubber.pseudonym(device))
        #expect(out[0].payload[dataStart + 8] == 0x01)
        #expect(address(in: out[0].payload, at: dataStart + 11) == scrubber.pseudonym(target))
        #expect(address(in: out[0].payload, at: dataStart + 17) == scrubber.pseudonym(device))
    }

    @Test func `copies of an address in manufacturer data are replaced in either byte order`() {
        let device = "C2:6B:30:F9:0E:C7"
        var trace = Trace()
        let bigEndian = Array(wire(device).reversed())
        trace.advertising(device, data: [0x0F, 0xFF, 0x4C, 0x00] + bigEndian + wire(device))
        let (out, scrubber) = scrubbed(trace.records)
        let pseudonym = scrubber.pseudonym(device)!.wireBytes
        let data = Array(out[0].payload[(Self.reportAddress + 11)..<(Self.reportAddress + 23)])
        #expect(data == Array(pseudonym.reversed()) + pseudonym)
    }

    @Test func `a placeholder like 00:00:00:00:00:01 is mapped in its field but not looked for elsewhere`() {
        var trace = Trace()
        // LE Add Device To Resolving List (§7.8.38): type, address, peer IRK, local IRK.
        trace.command(0x2027, [0x00] + wire("00:00:00:00:00:01") + [UInt8](repeating: 0, count: 32))
        // Its bytes (a one and five zeros) in a name field's padding mean nothing.
        trace.commandComplete(0x0C14, Array("A".utf8) + [0x01] + [UInt8](repeating: 0, count: 246))
        let (out, scrubber) = scrubbed(trace.records)
        #expect(address(in: out[0].payload, at: 4) == scrubber.pseudonym("00:00:00:00:00:01"))
        #expect(out[1].payload == trace.records[1].payload)
    }

    @Test func `addresses written as text are replaced, keeping their case`() {
        var trace = Trace()
        trace.commandComplete(0x1009, wire("00:1B:DC:07:32:EF"))  // Read BD_ADDR
        trace.note("Local Address: 00:1b:dc:07:32:ef\n")
        trace.note("found 11:22:33:44:55:66 rssi -60")  // an address seen only as text
        trace.note("key 01:02:03:04:05:06:07")  // part of something longer
        let (out, scrubber) = scrubbed(trace.records)
        let local = scrubber.pseudonym("00:1B:DC:07:32:EF")!.description.lowercased()
        #expect(String(decoding: out[1].payload, as: UTF8.self) == "Local Address: \(local)\n")
        let found = scrubber.pseudonym("11:22:33:44:55:66")!.description
        #expect(String(decoding: out[2].payload, as: UTF8.self) == "found \(found) rssi -60")
        #expect(out[3].payload == trace.records[3].payload)
    }

    @Test func `Linux monitor index records and management events are rewritten`() {
        let adapter = "5C:F3:70:8B:12:34"
        let peer = "D8:3A:DD:00:11:22"
        let ltk = [UInt8](1...16)
        var trace = Trace()
        // New Index (opcode 0): type, bus, address, name; Index Info (10): address, manufacturer.
        trace.record(.other, .unknown, [0x00, 0x01] + wire(adapter) + Array("hci0\0\0\0\0".utf8), linkType: .btsnoopMonitor)
        trace.record(.other, .unknown, wire(adapter) + [0x02, 0x00], linkType: .btsnoopMonitor)
        // Control Event (17): cookie, MGMT_EV_NEW_LONG_TERM_KEY (0x000A): store hint, address, type,
        // key type, central, encryption size, EDIV, Rand, value (BlueZ doc/mgmt-api.txt).
        trace.record(
            .other, .unknown,
            [1, 0, 0, 0] + le16(0x000A) + [0x01] + wire(peer) + [0x01, 0x00, 0x01, 0x10] + [0x34, 0x12]
                + [UInt8](repeating: 0xA5, count: 8) + ltk, linkType: .btsnoopMonitor)
        var records = trace.records
        records[0].sourceType = 0
        records[1].sourceType = 10
        records[2].sourceType = 17
        let (out, scrubber) = scrubbed(records)
        #expect(address(in: out[0].payload, at: 2) == scrubber.pseudonym(adapter))
        #expect(Array(out[0].payload[8...]) == Array("hci0\0\0\0\0".utf8))
        #expect(address(in: out[1].payload, at: 0) == scrubber.pseudonym(adapter))
        #expect(address(in: out[2].payload, at: 7) == scrubber.pseudonym(peer))
        #expect(out[2].payload[17...].allSatisfy { $0 == 0 })
        #expect(out[2].payload.count == records[2].payload.count)
    }

    /// SipHash reference implementation, vectors.h, vectors_sip64: key 00…0f, the 8-byte message
    /// 00…07 gives 62 24 93 9a 79 f5 f5 93.
    @Test func `the keyed hash is SipHash-2-4`() {
        let hash = KeyedHash(k0: 0x0706_0504_0302_0100, k1: 0x0F0E_0D0C_0B0A_0908)
        #expect(hash.hash(0x0706_0504_0302_0100) == 0x93F5_F579_9A93_2462)
    }
}

extension String {
    /// "C0:00:…" from a 48-bit value.
    init(format6 value: UInt64) { self = BluetoothAddress(value).description }
}
