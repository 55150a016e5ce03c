import ByteReading
import JSON
import Layouts
import PayloadDecoders
import TestSupport
import Testing

/// A layout from inline JSON, named "test.json" in issues, with no built-in ids to collide with.
/// Every layout the tests build is exported to all three formats too (scripts/test-layout-export
/// checks the exports of the shipped and fixture layouts against Wireshark and a C compiler).
func layout(_ json: String, parameters: [String: String] = [:]) throws -> Layout {
    let layout = try Layout.parse(bytes: Array(json.utf8), name: "test.json", parameters: parameters, builtInIDs: [])
    exportEverywhere(layout)
    return layout
}

/// Exports a layout to Wireshark, C and Markdown, and checks what every export must hold.
func exportEverywhere(_ layout: Layout) {
    let prefix = layout.id.split(separator: ".").joined(separator: "_")
    let lua = LayoutExport.wireshark([layout])
    #expect(lua.contains("Proto(\"\(prefix)\""))
    let header = LayoutExport.c(layout)
    #expect(header.contains("static inline int \(prefix)_decode(const uint8_t *buf, size_t len, \(prefix)_t *out)"))
    #expect(header.contains("static inline int \(prefix)_encode(const \(prefix)_t *in, uint8_t *buf, size_t len)"))
    #expect(!LayoutExport.cTest(layout).isEmpty)
    let markdown = LayoutExport.markdown(layout)
    #expect(markdown.hasPrefix("# \(layout.id)\n"))
    layout.forEachFieldName { #expect(markdown.contains("`\($0)`"), "\($0) in the Markdown table") }
}

/// Bytes from hex with spaces.
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text) ?? []
}

/// The fields of a successful decode, nil for an error.
func fields(_ outcome: DecodeOutcome) -> Fields? {
    if case .fields(let f) = outcome { return f }
    return nil
}

func error(_ outcome: DecodeOutcome) -> DecodeError? {
    if case .error(let e) = outcome { return e }
    return nil
}

/// The layouts shipped in layouts/.
enum Shipped {
    static let directory = TestPaths.packageRoot + "/layouts"
    static let envSensorPath = directory + "/envsensor.json"
    static let tractorPinPath = directory + "/tractor-pin.json"
    static let pinUUID = "8f2a3b10-5c7d-4e9f-a1b2-c3d4e5f60718"

    static func envSensor(_ parameters: [String: String] = [:]) throws -> Layout {
        try Layout.load(path: envSensorPath, parameters: parameters)
    }

    static let all = ["envsensor.json", "tractor-pin.json", "combustion-advert.json"]

    static func tractorPin() throws -> Layout {
        try Layout.load(path: tractorPinPath, parameters: ["pin_characteristic": pinUUID])
    }
}

/// An illustrative layout using every feature at once (not a real device), also exported and
/// checked against Wireshark and a C compiler by scripts/test-layout-export.
let featureLayoutJSON = TestPaths.readText(TestPaths.packageRoot + "/Tests/Fixtures/layouts/acme-station.json") ?? ""
