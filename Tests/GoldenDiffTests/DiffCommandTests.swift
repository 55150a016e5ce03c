import Testing

struct DiffCommandTests {
    let workspace = Workspace()

    /// Writes both sides as readings files and runs `bluetape diff` on them.
    func diff(
        _ expected: [String], _ actual: [String], _ options: [String] = []
    ) -> (code: Int32, out: String, err: String) {
        workspace.write("expected.jsonl", Sample.lines(expected))
        workspace.write("actual.jsonl", Sample.lines(actual))
        return runTool(["diff"] + options + [workspace.path("expected.jsonl"), workspace.path("actual.jsonl")])
    }

    var header: String {
        """
        expected: \(workspace.path("expected.jsonl")) (4 readings)
        actual:   \(workspace.path("actual.jsonl")) (4 readings)
        """
    }

    @Test func `identical readings give a clean report and exit 0`() {
        let (code, out, err) = diff(Sample.all, Sample.all)
        #expect(code == 0)
        #expect(err == "")
        #expect(
            out == """
                4 readings compared: 4 unchanged
                \(header)

                  decoder          unchanged  changed  added  missing
                  combustion.uart          1        0      0        0
                  envsensor                2        0      0        0
                  sig.heart_rate           1        0      0        0

                """)
    }

    @Test func `a changed field is shown once as expected → actual and exits 1`() {
        let changed = Sample.env12.replacing("23.45", with: "23.5")
        let (code, out, err) = diff(Sample.all, [changed] + Sample.all.dropFirst())
        #expect(code == 1)
        #expect(err == "")
        #expect(
            out == """
                4 readings compared: 3 unchanged, 1 changed
                \(header)

                  decoder          unchanged  changed  added  missing
                  combustion.uart          1        0      0        0
                  envsensor                1        1      0        0
                  sig.heart_rate           1        0      0        0

                ~ frame 12 envsensor C2:6B:30:F9:0E:C7
                    temperature_c  23.45 → 23.5
                … 3 unchanged

                """)
    }

    @Test func `a dropped reading is missing and an added one is listed with its fields`() {
        let added = Sample.envsensor(frame: 650, temperature: "21.5")
        let actual = [Sample.env12, Sample.uart600, added, Sample.envError700]
        let (code, out, _) = diff(Sample.all, actual)
        #expect(code == 1)
        #expect(
            out == """
                5 readings compared: 3 unchanged, 1 added, 1 missing
                \(header)

                  decoder          unchanged  changed  added  missing
                  combustion.uart          1        0      0        0
                  envsensor                2        0      1        0
                  sig.heart_rate           0        0      0        1

                … 1 unchanged
                - frame 592 sig.heart_rate 00:1A:7D:1A:FD:C9
                    fields  {"heart_rate_bpm":82,"rr_intervals_s":[1,0.775390625]}
                … 1 unchanged
                + frame 650 envsensor C2:6B:30:F9:0E:C7
                    fields  {"nonce":650,"temperature_c":21.5,"humidity_pct":55.3}
                … 1 unchanged

                """)
    }

    @Test func `a float shifted within tolerance is unchanged and beyond it is a change`() {
        let within = [Sample.env12.replacing("23.45", with: "23.46")] + Sample.all.dropFirst()
        var result = diff(Sample.all, within, ["--tolerance", "temperature_c=0.01"])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("4 readings compared: 4 unchanged (1 within tolerance)\n"))

        result = diff(Sample.all, within, ["--tolerance", "1e-6"])
        #expect(result.code == 1)
        #expect(
            result.out.contains(
                "\n~ frame 12 envsensor C2:6B:30:F9:0E:C7\n    temperature_c  23.45 → 23.46  (tolerance 1e-06)\n"))

        let beyond = [Sample.env12.replacing("23.45", with: "23.47")] + Sample.all.dropFirst()
        result = diff(Sample.all, beyond, ["--tolerance", "1e-6", "--tolerance", "temperature_c=0.01"])
        #expect(result.code == 1)
        #expect(result.out.hasPrefix("4 readings compared: 3 unchanged, 1 changed\n"))
        #expect(result.out.contains("\n    temperature_c  23.45 → 23.47  (tolerance 0.01)\n"))
    }

    @Test func `ignored fields and top-level keys are not compared`() {
        let shifted = [
            Sample.env12.replacing("1710495001.151075", with: "1710495001.2").replacing("55.3", with: "60"),
            Sample.heartRate592, Sample.uart600, Sample.envError700,
        ]
        var result = diff(Sample.all, shifted, ["--ignore", "ts,humidity_pct"])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("4 readings compared: 4 unchanged\n"))

        result = diff(Sample.all, shifted, ["--ignore", "ts"])
        #expect(result.code == 1)
        #expect(result.out.contains("~ frame 12 envsensor C2:6B:30:F9:0E:C7\n    humidity_pct  55.3 → 60\n"))
    }

    @Test func `two readings with one key are reported and not paired`() {
        let twin = Sample.env12.replacing("4660", with: "4661")
        let (code, out, _) = diff(Sample.all, [Sample.env12, twin] + Sample.all.dropFirst())
        #expect(code == 1)
        #expect(
            out == """
                4 readings compared: 3 unchanged, 1 duplicate key
                expected: \(workspace.path("expected.jsonl")) (4 readings)
                actual:   \(workspace.path("actual.jsonl")) (5 readings)

                  decoder          unchanged  changed  added  missing  duplicate keys
                  combustion.uart          1        0      0        0               0
                  envsensor                1        0      0        0               1
                  sig.heart_rate           1        0      0        0               0

                ! frame 12 envsensor C2:6B:30:F9:0E:C7  key not unique: expected line 1, actual lines 1, 2 (not compared)
                … 3 unchanged

                """)
    }

    @Test func `a malformed expected line is named by file and line and the rest is compared`() {
        let broken = String(Sample.heartRate592.prefix(60))
        let changed = Sample.uart600.replacing("43", with: "44")
        let (code, out, err) = diff(
            [Sample.env12, broken, Sample.uart600, Sample.envError700],
            [Sample.env12, Sample.heartRate592, changed, Sample.envError700])
        #expect(code == 3)
        #expect(
            err == """
                error: \(workspace.path("expected.jsonl")):2: not a reading: not JSON at byte 61: unexpected end of input in a string

                """)
        #expect(
            out.hasSuffix(
                """
                … 1 unchanged
                + frame 592 sig.heart_rate 00:1A:7D:1A:FD:C9
                    fields  {"heart_rate_bpm":82,"rr_intervals_s":[1,0.775390625]}
                ~ frame 600 combustion.uart 00:1A:7D:1A:FD:C9 index 1
                    sequence  43 → 44
                … 1 unchanged

                """))
        #expect(out.hasPrefix("4 readings compared: 2 unchanged, 1 changed, 1 added, 1 line not a reading\n"))
    }

    @Test func `a reading that became an error shows each side's object whole`() {
        let failed = Sample.env12.replacing(
            #""fields":{"nonce":4660,"temperature_c":23.45,"humidity_pct":55.3}"#,
            with: #""error":{"reason":"truncated","offset":4,"field":"humidity_pct"}"#)
        let (code, out, _) = diff(Sample.all, [failed] + Sample.all.dropFirst())
        #expect(code == 1)
        #expect(
            out.contains(
                """
                ~ frame 12 envsensor C2:6B:30:F9:0E:C7
                    fields  {"nonce":4660,"temperature_c":23.45,"humidity_pct":55.3} → (absent)
                    error   (absent) → {"reason":"truncated","offset":4,"field":"humidity_pct"}

                """))
    }

    @Test func `json format gives the same report as one object`() {
        let changed = Sample.env12.replacing("23.45", with: "23.5")
        let (code, out, _) = diff(Sample.all, [changed, Sample.uart600], ["--format", "json"])
        #expect(code == 1)
        let expected = workspace.path("expected.jsonl")
        let actual = workspace.path("actual.jsonl")
        #expect(
            out == #"""
                {"expected":"\#(expected)","actual":"\#(actual)","align":"frame",\#
                "summary":{"readings":4,"unchanged":1,"within_tolerance":0,"changed":1,"added":0,"missing":2,"duplicate_keys":0,\#
                "expected_readings":4,"actual_readings":2,"problems":0},\#
                "decoders":{"combustion.uart":{"readings":1,"unchanged":1,"within_tolerance":0,"changed":0,"added":0,"missing":0,"duplicate_keys":0},\#
                "envsensor":{"readings":2,"unchanged":0,"within_tolerance":0,"changed":1,"added":0,"missing":1,"duplicate_keys":0},\#
                "sig.heart_rate":{"readings":1,"unchanged":0,"within_tolerance":0,"changed":0,"added":0,"missing":1,"duplicate_keys":0}},\#
                "differences":[\#
                {"status":"changed","key":{"frame":12,"decoder":"envsensor","addr":"C2:6B:30:F9:0E:C7"},"expected_line":1,"actual_line":1,\#
                "changes":[{"field":"temperature_c","expected":23.45,"actual":23.5}]},\#
                {"status":"missing","key":{"frame":592,"decoder":"sig.heart_rate","addr":"00:1A:7D:1A:FD:C9"},"expected_line":2,"reading":\#(Sample.heartRate592)},\#
                {"status":"missing","key":{"frame":700,"decoder":"envsensor","addr":"C2:6B:30:F9:0E:C7"},"expected_line":4,"reading":\#(Sample.envError700)}],\#
                "problems":[]}

                """#)
    }

    @Test func `sequence alignment pairs readings by order within address and decoder`() {
        // The same device seen in a capture of another firmware build: other frames, other times.
        let before = [10, 20, 30].map { Sample.envsensor(frame: $0, temperature: "21.5", nonce: $0) }
        let after = [
            Sample.envsensor(frame: 14, temperature: "21.5", nonce: 10),
            Sample.envsensor(frame: 27, temperature: "25.1", nonce: 20),
            Sample.envsensor(frame: 33, temperature: "21.5", nonce: 30),
        ]
        workspace.write("expected.jsonl", Sample.lines(before))
        workspace.write("actual.jsonl", Sample.lines(after))
        let (code, out, _) = runTool([
            "diff", "--align", "sequence", workspace.path("expected.jsonl"), workspace.path("actual.jsonl"),
        ])
        #expect(code == 1)
        #expect(
            out.hasSuffix(
                """
                … 1 unchanged
                ~ envsensor C2:6B:30:F9:0E:C7 #2 (frame 20 → 27)
                    temperature_c  21.5 → 25.1
                … 1 unchanged

                """))
        #expect(out.hasPrefix("3 readings compared: 2 unchanged, 1 changed\n"))
    }

    @Test func `golden.json beside the expected file carries tolerances and ignores`() {
        workspace.write(
            "golden.json", #"{"version": 1, "ignore": ["ts"], "tolerance": {"*": 1e-9, "temperature_c": 0.05}}"#)
        let actual =
            [
                Sample.env12.replacing("23.45", with: "23.49").replacing("1710495001.151075", with: "1710495001.151076")
            ] + Sample.all.dropFirst()
        var result = diff(Sample.all, actual)
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("4 readings compared: 4 unchanged (1 within tolerance)\n"))

        // The command line wins over the file.
        result = diff(Sample.all, actual, ["--tolerance", "temperature_c=0.01"])
        #expect(result.code == 1)
        #expect(result.out.contains("    temperature_c  23.45 → 23.49  (tolerance 0.01)\n"))
    }

    @Test func `a capture is decoded on the fly and compared with readings`() {
        let capture = workspace.capture("env.btsnoop", Sample.all)
        workspace.write("expected.jsonl", Sample.lines(Sample.all))
        let (code, out, err) = runTool(["diff", workspace.path("expected.jsonl"), capture])
        #expect(code == 0)
        #expect(err == "")
        #expect(out.contains("actual:   \(capture) (4 readings)\n"))
    }

    @Test func `files that golden.json names are found beside it, wherever ACTUAL is`() {
        workspace.write("golden.json", #"{"decode": {"layouts": "../layouts/pin.json"}}"#)
        workspace.write("expected.jsonl", Sample.lines(Sample.all))
        let elsewhere = Workspace()
        let capture = elsewhere.capture(
            "copy.btsnoop", Sample.all, requires: "layouts=\(workspace.directory)/../layouts/pin.json")
        let (code, out, err) = runTool(["diff", workspace.path("expected.jsonl"), capture])
        #expect(err == "")
        #expect(code == 0)
        #expect(out.hasPrefix("4 readings compared: 4 unchanged\n"))
    }

    @Test func `a damaged capture is compared as far as it was read, and exits 3 naming the damage`() {
        workspace.write("expected.jsonl", Sample.lines(Sample.all))
        let path = workspace.path("cut.btsnoop")
        workspace.write("cut.btsnoop", "FAKE-CAPTURE damaged\n" + Sample.lines(Array(Sample.all.dropLast())))
        let (code, out, err) = runTool(["diff", workspace.path("expected.jsonl"), path])
        #expect(code == 3)
        #expect(out.hasPrefix("4 readings compared: 3 unchanged, 1 missing\n"))
        #expect(err == "error: \(path): frame 9 at byte offset 300: record cut short\n")
    }

    @Test func `golden check refuses a damaged capture: a golden comes from a whole one`() {
        workspace.write("cut.btsnoop", "FAKE-CAPTURE damaged\n" + Sample.lines(Sample.all))
        workspace.golden("cut.btsnoop", Sample.all)
        let (code, out, _) = runTool(["golden", "check", workspace.directory])
        #expect(code == 3)
        #expect(out.contains("frame 9 at byte offset 300: record cut short"))
    }

    @Test func `an unreadable capture exits 3 with its name`() {
        workspace.write("broken.btsnoop", "\u{1}\u{2}not a capture")
        workspace.write("expected.jsonl", Sample.lines(Sample.all))
        let (code, out, err) = runTool(["diff", workspace.path("expected.jsonl"), workspace.path("broken.btsnoop")])
        #expect(code == 3)
        #expect(out == "")
        #expect(err == "error: \(workspace.path("broken.btsnoop")): not a capture (unknown format)\n")
    }

    @Test func `wrong command lines exit 2 with the usage line`() {
        var (code, _, err) = runTool(["diff", "only-one.jsonl"])
        #expect(code == 2)
        #expect(
            err
                == "error: `bluetape diff` compares two files: EXPECTED and ACTUAL (got 1)\nusage: bluetape diff [options] EXPECTED ACTUAL\n"
        )
        (code, _, err) = runTool(["diff", "--tolerance", "temperature_c=-1", "a", "b"])
        #expect(code == 2)
        #expect(err.hasPrefix("error: --tolerance temperature_c: '-1' is not a tolerance (a number, 0 or more)\n"))
        (code, _, err) = runTool(["diff", "--align", "time", "a", "b"])
        #expect(code == 2)
        #expect(err.hasPrefix("error: --align must be one of frame, sequence, not 'time'\n"))
    }

    @Test func `help documents the golden.json schema`() {
        let (code, out, _) = runTool(["help", "diff"])
        #expect(code == 0)
        #expect(out.contains(#""tolerance": {"*": 1e-6, "temperature_c": 0.05},  absolute; "*" is every number"#))
        #expect(out.contains(#""decode": {"param.acme.company": "0xABCD",        options for the capture decoder"#))
        #expect(out.contains(#""captures": {"idle.btsnoop": {"allow_empty": true}}   rules for one capture here"#))
    }
}
