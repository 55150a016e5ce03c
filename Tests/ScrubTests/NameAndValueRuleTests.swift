import BluetoothPackets
import CaptureModel
import Scrub
import Testing

/// Device names (with --names) and characteristic values (--values).
struct NameAndValueRuleTests {
    static let peer = "C2:6B:30:F9:0E:C7"
    static let names = ScrubOptions(seed: 1, names: true)

    static func completeName(_ name: String) -> [UInt8] { [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8) }
    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func `local names become device-N of the same length, in the order first seen`() {
        var trace = Trace()
        trace.advertising(Self.peer, data: Self.completeName("EnvSensor-01"))
        trace.advertising("D0:11:22:33:44:55", data: [0x04, 0x08] + Array("Env".utf8))  // shortened
        trace.advertising("D0:11:22:33:44:56", data: Self.completeName("AB"))
        trace.advertising("D0:11:22:33:44:57", data: Self.completeName("X"))
        trace.advertising("D0:11:22:33:44:58", data: Self.completeName("EnvSensor-01"))
        let (out, scrubber) = scrubbed(trace.records, Self.names)
        let name = { (index: Int) in Self.text(out[index].payload[15..<(out[index].payload.count - 1)]) }
        #expect(name(0) == "device-1    ")
        #expect(name(1) == "d-2")
        #expect(name(2) == "d3")
        #expect(name(3) == "4")
        #expect(name(4) == "device-1    ")
        #expect(scrubber.nameMap.map(\.pseudonym) == ["device-1", "device-2", "device-3", "device-4"])
        #expect(scrubber.nameMap.first?.original == Array("EnvSensor-01".utf8))
        // Kept without --names.
        let (kept, _) = scrubbed(trace.records)
        #expect(kept.map { Array($0.payload[13...]) } == trace.records.map { Array($0.payload[13...]) })
    }

    @Test func `names in HCI name fields and their copies elsewhere are replaced`() {
        var trace = Trace()
        let padded = { (name: String) in Array(name.utf8) + [UInt8](repeating: 0, count: 248 - name.utf8.count) }
        trace.command(0x0C13, padded("MacBook-Air.local"))  // Write Local Name
        trace.event(0x07, [0x00] + wire("A4:5E:60:11:22:33") + padded("Pixel 7"))  // Remote Name Request Complete
        trace.note("connected to Pixel 7")
        let (out, _) = scrubbed(trace.records, Self.names)
        #expect(Array(out[0].payload[3...]) == padded("device-1"))
        #expect(Array(out[1].payload[9...]) == padded("device-2"))
        #expect(Self.text(out[2].payload[...]) == "connected to d-2    ")
    }

    @Test func `Device Name reads are renamed like the advertised name`() {
        var trace = Trace()
        trace.advertising(Self.peer, data: Self.completeName("EnvSensor-01"))
        trace.connect(0x40, peer: Self.peer)
        // Read Using Characteristic UUID: Read By Type Request for 2A00, then its response.
        trace.att(0x40, .sent, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2A00))
        trace.att(0x40, .received, [0x09, 14] + le16(0x0003) + Array("EnvSensor-01".utf8))
        trace.att(0x40, .sent, [0x0A] + le16(0x0003))
        trace.att(0x40, .received, [0x0B] + Array("EnvSensor-01".utf8))
        trace.att(0x40, .sent, [0x0A] + le16(0x0005))
        trace.att(0x40, .received, [0x0B] + Array("EnvSensor-01".utf8))  // another handle: not the name
        let (out, _) = scrubbed(trace.records, Self.names)
        #expect(Self.text(out[0].payload[15..<27]) == "device-1    ")
        #expect(Self.text(out[3].payload[12...]) == "device-1    ")
        #expect(Self.text(out[5].payload[9...]) == "device-1    ")
        // The sweep replaces copies of a known name wherever they are (here: another handle's value).
        #expect(Self.text(out[7].payload[9...]) == "device-1    ")
    }

    @Test func `a long Device Name read in parts is renamed as a whole`() {
        let name = "Kitchen Thermometer Probe 042"  // 29 bytes: a Read Response of 22 and a Read Blob of 7
        var trace = Trace()
        trace.advertising(Self.peer, data: Self.completeName(name))
        trace.connect(0x40, peer: Self.peer)
        // Discovery: the characteristic declaration of Device Name at handle 2, value handle 3.
        trace.att(0x40, .sent, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2803))
        trace.att(0x40, .received, [0x09, 7] + le16(0x0002) + [0x02] + le16(0x0003) + le16(0x2A00))
        trace.att(0x40, .sent, [0x0A] + le16(0x0003))
        trace.att(0x40, .received, [0x0B] + Array(name.utf8.prefix(22)))
        trace.att(0x40, .sent, [0x0C] + le16(0x0003) + le16(22))
        trace.att(0x40, .received, [0x0D] + Array(name.utf8.dropFirst(22)))
        let (out, scrubber) = scrubbed(trace.records, ScrubOptions(seed: 1, names: true))
        let replaced = "device-1" + String(repeating: " ", count: 21)
        #expect(Self.text(out[0].payload[15..<44]) == replaced)
        #expect(Self.text(out[5].payload[9...]) == String(replaced.prefix(22)))
        #expect(Self.text(out[7].payload[9...]) == String(replaced.dropFirst(22)))
        #expect(scrubber.nameMap.count == 1)
    }

    @Test func `extended advertising data split over two reports is rewritten as one`() {
        let name = "Kitchen Thermometer Probe 042"
        let data = Self.completeName(name)
        var trace = Trace()
        // LE Extended Advertising Report (§7.7.65.13); event type bit 5: more data to come.
        func report(_ eventType: UInt16, _ part: [UInt8]) -> [UInt8] {
            [0x01] + le16(eventType) + [0x01] + wire(Self.peer) + [0x01, 0x00, 0x02, 0x7F, 0xC4, 0x00, 0x00, 0x00]
                + [UInt8](repeating: 0, count: 6) + [UInt8(part.count)] + part
        }
        trace.leMeta(0x0D, report(0x0020, Array(data.prefix(12))))
        trace.leMeta(0x0D, report(0x0000, Array(data.dropFirst(12))))
        let (out, scrubber) = scrubbed(trace.records, Self.names)
        let replaced = Array(("device-1" + String(repeating: " ", count: 21)).utf8)
        #expect(Array(out[0].payload[30...]) == Array(replaced.prefix(10)))
        #expect(Array(out[1].payload[28...]) == Array(replaced.dropFirst(10)))
        #expect(address(in: out[1].payload, at: 7) == scrubber.pseudonym(Self.peer))
    }

    @Test func `--values zeroes the values of a characteristic, before its discovery too`() {
        var trace = Trace()
        trace.connect(0x40, peer: Self.peer)
        trace.att(0x40, .received, [0x1B] + le16(0x000C) + [0x06, 0x48])  // before discovery
        trace.att(0x40, .sent, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2803))
        trace.att(0x40, .received, [0x09, 7] + le16(0x000B) + [0x10] + le16(0x000C) + le16(0x2A37))
        trace.att(0x40, .received, [0x1B] + le16(0x000C) + [0x06, 0x4C])  // Heart Rate Measurement
        trace.att(0x40, .received, [0x1B] + le16(0x000F) + [0x55, 0x01])  // another characteristic
        let (out, scrubber) = scrubbed(trace.records, ScrubOptions(seed: 1, values: [BluetoothUUID(0x2A37)]))
        #expect(Array(out[1].payload[11...]) == [0, 0])
        #expect(Array(out[4].payload[11...]) == [0, 0])
        #expect(Array(out[5].payload[11...]) == [0x55, 0x01])
        #expect(out[3].payload == trace.records[3].payload)
        #expect(scrubber.statistics.valuesBlanked == 2)
    }
}
