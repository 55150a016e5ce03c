import JSON
import TestSupport
import Testing

struct LayoutCommandTests {
    let envSensor = TestPaths.packageRoot + "/layouts/envsensor.json"
    let tractorPin = TestPaths.packageRoot + "/layouts/tractor-pin.json"

    func write(_ text: String) -> String {
        let path = TestPaths.temporaryDirectory() + "/bad.json"
        TestPaths.writeFile(path, Array(text.utf8))
        return path
    }

    @Test func `layout lint passes the shipped layouts`() {
        let (code, out, err) = runTool(["layout", "lint", envSensor, tractorPin])
        #expect(code == 0)
        #expect(out == "\(envSensor): ok\n\(tractorPin): ok\n")
        #expect(err.isEmpty)
    }

    @Test func `layout lint prints located errors and exits 1`() {
        let path = write(
            "{\n  \"id\": \"x\",\n  \"match\": {\"company\": 1},\n  \"fields\": [{\"name\": \"Temp\", \"type\": \"u8\"}]\n}\n"
        )
        let (code, out, _) = runTool(["layout", "lint", path])
        #expect(code == 1)
        #expect(out == "\(path):4: $.fields[0].name: \"Temp\" is not snake_case (try \"temp\")\n")
    }

    @Test func `layout lint of a missing file exits 3`() {
        let (code, _, err) = runTool(["layout", "lint", "/nonexistent/l.json"])
        #expect(code == 3)
        #expect(err == "error: /nonexistent/l.json: cannot read: no such file\n")
    }

    @Test func `layout encode prints the payload as hex`() {
        let values =
            #"{"nonce":4660,"temperature_c":23.45,"humidity_pct":55.3,"pressure_hpa":1013.2,"voltage_v":3.3,"current_ma":-12.34}"#
        let (code, out, err) = runTool(["layout", "encode", envSensor, values])
        #expect(code == 0)
        #expect(out == "341229099a15942700004a012efbffff\n")
        #expect(err.isEmpty)
        let pin = runTool(["layout", "encode", tractorPin, #"{"pin": 6699}"#])
        #expect(pin.0 == 0)
        #expect(pin.1 == "2b1a\n")
    }

    @Test func `layout encode reports a value it cannot encode and exits 1`() {
        let (code, out, err) = runTool(["layout", "encode", tractorPin, #"{"pin": 70000}"#])
        #expect(code == 1)
        #expect(out.isEmpty)
        #expect(err == "error: pin: 70000 is out of range: u16 holds 0…65535\n")
    }

    @Test func `layout vectors prints one JSON object per line`() throws {
        let (code, out, _) = runTool(["layout", "vectors", tractorPin])
        #expect(code == 0)
        #expect(
            out == """
                {"name":"pin = 0 (min)","hex":"0000","expect":{"pin":0}}
                {"name":"pin = 65535 (max)","hex":"ffff","expect":{"pin":65535}}

                """)
        let lines = runTool(["layout", "vectors", envSensor]).1.split(separator: "\n")
        #expect(lines.count == 14)
        #expect(try JSONValue.parse(String(lines[1]))["hex"] == .string("ffff0000000000000000000000000000"))
    }

    @Test func `layout decode prints the fields of a hex payload`() {
        let (code, out, _) = runTool(["layout", "decode", envSensor, "34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF"])
        #expect(code == 0)
        #expect(
            out
                == #"{"nonce":4660,"temperature_c":23.45,"humidity_pct":55.3,"pressure_hpa":1013.2,"voltage_v":3.3,"current_ma":-12.34,"power_mw":-40.722}"#
                + "\n")
        let short = runTool(["layout", "decode", envSensor, "3412"])
        #expect(short.0 == 1)
        #expect(
            short.1 == #"{"error":{"reason":"bad length: declares 16, 2 present","offset":0,"field":"payload"}}"# + "\n"
        )
    }

    @Test func `layout export writes each format, to stdout or -o, and refuses two formats at once`() throws {
        let (code, lua, _) = runTool(["layout", "export", "--wireshark", envSensor])
        #expect(code == 0)
        #expect(lua.contains(#"local proto = Proto("envsensor_layout""#))
        let (markdownCode, markdown, _) = runTool(["layout", "export", "--markdown", envSensor])
        #expect(markdownCode == 0 && markdown.hasPrefix("# envsensor.layout\n"))
        let path = TestPaths.temporaryDirectory() + "/envsensor.h"
        #expect(runTool(["layout", "export", "--c", envSensor, "-o", path]).0 == 0)
        #expect(TestPaths.readText(path)?.contains("envsensor_layout_decode") == true)
        #expect(runTool(["layout", "export", "--c", "--markdown", envSensor]).0 == 2)
        #expect(runTool(["layout", "export", "--c", envSensor, envSensor]).0 == 2)
        #expect(runTool(["layout", "export", envSensor]).0 == 2)
    }

    @Test func `layout usage errors exit 2`() {
        #expect(runTool(["layout"]).0 == 2)
        let (code, _, err) = runTool(["layout", "lnt", envSensor])
        #expect(code == 2)
        #expect(err.contains("unknown action 'lnt' (lint, encode, vectors, decode or export); did you mean 'lint'?"))
        #expect(runTool(["layout", "encode", envSensor, "{nonce"]).0 == 2)
        #expect(runTool(["layout", "encode", envSensor, "{}", "--param", "company"]).0 == 2)
        #expect(runTool(["layout", "decode", envSensor, "xyz"]).0 == 2)
    }

    @Test func `layout parameters are set with --param`() {
        let bad = runTool(["layout", "lint", tractorPin, "--param", "pin_characteristic=nope"])
        #expect(bad.0 == 1)
        #expect(
            bad.1.contains(
                #"$.parameters.pin_characteristic: the value "nope" given for 'pin_characteristic' is not a valid uuid"#
            ))
        let good = runTool(["layout", "lint", tractorPin, "--param=pin_characteristic=2a00"])
        #expect(good.0 == 0)
    }
}
