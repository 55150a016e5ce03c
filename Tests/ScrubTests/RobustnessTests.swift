import BluetoothPackets
import CaptureFiles
import CaptureModel
import JSON
import Scrub
import Testing
import TestSupport

/// Mangled input never stops the scrubber, never changes a record's length, and loses no record.
struct RobustnessTests {
    static let captures = [
        "btstack__pairing.pklg", "crackle__pairing_and_ltk_exchange.pcap", "crackle__le_secure_connections.pcapng",
        "Tesi_BLE__capture.pcap", "blefun__btsnoop_hci.log", "Blue2thprinting__import.snoop",
    ]

    @Test(arguments: captures)
    func `records with random bytes changed are scrubbed record for record`(name: String) throws {
        guard let directory = TestPaths.sharedCaptures else { return }
        let records = Array(try CaptureReader(path: directory + "/" + name, formats: testFormats).readAll().prefix(3000))
        var random = TestRandom(seed: 0x5C2B_0000 &+ UInt64(name.utf8.count))
        for round in 0..<16 {
            var mangled = records
            for index in mangled.indices where !mangled[index].payload.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let at = Int.random(in: 0..<mangled[index].payload.count, using: &random)
                    mangled[index].payload[at] = UInt8.random(in: 0...255, using: &random)
                }
            }
            let options = ScrubOptions(seed: UInt64(round), names: round % 2 == 0, values: [BluetoothUUID(0x2A37)])
            let (out, _) = scrubbed(mangled, options)
            #expect(out.count == mangled.count, "\(name) round \(round)")
            #expect(out.map(\.payload.count) == mangled.map(\.payload.count), "\(name) round \(round)")
            #expect(out.map(\.frame) == mangled.map(\.frame), "\(name) round \(round)")
        }
    }

    @Test func `records of random bytes of every kind and framing are scrubbed record for record`() {
        var random = TestRandom(seed: 0x5C2B)
        let framings: [(RecordKind, LinkType)] = [
            (.command, .h4), (.event, .h4), (.acl, .h4), (.note, .packetLogger), (.other, .btsnoopMonitor),
            (.linkLayer, .nordicBLE), (.linkLayer, .leLLWithPHDR), (.linkLayer, .user0),
        ]
        var trace = Trace()
        for _ in 0..<4000 {
            let (kind, linkType) = framings[Int.random(in: 0..<framings.count, using: &random)]
            var payload = random.bytes(Int.random(in: 0...80, using: &random))
            // Often a plausible start, so that the rules go deeper than the first check.
            if kind == .event, payload.count > 2 { payload[0] = [0x3E, 0x0E, 0x03, 0x07, 0x2F][Int.random(in: 0..<5, using: &random)] }
            if kind == .linkLayer, linkType == .user0, payload.count > 4, Bool.random(using: &random) {
                payload.replaceSubrange(0..<4, with: [0xD6, 0xBE, 0x89, 0x8E])
            }
            trace.record(kind, Bool.random(using: &random) ? .sent : .received, payload, linkType: linkType)
        }
        var records = trace.records
        for index in records.indices where records[index].linkType == .btsnoopMonitor {
            records[index].sourceType = [0, 10, 16, 17][index % 4]
        }
        let (out, _) = scrubbed(records, ScrubOptions(seed: 7, names: true, values: [BluetoothUUID(0x2A00)]))
        #expect(out.count == records.count)
        #expect(out.map(\.payload.count) == records.map(\.payload.count))
    }

    @Test func `--values blanks exactly the values the tracker resolves to the characteristic`() throws {
        let path = TestPaths.captures + "/sig-heart-thermometer.btsnoop"
        let directory = TestPaths.temporaryDirectory()
        let (code, _, err) = runTool(["scrub", path, "-o", directory + "/out", "--seed", "1", "--values", "2a1c", "--map", directory + "/map.json"])
        #expect(code == 0, "\(err)")
        let map = AddressMap(json: try JSONValue.parse(TestPaths.readText(directory + "/map.json") ?? ""))
        let original = try jsonLines(runTool(["events", "--format", "jsonl", path]).out)
        let rewritten = try jsonLines(runTool(["events", "--format", "jsonl", directory + "/out"]).out)
        #expect(original.count == rewritten.count)
        var blanked = 0
        for (a, b) in zip(original, rewritten) {
            if a["uuid"] == .string("2a1c"), let value = a["value"]?.string {
                #expect(b["value"]?.string == String(repeating: "0", count: value.count))
                blanked += 1
                continue
            }
            #expect(map.matches(a, b), "\(a.jsonText)\n\(b.jsonText)")
        }
        #expect(blanked > 0)
    }
}
