import Layouts
import PayloadDecoders
import TestSupport
import Testing

/// `null_when` (layouts/README.md, "Packed bits and older firmware"), on
/// Tests/Fixtures/layouts/spot-probe.json: a value that reads null when a later field says it was
/// not measured, and is encoded as raw 0.
struct NullWhenTests {
    let layout: Layout

    init() throws {
        layout = try Layout.load(path: TestPaths.packageRoot + "/Tests/Fixtures/layouts/spot-probe.json")
    }

    @Test func `the value is null exactly when the later field has one of the values`() {
        // tip 0x00EB = 23.5 °C, ambient 0xFF38 = −20.0 °C, then the mode.
        func measured(_ mode: FieldValue) -> Fields {
            [Field("magic", 0xB2), Field("tip_c", 23.5), Field("ambient_c", -20.0), Field("mode", mode)]
        }
        #expect(layout.decode(bytes: hex("B2 EB 00 38 FF 00")) == .fields(measured("continuous")))
        for (byte, mode) in [(1, "spot"), (2, "error")] {
            #expect(
                layout.decode(bytes: hex("B2 EB 00 38 FF") + [UInt8(byte)])
                    == .fields([Field("magic", 0xB2), Field("tip_c", 23.5), Field("ambient_c", .null), Field("mode", .string(mode))]))
        }
        // A mode the enum does not name is not one of the values: the sensor reads as sent.
        #expect(layout.decode(bytes: hex("B2 EB 00 38 FF 07")) == .fields(measured(7)))
    }

    @Test func `a null is encoded as raw 0, a value as itself`() throws {
        let spot: Fields = [Field("tip_c", 23.5), Field("ambient_c", .null), Field("mode", "spot")]
        #expect(try layout.encode(spot) == hex("B2 EB 00 00 00 01"))
        let continuous: Fields = [Field("tip_c", 23.5), Field("ambient_c", -20.0), Field("mode", "continuous")]
        #expect(try layout.encode(continuous) == hex("B2 EB 00 38 FF 00"))
    }

    @Test func `a null_when naming no field is a lint error`() {
        let text = TestPaths.readText(TestPaths.packageRoot + "/Tests/Fixtures/layouts/spot-probe.json") ?? ""
        let broken = text.replacing(#""field": "mode""#, with: #""field": "mood""#)
        let problems = LayoutLinter.lint(bytes: Array(broken.utf8), name: "spot-probe.json")
        #expect(problems.contains { $0.message.contains("null_when names no field of the layout: 'mood'") })
    }
}
