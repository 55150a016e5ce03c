import GoldenDiff
import TestSupport
import Testing

struct GoldenUpdateTests {
    let workspace = Workspace()
    var dir: String { workspace.directory }

    @Test func `update says per golden whether it was created, changed or left alone`() {
        let changed = Sample.env12.replacing("23.45", with: "23.5")
        workspace.capture("env.btsnoop", [changed, Sample.uart600, Sample.envError700, Sample.envsensor(frame: 800)])
        workspace.golden("env.btsnoop", Sample.all)
        workspace.capture("hr.btsnoop", [Sample.heartRate592])
        workspace.golden("hr.btsnoop", [Sample.heartRate592])
        workspace.capture("new.btsnoop", [Sample.env12, Sample.uart600])
        workspace.golden("gone.btsnoop", [Sample.env12])
        let (code, out, err) = runTool(["golden", "update", dir])
        #expect(code == 0)
        #expect(err == "")
        #expect(
            out == """
                updated    \(dir)/env.btsnoop.golden.jsonl: 1 changed, 1 added, 1 removed
                unchanged  \(dir)/hr.btsnoop.golden.jsonl (1 reading)
                created    \(dir)/new.btsnoop.golden.jsonl (2 readings)
                obsolete   \(dir)/gone.btsnoop.golden.jsonl (its capture is gone; not removed)

                golden update: 1 created, 1 updated, 1 unchanged

                """)
        #expect(workspace.read("gone.btsnoop.golden.jsonl") == Sample.lines([Sample.env12]))
    }

    @Test func `goldens hold exactly the decoded bytes and no temporary file is left`() throws {
        // Not canonical on purpose: the update must not reformat what the decoders give.
        let readings = Sample.lines(Sample.all) + "\n" + #"{"frame":900, "decoder":"x"}"# + "\n"
        workspace.write("env.btsnoop", FakeCaptures.header + "\n" + readings)
        let (code, _, _) = runTool(["golden", "update", workspace.path("env.btsnoop")])
        #expect(code == 0)
        #expect(workspace.read("env.btsnoop.golden.jsonl") == readings)
        #expect(TestPaths.list(dir) == ["env.btsnoop", "env.btsnoop.golden.jsonl"])
    }

    @Test func `update refuses to run when CI is set unless forced`() {
        workspace.capture("env.btsnoop", Sample.all)
        workspace.golden("env.btsnoop", [Sample.env12])
        var (code, out, err) = runTool(["golden", "update", dir], environment: ["CI": "true"])
        #expect(code == 2)
        #expect(out == "")
        #expect(
            err == """
                error: golden update does not run when CI is set: goldens are written where a person reviews them, \
                never by the CI run that checks them (`bluetape golden update --force` runs it anyway)

                """)
        #expect(workspace.read("env.btsnoop.golden.jsonl") == Sample.lines([Sample.env12]))

        (code, out, _) = runTool(["golden", "update", "--force", dir], environment: ["CI": "true"])
        #expect(code == 0)
        #expect(out.hasPrefix("updated    \(dir)/env.btsnoop.golden.jsonl: 0 changed, 3 added, 0 removed\n"))
        #expect(workspace.read("env.btsnoop.golden.jsonl") == Sample.lines(Sample.all))
    }

    @Test func `update of named files touches only those goldens`() {
        workspace.capture("a.btsnoop", [Sample.env12])
        workspace.capture("b.btsnoop", [Sample.env12])
        let (code, out, _) = runTool(["golden", "update", workspace.path("b.btsnoop.golden.jsonl")])
        #expect(code == 0)
        #expect(out == "created    \(dir)/b.btsnoop.golden.jsonl (1 reading)\n\ngolden update: 1 created\n")
        #expect(workspace.read("a.btsnoop.golden.jsonl") == nil)
    }

    @Test func `a capture that cannot be decoded keeps its golden and exits 3`() {
        workspace.write("bad.btsnoop", "garbage")
        workspace.golden("bad.btsnoop", [Sample.env12])
        workspace.capture("ok.btsnoop", [Sample.env12])
        let (code, out, err) = runTool(["golden", "update", dir])
        #expect(code == 3)
        #expect(
            out == """
                failed     \(dir)/bad.btsnoop: not a capture (unknown format)
                created    \(dir)/ok.btsnoop.golden.jsonl (1 reading)

                golden update: 1 created, 1 failed

                """)
        #expect(err == "error: \(dir)/bad.btsnoop: not a capture (unknown format)\n")
        #expect(workspace.read("bad.btsnoop.golden.jsonl") == Sample.lines([Sample.env12]))
    }
}
