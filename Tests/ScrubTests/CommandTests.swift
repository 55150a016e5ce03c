import BluetapeCLI
import BluetoothPackets
import CaptureFiles
import CaptureModel
import JSON
import PcapFiles
import Testing
import TestSupport

/// `bluetape scrub` on the command line, the writers it uses, and scrubbed goldens.
struct CommandTests {
    static func sample(_ format: CaptureWriter.Format = .btsnoop(.btsnoopUART)) throws -> (String, [StoredRecord]) {
        var trace = Trace()
        trace.advertising("C2:6B:30:F9:0E:C7", data: [0x02, 0x01, 0x06])
        trace.connect(0x40, peer: "C2:6B:30:F9:0E:C7")
        trace.smp(0x40, .received, [0x03] + KeyRuleTests.key(1))
        let directory = TestPaths.temporaryDirectory()
        let path = directory + "/sample.capture"
        TestPaths.writeFile(path, try CaptureFactory.capture(format, trace.records))
        return (path, trace.records)
    }

    @Test func `the command line says what is wrong with exit code 2`() throws {
        let (path, _) = try Self.sample()
        let directory = TestPaths.temporaryDirectory()
        let cases: [[String]] = [
            ["scrub", path],  // no -o
            ["scrub", "-o", directory + "/out"],  // no input
            ["scrub", path, "-o", path],  // onto itself
            ["scrub", "-", "-o", directory + "/out"],  // stdin: read twice
            ["scrub", path, "-o", directory + "/out", "--map", directory + "/out"],  // map into OUT
            ["scrub", path, "-o", directory + "/out", "--seed", "one"],
            ["scrub", path, "-o", directory + "/out", "--values", "not-a-uuid"],
        ]
        for arguments in cases {
            let (code, _, err) = runTool(arguments)
            #expect(code == 2, "\(arguments): \(err)")
            #expect(err.hasPrefix("error: "), "\(arguments)")
        }
        #expect(TestPaths.readFile(path)?.isEmpty == false)
    }

    @Test(arguments: [
        CaptureWriter.Format.btsnoop(.btsnoopUART), .btsnoop(.btsnoopHCI), .btsnoop(.btsnoopMonitor), .pcap(.h4WithPHDR),
        .pcap(.h4), .packetLogger(bigEndian: true), .packetLogger(bigEndian: false),
    ])
    func `a capture is written back in its own format`(format: CaptureWriter.Format) throws {
        let (path, records) = try Self.sample(format)
        let output = TestPaths.temporaryDirectory() + "/out"
        let (code, _, err) = runTool(["scrub", path, "-o", output, "--seed", "1"])
        #expect(code == 0, "\(err)")
        let original = try CaptureReader(path: path, formats: testFormats)
        let scrubbed = try CaptureReader(path: output, formats: testFormats)
        #expect(scrubbed.format == original.format)
        #expect(scrubbed.linkType == original.linkType)
        let out = scrubbed.readAll()
        #expect(out.count == records.count)
        for (a, b) in zip(original.readAll(), out) {
            #expect((a.kind, a.direction, a.timestamp, a.payload.count) == (b.kind, b.direction, b.timestamp, b.payload.count))
        }
        // The Pairing Confirm is zero; the advertising report's address is not what it was.
        #expect(out[2].payload[9...].allSatisfy { $0 == 0 })
        #expect(out[0].payload[6..<12] != records[0].payload[6..<12])
    }

    @Test func `a damaged capture is scrubbed as far as it is read, the damage named, exit code 3`() throws {
        let (path, _) = try Self.sample()
        var bytes = TestPaths.readFile(path)!
        bytes.removeLast(5)  // the last record cut short
        TestPaths.writeFile(path, bytes)
        let output = TestPaths.temporaryDirectory() + "/out"
        let (code, _, err) = runTool(["scrub", path, "-o", output])
        #expect(code == 3)
        #expect(err.contains("frame 3"), "\(err)")
        #expect(try CaptureReader(path: output, formats: testFormats).readAll().count == 2)
    }

    @Test func `PacketLogger files are written back byte for byte in either byte order`() throws {
        let names = ["btstack__pairing.pklg", "iSAP__hci_dump.pklg", "even-g2-smart-classroom__bt2.pklg", "peripage-tool__peripage_capture.pklg"]
        for name in names {
            guard let directory = TestPaths.sharedCaptures, let original = TestPaths.readFile(directory + "/" + name) else { continue }
            let reader = try CaptureReader(bytes: original, name: name)
            guard let bigEndian = CaptureWriter.packetLoggerIsBigEndian(original) else {
                Issue.record("\(name): not recognised")
                continue
            }
            let writer = try CaptureWriter(format: .packetLogger(bigEndian: bigEndian))
            for record in reader.readAll() { try writer.write(record) }
            #expect(writer.bytes == original, "\(name)")
        }
    }

    @Test func `pcap packets copied through the dump writer read back the same`() throws {
        guard let directory = TestPaths.sharedCaptures else { return }
        for name in ["bluetooth-pcap-test__bluetooth.pcap", "crackle__pairing_and_ltk_exchange.pcap", "Tesi_BLE__garmin.pcapng"] {
            let path = directory + "/" + name
            let packets = try PcapPackets(path: path)
            let writer = try PcapDumpWriter(
                path: nil, linkType: packets.linkType, snapLength: packets.snapLength, nanosecond: packets.isNanosecond)
            while let packet = packets.next() {
                try writer.write(
                    seconds: packet.seconds, nanoseconds: packet.nanoseconds, originalLength: packet.originalLength,
                    Array(packet.bytes))
            }
            try writer.finish()
            let copy = try CaptureReader(bytes: writer.bytes, name: name, formats: testFormats).readAll()
            let original = try CaptureReader(path: path, formats: testFormats).readAll()
            #expect(copy == original, "\(name)")
            if name.hasSuffix(".pcap") { #expect(writer.bytes == TestPaths.readFile(path), "\(name)") }
        }
    }

    @Test func `pcapng is written as pcap with the same link type, with a note`() throws {
        guard let directory = TestPaths.sharedCaptures else { return }
        let output = TestPaths.temporaryDirectory() + "/out.pcap"
        let (code, _, err) = runTool(["scrub", directory + "/Tesi_BLE__garmin.pcapng", "-o", output])
        #expect(code == 0)
        #expect(err.contains("note: ") && err.contains("pcap with the same link type (272)"), "\(err)")
        let reader = try CaptureReader(path: output, formats: testFormats)
        #expect(reader.format == .pcap)
        #expect(reader.linkType == .nordicBLE)
    }

    @Test func `the map names every address and name with its pseudonym, and is not in the capture`() throws {
        let (path, _) = try Self.sample()
        let directory = TestPaths.temporaryDirectory()
        let (code, _, err) = runTool(["scrub", path, "-o", directory + "/out", "--seed", "1", "--map", directory + "/map.json"])
        #expect(code == 0, "\(err)")
        let map = try JSONValue.parse(TestPaths.readText(directory + "/map.json") ?? "")
        let pseudonym = map["addresses"]?["C2:6B:30:F9:0E:C7"]?.string
        #expect(pseudonym != nil)
        let scrubbed = TestPaths.readFile(directory + "/out") ?? []
        #expect(!contains(scrubbed, Array("C2:6B:30:F9:0E:C7".utf8)))
        #expect(contains(scrubbed, BluetoothAddress(pseudonym ?? "")?.wireBytes ?? [1]))
    }

    @Test func `a golden of a scrubbed capture names no address of the capture`() throws {
        let directory = TestPaths.temporaryDirectory()
        let names = ["envsensor.btsnoop", "sig-heart-thermometer.btsnoop"]
        for name in names {
            TestPaths.writeFile(directory + "/" + name, TestPaths.readFile(TestPaths.captures + "/" + name) ?? [])
        }
        TestPaths.writeFile(directory + "/golden.json", Array(#"{"version": 1, "scrub": {"seed": 1}}"#.utf8))
        let (updated, _, updateErr) = runTool(["golden", "update", "--force", directory])
        #expect(updated == 0, "\(updateErr)")
        for name in names {
            let golden = TestPaths.readText(directory + "/" + name + ".golden.jsonl") ?? ""
            let readings = try jsonLines(golden)
            #expect(!readings.isEmpty)
            let (_, events, _) = runTool(["events", "--format", "jsonl", TestPaths.captures + "/" + name])
            let addresses = Set(try jsonLines(events).compactMap { $0["addr"]?.string })
            #expect(!addresses.isEmpty)
            for address in addresses { #expect(!golden.contains(address), "\(name): \(address)") }
            // The readings themselves are the unscrubbed ones but for their addresses.
            let shipped = try jsonLines(TestPaths.readText(TestPaths.captures + "/" + name + ".golden.jsonl") ?? "")
            #expect(readings.map { $0["fields"] } == shipped.map { $0["fields"] })
        }
        let (checked, out, checkErr) = runTool(["golden", "check", directory])
        #expect(checked == 0, "\(out)\(checkErr)")
        // A scrub without a seed would give new goldens every run: refused.
        TestPaths.writeFile(directory + "/golden.json", Array(#"{"version": 1, "scrub": {"names": true}}"#.utf8))
        let (refused, _, refusedErr) = runTool(["golden", "check", directory])
        #expect(refused == 3)
        #expect(refusedErr.contains("seed"), "\(refusedErr)")
    }
}
