import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel
import JSON
import Testing
import TestSupport

/// Every shared capture Bluetape can write back, scrubbed: the same events with the pseudonyms in
/// them, the same readings apart from addresses, and no original address or key left in the bytes.
struct SharedCaptureScrubTests {
    /// The shared captures, except archives (another branch reads bug-report zips).
    static var captures: [String] { TestPaths.sharedCaptureFiles.filter { !$0.hasSuffix(".zip") } }

    struct Scrubbed {
        var input: String
        var output: String
        var map: AddressMap
        var stderr: String
    }

    /// Scrubs `path` with seed 1 (and `extra` options) into a fresh directory; nil, after saying
    /// why, for a capture Bluetape cannot read.
    static func scrub(_ path: String, _ extra: [String] = []) throws -> Scrubbed? {
        do {
            _ = try CaptureReader(path: path, formats: testFormats)
        } catch {
            print("skipped \(path): \(error)")
            return nil
        }
        let directory = TestPaths.temporaryDirectory()
        let name = String(path.split(separator: "/").last!)
        let output = directory + "/" + name
        let (code, _, err) = runTool(["scrub", path, "-o", output, "--seed", "1", "--map", directory + "/map.json"] + extra)
        #expect(code == 0, "\(name): \(err)")
        let map = try JSONValue.parse(TestPaths.readText(directory + "/map.json") ?? "")
        return Scrubbed(input: path, output: output, map: AddressMap(json: map), stderr: err)
    }

    static func events(_ path: String) throws -> [JSONValue] {
        let (code, out, err) = runTool(["events", "--format", "jsonl", path])
        #expect(code == 0, "\(path): \(err)")
        return try jsonLines(out)
    }

    /// One scrub per capture, then every check on it: the events, the readings, the bytes.
    @Test(arguments: captures)
    func `the scrubbed capture has the same events and readings, and no address or key left`(path: String) throws {
        guard let scrubbed = try Self.scrub(path) else { return }
        try Self.sameEvents(scrubbed)
        try Self.sameReadings(scrubbed)
        try Self.nothingLeft(scrubbed)
    }

    /// `bluetape events OUT` is `bluetape events IN` with the map applied, line by line.
    static func sameEvents(_ scrubbed: Scrubbed) throws {
        let path = scrubbed.input
        var map = scrubbed.map
        map.keys = try KeyFinder.keys(in: path)
        let original = try events(path).map(ScrubbedFields.blanked)
        let rewritten = try events(scrubbed.output).map(ScrubbedFields.blanked)
        #expect(original.count == rewritten.count, "\(path)")
        var differing = 0
        for (a, b) in zip(original, rewritten) where !map.matches(a, b) {
            differing += 1
            if differing <= 3 { Issue.record("\(path):\n  in:  \(a.jsonText)\n  out: \(b.jsonText)") }
        }
        #expect(differing == 0, "\(path): \(differing) events differ otherwise than by the map")
        // Every address the events name is in the map (or names no device).
        var unmapped: Set<String> = []
        for event in original {
            for key in ["addr", "initiator", "direct_addr"] {
                guard let text = event[key]?.string, let address = BluetoothAddress(text),
                    address.value != 0, address.value != 0xFFFF_FFFF_FFFF, scrubbed.map.pseudonyms[address.value] == nil
                else { continue }
                unmapped.insert(text)
            }
        }
        #expect(unmapped.isEmpty, "\(path): not in the map: \(unmapped.sorted())")
    }

    /// The decoders' readings are the same but for their addresses.
    static func sameReadings(_ scrubbed: Scrubbed) throws {
        func readings(_ path: String) throws -> [JSONValue] {
            let (_, out, _) = runTool(["decode", "--format", "jsonl", path])
            return try jsonLines(out).map { reading in
                guard var object = reading.object else { return reading }
                object.entries.removeAll { $0.key == "addr" }
                return .object(object)
            }
        }
        let original = try readings(scrubbed.input)
        let rewritten = try readings(scrubbed.output)
        #expect(original.count == rewritten.count, "\(scrubbed.input)")
        if let (a, b) = zip(original, rewritten).first(where: { $0 != $1 }) {
            Issue.record("\(scrubbed.input):\n  in:  \(a.jsonText)\n  out: \(b.jsonText)")
        }
    }

    /// No original address (either byte order, or as text) and no key is in the scrubbed file.
    static func nothingLeft(_ scrubbed: Scrubbed) throws {
        let path = scrubbed.input
        guard let bytes = TestPaths.readFile(scrubbed.output) else { return }
        // Every length stays: the file is as long as it was (pcapng, written as pcap, apart).
        if (try? CaptureReader(path: path, formats: testFormats).format) != .pcapng {
            #expect(bytes.count == TestPaths.readFile(path)?.count, "\(path): the size changed")
        }
        let originals = Set(scrubbed.map.distinctiveOriginals)
        let found = ByteScan.addresses(in: bytes, among: originals)
        #expect(found.isEmpty, "\(path): still there: \(found.map { BluetoothAddress($0).description }.sorted())")
        let keys = try KeyFinder.keys(in: path)
        let left = ByteScan.occurrences(of: keys, in: bytes)
        #expect(left.isEmpty, "\(path): keys still there: \(left.map { Hex.encode($0) })")
    }

    @Test(arguments: captures.filter { $0.contains("btstack") || $0.contains("blefun") || $0.contains("Blue2thprinting") })
    func `with --names no name is left, and names read as device-N`(path: String) throws {
        guard let scrubbed = try Self.scrub(path, ["--names"]), let bytes = TestPaths.readFile(scrubbed.output) else {
            return
        }
        #expect(!scrubbed.map.names.isEmpty, "\(path): no names found")
        let names = scrubbed.map.names.keys.filter { $0.utf8.count >= 4 && Set($0.utf8).count >= 3 }.map { Array($0.utf8) }
        let left = ByteScan.occurrences(of: names, in: bytes)
        #expect(left.isEmpty, "\(path): names still there: \(left.map { String(decoding: $0, as: UTF8.self) })")
        #expect(scrubbed.map.names.values.allSatisfy { $0.hasPrefix("device-") })
        for name in try Self.events(scrubbed.output).filter({ $0["type"] == .string("adv") }).compactMap({ $0["name"]?.string }) {
            let trimmed = name.trimmingSpaces
            #expect(trimmed.hasPrefix("device-") || trimmed.hasPrefix("d") || trimmed.allSatisfy(\.isNumber), "\(name)")
        }
    }

    @Test(arguments: captures.filter { $0.contains("btstack") || $0.contains("crackle") || $0.contains("bluetooth-pcap-test") })
    func `the same seed gives the same bytes`(path: String) throws {
        guard let first = try Self.scrub(path), let second = try Self.scrub(path) else { return }
        let same = TestPaths.readFile(first.output) == TestPaths.readFile(second.output)
        #expect(same, "\(path)")
        let directory = TestPaths.temporaryDirectory()
        _ = runTool(["scrub", path, "-o", directory + "/other", "--seed", "2"])
        let other = TestPaths.readFile(first.output) != TestPaths.readFile(directory + "/other")
        #expect(other, "\(path)")
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
