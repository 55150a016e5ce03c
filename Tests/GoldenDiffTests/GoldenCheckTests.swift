import GoldenDiff
import Testing

struct GoldenCheckTests {
    let workspace = Workspace()
    var dir: String { workspace.directory }

    @Test func `update followed by check is clean`() {
        workspace.capture("env.btsnoop", Sample.all)
        workspace.capture("hr.pcapng", [Sample.heartRate592])
        var (code, out, err) = runTool(["golden", "update", dir])
        #expect(code == 0)
        #expect(err == "")
        #expect(
            out == """
                created    \(dir)/env.btsnoop.golden.jsonl (4 readings)
                created    \(dir)/hr.pcapng.golden.jsonl (1 reading)

                golden update: 2 created

                """)
        (code, out, err) = runTool(["golden", "check", dir], environment: ["CI": "true"])
        #expect(code == 0)
        #expect(err == "")
        #expect(
            out == """
                ok          \(dir)/env.btsnoop (4 readings)
                ok          \(dir)/hr.pcapng (1 reading)

                checked 2 captures: 2 ok

                """)
    }

    @Test func `check shows each differing capture with its counts and changed readings`() {
        let changed = Sample.env12.replacing("23.45", with: "23.5")
        workspace.capture("env.btsnoop", [changed, Sample.heartRate592, Sample.uart600])
        workspace.golden("env.btsnoop", Sample.all)
        workspace.capture("hr.btsnoop", [Sample.heartRate592])
        workspace.golden("hr.btsnoop", [Sample.heartRate592])
        let (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 1)
        #expect(err == "")
        #expect(
            out == """
                differs     \(dir)/env.btsnoop
                    4 readings compared: 2 unchanged, 1 changed, 1 missing
                    decoder          unchanged  changed  added  missing
                    combustion.uart          1        0      0        0
                    envsensor                0        1      0        1
                    sig.heart_rate           1        0      0        0

                    ~ frame 12 envsensor C2:6B:30:F9:0E:C7
                        temperature_c  23.45 → 23.5
                    … 2 unchanged
                    - frame 700 envsensor C2:6B:30:F9:0E:C7
                        error  {"reason":"bad length: declares 16, 15 present","offset":0,"field":"payload"}
                ok          \(dir)/hr.btsnoop (1 reading)

                checked 2 captures: 1 ok, 1 differs

                """)
    }

    @Test func `captures without golden and goldens without capture fail only when strict`() {
        workspace.capture("env.btsnoop", Sample.all)
        workspace.golden("env.btsnoop", Sample.all)
        workspace.capture("new.btsnoop", [Sample.heartRate592])
        workspace.golden("old.btsnoop", [Sample.uart600])
        workspace.write("notes.txt", "not a capture")
        let report = """
            ok          \(dir)/env.btsnoop (4 readings)
            no golden   \(dir)/new.btsnoop (`bluetape golden update \(dir)/new.btsnoop` writes \(dir)/new.btsnoop.golden.jsonl)
            obsolete    \(dir)/old.btsnoop.golden.jsonl (its capture is gone)

            checked 2 captures: 1 ok, 1 without golden, 1 obsolete golden
            """
        var (code, out, _) = runTool(["golden", "check", dir])
        #expect(code == 0)
        #expect(out == report + "\n")

        (code, out, _) = runTool(["golden", "check", "--strict", dir])
        #expect(code == 1)
        #expect(out == report + " (strict: missing, obsolete and empty goldens fail the check)\n")

        (code, _, _) = runTool(["golden", "check", dir], environment: ["CI": "true"])
        #expect(code == 1)
        (code, _, _) = runTool(["golden", "check", dir], environment: ["CI": "false"])
        #expect(code == 0)
    }

    @Test func `an unreadable capture exits 3 with its name and the others are still checked`() {
        workspace.write("bad.btsnoop", "\u{0}garbage")
        workspace.golden("bad.btsnoop", [Sample.env12])
        workspace.capture("env.btsnoop", [Sample.env12])
        workspace.golden("env.btsnoop", [Sample.env12.replacing("4660", with: "4661")])
        workspace.capture("hr.btsnoop", [Sample.heartRate592])
        workspace.golden("hr.btsnoop", [Sample.heartRate592])
        let (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 3)
        #expect(err == "error: \(dir)/bad.btsnoop: not a capture (unknown format)\n")
        #expect(
            out == """
                unreadable  \(dir)/bad.btsnoop: not a capture (unknown format)
                differs     \(dir)/env.btsnoop
                    1 reading compared: 0 unchanged, 1 changed
                    decoder    unchanged  changed  added  missing
                    envsensor          0        1      0        0

                    ~ frame 12 envsensor C2:6B:30:F9:0E:C7
                        nonce  4661 → 4660
                ok          \(dir)/hr.btsnoop (1 reading)

                checked 3 captures: 1 ok, 1 differs, 1 unreadable

                """)
    }

    @Test func `a broken golden line is named by file and line and the rest is compared`() {
        workspace.capture("env.btsnoop", Sample.all)
        workspace.golden(
            "env.btsnoop",
            [Sample.env12, #"{"frame":592,"ts":1710495004.017858,"addr":"00:1A"#, Sample.uart600, Sample.envError700])
        let (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 3)
        #expect(
            err
                == "error: \(dir)/env.btsnoop.golden.jsonl:2: not a reading: not JSON at byte 50: unexpected end of input in a string\n"
        )
        #expect(out.contains("    4 readings compared: 3 unchanged, 1 added, 1 line not a reading\n"))
        #expect(out.hasSuffix("checked 1 capture: 0 ok, 1 differs, 1 golden with broken lines\n"))
    }

    @Test func `decode options from golden.json reach the decoder, also in subdirectories`() {
        workspace.write("golden.json", #"{"decode": {"param.envsensor.company": "0xABCD"}}"#)
        workspace.capture("env.btsnoop", Sample.all, requires: "param.envsensor.company=0xABCD")
        workspace.golden("env.btsnoop", Sample.all)
        workspace.directory("vendor")
        workspace.capture("vendor/env2.btsnoop", [Sample.env12], requires: "param.envsensor.company=0xABCD")
        workspace.golden("vendor/env2.btsnoop", [Sample.env12])
        var (code, out, _) = runTool(["golden", "check", dir])
        #expect(code == 0)
        #expect(out.hasSuffix("checked 2 captures: 2 ok\n"))

        workspace.write("golden.json", "{}")
        (code, out, _) = runTool(["golden", "check", dir])
        #expect(code == 3)
        #expect(out.contains("unreadable  \(dir)/env.btsnoop: decode option param.envsensor.company=0xABCD is needed\n"))
    }

    @Test func `golden.json mistakes are named by file and line`() {
        workspace.capture("env.btsnoop", Sample.all)
        workspace.write("golden.json", "{\n  \"ignore\": [\"ts\"],\n  \"tolerence\": 0.1\n}\n")
        var (code, out, err) = runTool(["golden", "check", dir])
        #expect(code == 2)
        #expect(out == "")
        #expect(
            err
                == "error: \(dir)/golden.json:3: unknown key \"tolerence\" (known: version, align, ignore, tolerance, decode, captures)\n"
        )

        workspace.write("golden.json", "{\"tolerance\": {\"temperature_c\": -1}}")
        (code, _, err) = runTool(["golden", "check", dir])
        #expect(code == 2)
        #expect(err == "error: \(dir)/golden.json:1: a tolerance must be a number, 0 or more\n")
    }

    @Test func `checking in parallel gives the same report as checking one capture at a time`() throws {
        for n in 0..<12 {
            let readings = (0..<50).map { Sample.envsensor(frame: n * 1000 + $0) }
            workspace.capture("c\(n).btsnoop", readings)
            if n % 4 != 3 {
                var golden = readings
                if n % 3 == 0 { golden[n] = Sample.envsensor(frame: n * 1000 + n, temperature: "99.5") }
                if n % 5 == 0 { golden.remove(at: 7) }
                workspace.golden("c\(n).btsnoop", golden)
            }
        }
        workspace.golden("gone.btsnoop", [Sample.env12])
        let serial = runTool(["golden", "check", "--jobs", "1", "--junit", workspace.path("serial.xml"), dir])
        let parallel = runTool(["golden", "check", "--jobs", "4", "--junit", workspace.path("parallel.xml"), dir])
        #expect(serial.code == 1)
        #expect(parallel.code == serial.code)
        #expect(parallel.out == serial.out)
        #expect(parallel.err == serial.err)
        #expect(workspace.read("parallel.xml") == workspace.read("serial.xml"))
        #expect(serial.out.hasSuffix("checked 12 captures: 4 ok, 5 differ, 3 without golden, 1 obsolete golden\n"))

        let suite = try GoldenSuite.find([dir])
        let one = GoldenCheck.run(suite, strict: false, jobs: 1, decode: FakeCaptures.decode)
        let many = GoldenCheck.run(suite, strict: false, jobs: 8, decode: FakeCaptures.decode)
        #expect(one == many)
    }

    @Test func `github format annotates the golden file's lines`() {
        let changed = Sample.env12.replacing("23.45", with: "23.5").replacing("55.3", with: "55.2")
        let added = Sample.envsensor(frame: 650, temperature: "21.5")
        workspace.capture("env.btsnoop", [changed, Sample.uart600, added, Sample.envError700])
        workspace.golden("env.btsnoop", Sample.all)
        workspace.capture("new.btsnoop", [Sample.env12])
        workspace.golden("old,one.btsnoop", [Sample.env12])
        let (code, out, _) = runTool(["golden", "check", "--format", "github", dir])
        #expect(code == 1)
        #expect(
            out == """
                ::error file=\(dir)/env.btsnoop.golden.jsonl,line=1::frame 12 envsensor C2:6B:30:F9:0E:C7 changed: \
                temperature_c 23.45 → 23.5, humidity_pct 55.3 → 55.2
                ::error file=\(dir)/env.btsnoop.golden.jsonl,line=2::frame 592 sig.heart_rate 00:1A:7D:1A:FD:C9 missing: \
                the capture no longer gives this reading
                ::error file=\(dir)/env.btsnoop.golden.jsonl,line=3::frame 650 envsensor C2:6B:30:F9:0E:C7 added: \
                the capture gives a reading the golden lacks
                ::warning file=\(dir)/new.btsnoop::no golden file: `bluetape golden update \(dir)/new.btsnoop` writes \
                \(dir)/new.btsnoop.golden.jsonl
                ::warning file=\(dir)/old%2Cone.btsnoop.golden.jsonl::obsolete golden: its capture is gone
                checked 2 captures: 0 ok, 1 differs, 1 without golden, 1 obsolete golden

                """)
    }

    @Test func `json format gives one report for the whole check`() {
        workspace.capture("env.btsnoop", [Sample.env12])
        workspace.golden("env.btsnoop", [Sample.env12])
        workspace.capture("new.btsnoop", [Sample.env12])
        let (code, out, _) = runTool(["golden", "check", "--format", "json", dir])
        #expect(code == 0)
        #expect(
            out == #"""
                {"summary":{"captures":2,"ok":1,"differing":0,"unreadable":0,"broken_goldens":0,"without_golden":1,\#
                "obsolete_goldens":0,"empty_goldens":0,"bad_settings":0,"strict":false},"captures":[{"capture":"\#(dir)/env.btsnoop","golden":"\#(dir)/env.btsnoop.golden.jsonl",\#
                "status":"ok","report":{"expected":"\#(dir)/env.btsnoop.golden.jsonl","actual":"\#(dir)/env.btsnoop","align":"frame",\#
                "summary":{"readings":1,"unchanged":1,"within_tolerance":0,"changed":0,"added":0,"missing":0,"duplicate_keys":0,\#
                "expected_readings":1,"actual_readings":1,"problems":0},"decoders":{"envsensor":{"readings":1,"unchanged":1,\#
                "within_tolerance":0,"changed":0,"added":0,"missing":0,"duplicate_keys":0}},"differences":[],"problems":[]}},\#
                {"capture":"\#(dir)/new.btsnoop","golden":"\#(dir)/new.btsnoop.golden.jsonl","status":"no_golden"}],"obsolete_goldens":[]}

                """#)
    }

    @Test func `a missing directory is unreadable input`() {
        let (code, out, err) = runTool(["golden", "check", dir + "/captures"])
        #expect(code == 3)
        #expect(out == "")
        #expect(err == "error: \(dir)/captures: no such file or directory (looked for \(dir)/captures)\n")
    }

    @Test func `options of the other action are usage errors`() {
        var (code, _, err) = runTool(["golden", "check", "--force", dir])
        #expect(code == 2)
        #expect(err.hasPrefix("error: --force applies to `bluetape golden update` only\n"))
        (code, _, err) = runTool(["golden", "update", "--junit", "x.xml", dir])
        #expect(code == 2)
        #expect(err.hasPrefix("error: --junit applies to `bluetape golden check` only\n"))
        (code, _, err) = runTool(["golden", "bless", dir])
        #expect(code == 2)
        #expect(
            err.hasPrefix(
                "error: unknown action 'bless': `bluetape golden check [DIR…]` or `bluetape golden update [DIR…]`\n"))
    }
}
