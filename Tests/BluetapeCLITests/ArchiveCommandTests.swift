import BluetapeCLI
import CaptureFiles
import CaptureModel
import Foundation
import JSON
import Testing
import TestSupport

/// What phones hand over, through the command line: bug reports, rotated pairs, gzip, standard input.
struct ArchiveCommandTests {
    static let shared = TestPaths.sharedCaptures

    /// The `bluetape` this test bundle was built with.
    static func binary() throws -> URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("bluetape") }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "bluetape is not built")
    }

    /// `bluetape` run as a process of its own, standard output to a file: its exit code, its output
    /// and its peak resident memory in KiB. The peak is the child's VmHWM, read every few
    /// milliseconds while it runs: its own since exec, where wait4's would start from this test
    /// process's size (Linux keeps the high-water mark across the spawn's exec), and untouched by
    /// the tests running beside it.
    static func runMeasured(_ arguments: [String]) throws -> (code: Int32, out: String, peakKiB: Int) {
        let outPath = TestPaths.temporaryDirectory() + "/stdout"
        let argv = try [binary().path] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cStrings = argv.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        cStrings.append(nil)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cStrings, environ)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var peakKiB = 0
        var status: Int32 = 0
        while true {
            // Once it has exited the status file has no VmHWM line; the last reading stands.
            if let line = TestPaths.readText("/proc/\(pid)/status")?.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.filter(\.isNumber))
            {
                peakKiB = max(peakKiB, kib)
            }
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            usleep(2_000)
        }
        // WIFEXITED / WEXITSTATUS: the low seven bits are a signal's number, zero when it exited.
        let code: Int32 = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        return (code, TestPaths.readText(outPath) ?? "", peakKiB)
    }

    /// The `bluetape` this test bundle was built with, run as a process with `stdin` as its standard input.
    static func runBinary(_ arguments: [String], stdin: String) throws -> (code: Int32, out: Data, err: String) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdin))
        let out = Pipe()
        // stderr to a file, so that only one pipe has to be read while it runs.
        let errorPath = TestPaths.temporaryDirectory() + "/stderr"
        TestPaths.writeFile(errorPath, [])
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output, TestPaths.readText(errorPath) ?? "")
    }

    @Test(.enabled(if: shared != nil, "../shared/captures is not present"))
    func `info reads the shared bug report: 387 records, 192 commands, 195 events, on 2023-08-23`() throws {
        let (code, out, err) = runTool(["info", "--json", Self.shared! + "/TMC_Partner__App__bugreport.zip"])
        #expect(code == 0)
        #expect(err.isEmpty)
        let json = try JSONValue.parse(out.trimmingCharacters(in: .newlines))
        #expect(json["records"]?.int64 == 387)
        #expect(json["kinds"]?["command"]?.int64 == 192)
        #expect(json["kinds"]?["event"]?.int64 == 195)
        #expect(json["format"] == .string("btsnooz"))
        // 2023-08-23 00:00:00 UTC is 1692748800.
        for key in ["first_ts", "last_ts"] {
            let seconds = try #require(json[key]?.double)
            #expect(seconds >= 1_692_748_800 && seconds < 1_692_835_200, "\(key) \(seconds)")
        }
        #expect(json["read"] == .array([.string("bugreport-T2s_LITE-PKQ1.190414.001-2023-08-23-10-02-10.txt")]))
    }

    @Test(.enabled(if: shared != nil, "../shared/captures is not present"))
    func `events --join of the pongbot pair are the events of one file holding both`() throws {
        let last = Self.shared! + "/pongbot-mcp__btsnoop_hci.log.last"
        let current = Self.shared! + "/pongbot-mcp__btsnoop_hci.log"
        let records = try CaptureReader(path: last).readAll() + CaptureReader(path: current).readAll()
        let both = TestPaths.temporaryDirectory() + "/both.btsnoop"
        TestPaths.writeFile(both, try CaptureFactory.capture(.btsnoop(.btsnoopUART), records))
        let (code, joined, err) = runTool(["events", "--format", "jsonl", "--join", last, current])
        #expect(code == 0)
        #expect(err.isEmpty)
        let (_, expected, _) = runTool(["events", "--format", "jsonl", both])
        #expect(joined == expected)
        let frames = try joined.split(separator: "\n").map { try JSONValue.parse(String($0))["frame"]?.int64 ?? 0 }
        #expect(frames.max() == 9_759)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 <= $1 })
        let (infoCode, info, _) = runTool(["info", "--join", last, current])
        #expect(infoCode == 0)
        #expect(info.contains("records    9759 "))
        #expect(info.contains("gap 1.205078 s"))
    }

    /// A capture cut in two inside its GATT session: joined, the second half is read with the state of
    /// the first (the handles its discovery named); alone, it is not.
    @Test func `state carries over a join: the second half's handles resolve through the first half's discovery`() throws {
        // Combustion's probe: discovered early, its notifications stream on past two thirds of the capture.
        let path = TestPaths.captures + "/combustion.btsnoop"
        let records = try CaptureReader(path: path).readAll()
        let directory = TestPaths.temporaryDirectory()
        let cut = records.count * 2 / 3
        TestPaths.writeFile(directory + "/a.btsnoop", try CaptureFactory.capture(.btsnoop(.btsnoopUART), Array(records.prefix(cut))))
        TestPaths.writeFile(directory + "/b.btsnoop", try CaptureFactory.capture(.btsnoop(.btsnoopUART), Array(records.dropFirst(cut))))
        let (code, joined, _) = runTool(["events", "--format", "jsonl", "--join", directory + "/a.btsnoop", directory + "/b.btsnoop"])
        #expect(code == 0)
        #expect(joined == runTool(["events", "--format", "jsonl", path]).1)
        let resolved = { (text: String, after: Int64) in
            try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }.filter {
                ($0["frame"]?.int64 ?? 0) > after && $0["type"] == .string("att") && $0["uuid"] != nil && $0["uuid"] != .null
            }.count
        }
        let alone = runTool(["events", "--format", "jsonl", directory + "/b.btsnoop"]).1
        #expect(try resolved(joined, Int64(cut)) > 0)
        #expect(try resolved(alone, 0) == 0)
    }

    @Test func `joining files out of time order is a usage error; --force joins them`() throws {
        let directory = TestPaths.temporaryDirectory()
        let early = directory + "/early.btsnoop"
        let late = directory + "/late.btsnoop"
        TestPaths.writeFile(early, try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 4)))
        TestPaths.writeFile(
            late,
            try CaptureFactory.capture(
                .btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 4, start: 1_710_495_001_151_075 + 5_000_000)))
        let (code, _, err) = runTool(["events", "--join", late, early])
        #expect(code == 2)
        #expect(err.contains("out of time order"))
        #expect(runTool(["events", "--join", "--force", late, early]).0 == 0)
        // Without --join they are two captures, each line naming its own.
        let (separate, lines, _) = runTool(["events", "--format", "jsonl", early, late])
        #expect(separate == 0)
        #expect(lines.split(separator: "\n").filter { $0.contains(#""capture":"\#(early)""#) }.count == 4)
        #expect(runTool(["events", "--force", early]).0 == 2)
    }

    @Test(arguments: TestPaths.sharedCaptureFiles + ["envsensor", "combustion", "tractor"].map { TestPaths.captures + "/\($0).btsnoop" })
    func `a gzip copy and standard input give byte-identical events`(path: String) throws {
        let bytes = try #require(TestPaths.readFile(path))
        let gz = TestPaths.temporaryDirectory() + "/copy.gz"
        TestPaths.writeFile(gz, Deflate.gzip(bytes))
        let (code, plain, _) = runTool(["events", "--format", "jsonl", path])
        let (gzipCode, inflated, gzipErr) = runTool(["events", "--format", "jsonl", gz])
        #expect(gzipCode == code, "\(gzipErr)")
        #expect(inflated == plain)
        // cat FILE | bluetape events - | md5sum equals bluetape events FILE | md5sum.
        let piped = try Self.runBinary(["events", "--format", "jsonl", "-"], stdin: path)
        #expect(piped.code == code, "\(piped.err)")
        #expect(piped.out == Data(plain.utf8))
    }

    @Test func `a zip without a Bluetooth log says so in one line, exit 3`() throws {
        let path = TestPaths.temporaryDirectory() + "/bugreport.zip"
        TestPaths.writeFile(path, ZipBuilder([.init("version.txt", Array("2.0".utf8))]).bytes)
        let (code, out, err) = runTool(["events", path])
        #expect(code == 3)
        #expect(out.isEmpty)
        #expect(err.split(separator: "\n").count == 1)
        #expect(err.hasPrefix("error: \(path): holds no Bluetooth log"))
    }

    @Test(.enabled(if: shared != nil, "../shared/captures is not present"))
    func `a sysdiagnose built around a shared pklg gives its events; info lists its PacketLogger files`() throws {
        let pklg = Self.shared! + "/peripage-tool__peripage_capture.pklg"
        let older = Self.shared! + "/even-g2-smart-classroom__bt2.pklg"
        let root = "sysdiagnose_2026.06.07_10-50-47+0000_iPhone-OS_iPhone_23F77"
        let tar = TarBuilder.archive(
            [
                ("\(root)/logs/Bluetooth/bluetoothd-hci-latest.pklg", try #require(TestPaths.readFile(pklg))),
                ("\(root)/logs/Bluetooth/bluetoothd-hci-2026-07-24.pklg", try #require(TestPaths.readFile(older))),
                ("\(root)/logs/powerlogs/log.txt", Array("x".utf8)),
            ], naming: .pax)
        let path = TestPaths.temporaryDirectory() + "/\(root).tar.gz"
        TestPaths.writeFile(path, Deflate.gzip(tar))
        let (code, events, _) = runTool(["events", "--format", "jsonl", path])
        #expect(code == 0)
        #expect(events == runTool(["events", "--format", "jsonl", pklg]).1)
        let (_, member, _) = runTool(["events", "--format", "jsonl", "--member", "logs/Bluetooth/bluetoothd-hci-2026-07-24.pklg", path])
        #expect(member == runTool(["events", "--format", "jsonl", older]).1)
        let (_, info, _) = runTool(["info", "--json", path])
        let json = try JSONValue.parse(info.trimmingCharacters(in: .newlines))
        #expect(json["containers"] == .array([.string("gzip"), .string("tar")]))
        #expect(json["members"]?.int64 == 3)
        #expect(json["records"]?.int64 == 721)
        let (_, joined, _) = runTool(["info", "--json", "--join", path])
        #expect(try JSONValue.parse(joined.trimmingCharacters(in: .newlines))["records"]?.int64 == 721 + 350)
    }

    @Test func `a cut ACL in a bug report's summary is truncated in events and counted in info`() throws {
        let records = SnoozBuilder.records(
            [
                .init(type: 0x21, [0x40, 0x00, 0x17, 0x00, 0x13, 0x00, 0x04, 0x00], original: 27, delta: 10),
                .init(type: 0x20, [0x03, 0x0C, 0x00], delta: 10),
            ], version: 2)
        let text = SnoozBuilder.text(ring: SnoozBuilder.ring(version: 2, lastTimestamp: 1_692_784_955_682_300, records: records), declared: 1)
        let path = TestPaths.temporaryDirectory() + "/dumpsys.txt"
        TestPaths.writeFile(path, text)
        let (code, events, _) = runTool(["events", "--format", "jsonl", path])
        #expect(code == 0)
        let lines = try events.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.filter { $0["frame"]?.int64 == 1 }.allSatisfy { $0["truncated"] == .bool(true) })
        #expect(lines.filter { $0["frame"]?.int64 == 2 }.allSatisfy { $0["truncated"] == nil })
        let (_, info, _) = runTool(["info", "--json", path])
        #expect(try JSONValue.parse(info.trimmingCharacters(in: .newlines))["truncated"]?.int64 == 1)
    }

    @Test func `a gzip bomb is read as a stream: 96 MiB of records inflated, the process stays under 64 MiB`() throws {
        // A btsnoop header and 96 MiB of zeros (4,194,304 empty 24-byte record headers) in under
        // 100 KB. Measured on a process of its own: a reader holding what it inflated would need
        // more than the whole bound.
        let header = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        let bomb = Deflate.gzipBomb(prefix: header, zeros: 96 << 20)
        #expect(bomb.count < 100_000)
        let path = TestPaths.temporaryDirectory() + "/bomb.btsnoop.gz"
        TestPaths.writeFile(path, bomb)
        let (code, out, peakKiB) = try Self.runMeasured(["info", path])
        #expect(code == 0)
        #expect(out.contains("records    4194304 (other 4194304)"), "\(out)")
        #expect(out.contains("archive    gzip"))
        #expect(peakKiB > 0 && peakKiB < 64 << 10, "peak memory \(peakKiB) KiB")
    }
}
