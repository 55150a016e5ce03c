import BluetapeCLI
import CaptureFiles
import CaptureModel
import JSON
import SystemIO
import Testing
import TestSupport

/// Runs the tool in-process and returns (exit code, stdout, stderr).
func runTool(_ arguments: [String], environment: [String: String] = [:]) -> (Int32, String, String) {
    let out = Output()
    let err = Output()
    let code = CommandLineTool.run(arguments, stdout: out, stderr: err, environment: environment)
    return (code, out.text, err.text)
}

struct InfoCommandTests {
    func sampleCapture() throws -> String {
        let dir = TestPaths.temporaryDirectory()
        let path = dir + "/sample.btsnoop"
        TestPaths.writeFile(path, try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 8)))
        return path
    }

    @Test func `info --json gives one object per file with the counts`() throws {
        let path = try sampleCapture()
        let (code, out, err) = runTool(["info", "--json", path, path])
        #expect(code == 0)
        #expect(err.isEmpty)
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2)
        let json = try JSONValue.parse(String(lines[0]))
        #expect(json["format"] == .string("btsnoop"))
        #expect(json["datalink"]?.int64 == 1002)
        #expect(json["records"]?.int64 == 8)
        #expect(json["first_ts"] == .number("1710495001.151075"))
        #expect(json["last_ts"] == .number("1710495001.159825"))
        #expect(json["kinds"]?["command"]?.int64 == 2)
        #expect(json["kinds"]?["acl"]?.int64 == 4)
        #expect(json["damaged"]?.int64 == 0)
    }

    @Test func `info text is readable`() throws {
        let (code, out, _) = runTool(["info", try sampleCapture()])
        #expect(code == 0)
        #expect(out.contains("records    8 (command 2, event 2, acl 4)"))
        #expect(out.contains("first      2024-03-15 09:30:01.151075 UTC"))
    }

    @Test func `a btsnoop time of zero is shown as a date before year 0, with its sign`() throws {
        // btsnoop counts microseconds from 0x00DCDDB30F2F8000 before the Unix epoch, 62,168,256,000 s;
        // 0000-01-01 is 719,528 days (62,167,219,200 s) before it, so zero falls 12 days earlier.
        let header = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        let command: [UInt8] = [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00]
        let record = [0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 2, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + command
        let path = TestPaths.temporaryDirectory() + "/zero.btsnoop"
        TestPaths.writeFile(path, header + record)
        let (code, out, _) = runTool(["info", path])
        #expect(code == 0)
        #expect(out.contains("first      -0001-12-20 00:00:00.000000 UTC"), "\(out)")
    }

    @Test func `a bad file among good ones exits 3 and the others are still reported`() throws {
        let good = try sampleCapture()
        let (code, out, err) = runTool(["info", "--json", "/nonexistent/x.btsnoop", good])
        #expect(code == 3)
        #expect(err.contains("/nonexistent/x.btsnoop: no such file"))
        #expect(out.split(separator: "\n").count == 1)
    }

    @Test func `usage errors exit 2 with the usage line`() {
        var (code, _, err) = runTool(["info"])
        #expect(code == 2)
        #expect(err.contains("usage: bluetape info"))
        (code, _, err) = runTool(["info", "--jsn", "x"])
        #expect(code == 2)
        #expect(err.contains("unknown option '--jsn' for 'bluetape info'; did you mean '--json'?"))
        (code, _, err) = runTool(["frobnicate"])
        #expect(code == 2)
        #expect(err.contains("unknown command 'frobnicate'"))
    }

    @Test func `help and version`() {
        var (code, out, _) = runTool(["--version"])
        #expect(code == 0)
        #expect(out.hasPrefix("bluetape "))
        (code, out, _) = runTool(["help", "info"])
        #expect(code == 0)
        #expect(out.contains("usage: bluetape info [--json] FILE|DIR…"))
        (code, out, _) = runTool(["info", "--help"])
        #expect(code == 0)
        #expect(out.contains("--json"))
    }
}
