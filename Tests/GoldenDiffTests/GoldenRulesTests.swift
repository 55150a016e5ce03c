import GoldenDiff
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// No silent pass (empty goldens, layouts that match nothing), golden.json's rules and what its
/// mistakes cost.
struct GoldenRulesTests {
    let workspace = Workspace()
    var dir: String { workspace.directory }

    /// A capture that decodes to nothing, with its (empty) golden.
    func idle(_ name: String = "idle.btsnoop") {
        workspace.capture(name, [])
        workspace.golden(name, [])
    }

    @Test func `an empty golden of a capture that gives nothing is reported, and fails when strict`() {
        idle()
        workspace.capture("env.btsnoop", [Sample.env12])
        workspace.golden("env.btsnoop", [Sample.env12])
        let entry = #"if that is meant, say so in \#(dir)/golden.json: "captures": {"idle.btsnoop": {"allow_empty": true}}"#
        let report = """
            ok          \(dir)/env.btsnoop (1 reading)
            empty       \(dir)/idle.btsnoop (no readings, and its golden holds none, so nothing is checked; \(entry))

            checked 2 captures: 1 ok, 1 empty golden
            """
        var (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 0)
        #expect(err == "")
        #expect(out == report + "\n")

        (code, out, _) = runTool(["golden", "check", "--strict", dir])
        #expect(code == 1)
        #expect(out == report + " (strict: missing, obsolete and empty goldens fail the check)\n")
        (code, _, _) = runTool(["golden", "check", dir], environment: ["CI": "1"])
        #expect(code == 1)

        (code, out, _) = runTool(["golden", "check", "--strict", "--format", "github", dir])
        #expect(code == 1)
        #expect(out.hasPrefix("::error file=\(dir)/idle.btsnoop.golden.jsonl::empty golden: no readings"))
        (code, out, _) = runTool(["golden", "check", "--strict", "--format", "json", dir])
        #expect(out.contains(#""empty_goldens":1"#))
        #expect(out.contains(#""capture":"\#(dir)/idle.btsnoop","golden":"\#(dir)/idle.btsnoop.golden.jsonl","status":"empty_golden""#))
        (code, _, _) = runTool(["golden", "check", "--strict", "--junit", workspace.path("junit.xml"), dir])
        #expect(workspace.read("junit.xml")?.contains(#"<failure message="empty golden: no readings"#) == true)
    }

    @Test func `golden.json allows an empty golden for one capture of its own directory`() {
        idle()
        workspace.directory("sub")
        idle("sub/idle.btsnoop")
        workspace.write("golden.json", #"{"captures": {"idle.btsnoop": {"allow_empty": true}}}"#)
        let (code, out, _) = runTool(["golden", "check", "--strict", dir])
        #expect(code == 1)
        #expect(out.hasPrefix("ok          \(dir)/idle.btsnoop (0 readings)\nempty       \(dir)/sub/idle.btsnoop ("))

        workspace.write("sub/golden.json", #"{"captures": {"idle.btsnoop": {"allow_empty": true}}}"#)
        #expect(runTool(["golden", "check", "--strict", dir]).code == 0)
        // Also when the capture is named alone.
        #expect(runTool(["golden", "check", "--strict", workspace.path("sub/idle.btsnoop")]).code == 0)
        // An empty golden is allowed, not required: readings the golden lacks still differ.
        workspace.capture("idle.btsnoop", [Sample.env12])
        #expect(runTool(["golden", "check", "--strict", dir]).code == 1)
    }

    @Test func `a directory without captures is a warning, and fails when strict`() {
        workspace.write("notes.txt", "no capture here")
        var (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 0)
        #expect(out == "checked 0 captures: 0 ok\n")
        #expect(
            err == "warning: no captures in \(dir): `bluetape golden check` checks files ending in "
                + ".btsnoop, .cfa, .gz, .last, .log, .pcap, .pcapng, .pklg, .snoop, .tgz, .zip\n")
        (code, out, _) = runTool(["golden", "check", "--strict", dir])
        #expect(code == 1)
        #expect(out == "checked 0 captures: 0 ok (strict: a check of nothing fails)\n")
    }

    @Test func `golden update warns about a capture that gives no readings, unless golden.json allows it`() {
        workspace.capture("idle.btsnoop", [])
        workspace.capture("env.btsnoop", [Sample.env12])
        var (code, out, err) = runTool(["golden", "update", dir])
        #expect(code == 0)
        #expect(out.contains("created    \(dir)/idle.btsnoop.golden.jsonl (0 readings)\n"))
        #expect(
            err == """
                warning: \(dir)/idle.btsnoop gives no readings, so its golden is empty and \
                `bluetape golden check --strict` fails it; if that is meant, say so in \(dir)/golden.json: \
                "captures": {"idle.btsnoop": {"allow_empty": true}}

                """)
        workspace.write("golden.json", #"{"captures": {"idle.btsnoop": {"allow_empty": true}}}"#)
        (code, _, err) = runTool(["golden", "update", dir])
        #expect(code == 0)
        #expect(err == "")
    }

    @Test func `mistakes in golden.json are usage errors, named by file and line`() {
        workspace.capture("env.btsnoop", Sample.all)
        workspace.golden("env.btsnoop", Sample.all)
        let cases: [(String, String)] = [
            ("{\n  \"ignore\": [\"ts\"],\n  \"tolerence\": 0.1\n}\n",
             "golden.json:3: unknown key \"tolerence\" (known: version, align, ignore, tolerance, decode, captures)"),
            (#"{"tolerance": {"temperature_c": -1}}"#, "golden.json:1: a tolerance must be a number, 0 or more"),
            ("{\"align\": \n \"time\"}", #"golden.json:2: "align" must be "frame" or "sequence""#),
            ("{\"version\": 1,", "golden.json:1: column 15: expected a quoted key"),
            ("{\"captures\": {\n  \"gone.btsnoop\": {\"allow_empty\": true}}}",
             "golden.json:2: \"captures\" names 'gone.btsnoop', but there is no \(dir)/gone.btsnoop"),
            (#"{"captures": {"env.btsnoop": {"allow_empty": "yes"}}}"#, #"golden.json:1: "allow_empty" must be true or false"#),
            (#"{"captures": {"env.btsnoop": {"allow_emtpy": true}}}"#,
             #"golden.json:1: unknown rule "allow_emtpy" for a capture (known: allow_empty)"#),
            (#"{"captures": {"notes.txt": {}}}"#,
             "golden.json:1: \"captures\" names 'notes.txt', which is not the file name of a capture in this directory"),
            (#"{"captures": ["env.btsnoop"]}"#,
             #"golden.json:1: "captures" must be an object of capture file names and their rules, {"idle.btsnoop": {"allow_empty": true}}"#),
            ("{\"decode\": {\"layouts\": [\n \"a.json\",\n 5]}}", #"golden.json:3: "layouts" must list layout files (strings)"#),
            (#"{"decode": {"layouts": ["a,b.json"]}}"#, "golden.json:1: layout file 'a,b.json': a file name with a comma cannot be used"),
            (#"{"decode": {"gatt": ["a.json"]}}"#, #"golden.json:1: decode option "gatt" must be a string, number or boolean"#),
        ]
        for (text, message) in cases {
            workspace.write("golden.json", text)
            for command in [["golden", "check"], ["golden", "update", "--force"]] {
                let (code, out, err) = runTool(command + [dir])
                #expect(code == 2, "\(text)")
                #expect(out == "")
                #expect(err == "error: \(dir)/\(message)\n")
            }
            let (code, _, err) = runTool(["diff", workspace.path("env.btsnoop.golden.jsonl"), workspace.path("env.btsnoop")])
            #expect(code == 2)
            #expect(err == "error: \(dir)/\(message)\n")
        }
    }

    @Test func `a decode option the decoders refuse is a usage error for the captures it applies to`() {
        for (from, to) in [("envsensor.btsnoop", "env.btsnoop"), ("envsensor.btsnoop.golden.jsonl", "env.btsnoop.golden.jsonl")] {
            TestPaths.writeFile(workspace.path(to), TestPaths.readFile(TestPaths.captures + "/" + from)!)
        }
        workspace.capture("other.btsnoop", [Sample.env12])
        workspace.golden("other.btsnoop", [Sample.env12])
        workspace.write("golden.json", #"{"decode": {"param.envsensor.company": "0xZZ"}}"#)
        var (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 2)
        let message = "\(dir)/env.btsnoop: golden.json: parameter 'envsensor.company': '0xZZ' is not a whole number (12, 0xABCD)"
        #expect(err == "error: \(message)\n")
        #expect(out.hasPrefix("bad setting \(message)\n"))
        #expect(out.hasSuffix("checked 2 captures: 1 ok, 1 with a bad setting\n"))

        workspace.write("golden.json", #"{"decode": {"decoders": "envsensor,nosuch"}}"#)
        (code, _, err) = runTool(["golden", "update", dir])
        #expect(code == 2)
        #expect(err == "error: \(dir)/env.btsnoop: golden.json: unknown decoder 'nosuch'; 'bluetape decoders' lists them\n")

        // A misspelt option is refused, not ignored.
        workspace.write("golden.json", #"{"decode": {"envsensor_company": "0xABCD"}}"#)
        (code, _, err) = runTool(["golden", "check", dir])
        #expect(code == 2)
        #expect(err.hasPrefix("error: \(dir)/env.btsnoop: golden.json: unknown decode option 'envsensor_company'; \"decode\" takes \"decoders\", \"gatt\", \"layouts\""))
    }

    @Test func `golden.json lists layouts as a list or a string, and param keys still reach them`() throws {
        for name in ["tractor.btsnoop", "tractor.btsnoop.golden.jsonl"] {
            TestPaths.writeFile(workspace.path(name), TestPaths.readFile(TestPaths.captures + "/" + name)!)
        }
        let layout = TestPaths.packageRoot + "/layouts/tractor-pin.json"
        let parameter = #""param.pin_characteristic": "7a5b0002-3c9d-4e2f-8a1b-2c3d4e5f6071""#
        for layouts in [#"["\#(layout)"]"#, #""\#(layout)""#] {
            workspace.write("golden.json", #"{"decode": {"layouts": \#(layouts), \#(parameter)}}"#)
            let (code, out, err) = runTool(["golden", "check", "--strict", dir])
            #expect(err == "", "\(layouts)")
            #expect(code == 0, "\(layouts)")
            #expect(out.hasPrefix("ok          \(dir)/tractor.btsnoop (1 reading)\n"))
        }
        let config = try GoldenConfig.parse(
            Array(#"{"decode": {"layouts": ["a.json", "/abs/b.json"], "param.x": 5}}"#.utf8), file: "suite/golden.json")
        #expect(config.decodeOptions == ["layouts": "suite/a.json,/abs/b.json", "param.x": "5"])
        let empty = try GoldenConfig.parse(Array(#"{"decode": {"layouts": []}}"#.utf8), file: "golden.json")
        #expect(empty.decodeOptions == [:])
    }

    @Test func `a missing directory is named with the path it was looked for at`() {
        var buffer = [CChar](repeating: 0, count: 4096)
        let cwd = String(cString: getcwd(&buffer, buffer.count)!)
        var (code, out, err) = runTool(["golden", "check", "no-such-dir/./sub/.."])
        #expect(code == 3)
        #expect(out == "")
        #expect(err == "error: no-such-dir/./sub/..: no such file or directory (looked for \(cwd)/no-such-dir)\n")
        (code, _, err) = runTool(["golden", "update", dir + "/captures"])
        #expect(code == 3)
        #expect(err == "error: \(dir)/captures: no such file or directory (looked for \(dir)/captures)\n")
    }

    @Test func `hints name the subcommand to run`() {
        var (code, _, err) = runTool(["golden"])
        #expect(code == 2)
        #expect(err.hasPrefix("error: golden needs an action: `bluetape golden check [DIR…]` or `bluetape golden update [DIR…]`\n"))
        (code, _, err) = runTool(["golden", "update", dir], environment: ["CI": "true"])
        #expect(code == 2)
        #expect(err.hasSuffix("(`bluetape golden update --force` runs it anyway)\n"))
        workspace.capture("new.btsnoop", [Sample.env12])
        let out = runTool(["golden", "check", dir]).out
        #expect(out.contains("(`bluetape golden update \(dir)/new.btsnoop` writes \(dir)/new.btsnoop.golden.jsonl)"))
        (code, _, err) = runTool(["check", TestPaths.captures + "/envsensor.btsnoop"])
        #expect(code == 2)
        #expect(err.hasPrefix("error: `bluetape check` needs at least one --layout L.json (or --layouts DIR)\n"))
    }

    @Test func `check warns about a layout that matched no packet`() {
        let layouts = TestPaths.packageRoot + "/layouts"
        let envsensor = TestPaths.captures + "/envsensor.btsnoop"
        var (code, out, err) = runTool([
            "check", "--layout", layouts + "/tractor-pin.json", "--param",
            "pin_characteristic=7a5b0002-3c9d-4e2f-8a1b-2c3d4e5f6071", envsensor,
        ])
        #expect(code == 0)
        #expect(out.hasPrefix("0 readings, 0 duplicates, 0 decode errors, 0 violations"))
        #expect(
            err == "warning: layout tractor.pin (\(layouts)/tractor-pin.json) matched no packet in \(envsensor): "
                + "none of its rules was checked\n")
        (code, _, err) = runTool(["check", "--layout", layouts + "/envsensor.json", envsensor])
        #expect(err == "")
    }
}
