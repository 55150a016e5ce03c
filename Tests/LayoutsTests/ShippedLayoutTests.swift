import BluetoothPackets
import ByteReading
import JSON
import Layouts
import PayloadDecoders
import TestSupport
import Testing

struct EnvSensorLayoutTests {
    // payloads.md §A.3: AD structure 13 FF FF FF 34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF.
    let workedExample = hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")

    @Test func `the worked example decodes to the built-in decoder's fields, power at its resolution`() throws {
        let layout = try Shipped.envSensor()
        let outcomes = layout.decode(Payload(.manufacturerData(company: 0xFFFF), workedExample))
        let expected: Fields = [
            Field("nonce", .int(4660)),
            Field("temperature_c", .double(23.45)),
            Field("humidity_pct", .double(55.3)),
            Field("pressure_hpa", .double(1013.2)),
            Field("voltage_v", .double(3.3)),
            Field("current_ma", .double(-12.34)),
            // 3.3 × -12.34 in Double is -40.721999999999994; two 0.01 steps carry four decimals.
            Field("power_mw", .double(-40.722)),
        ]
        #expect(outcomes == [.fields(expected)])
        #expect(layout.id == "envsensor.layout")
    }

    @Test func `the raw AD structure from a capture gives the same payload after the company id`() throws {
        let ad = hex("13 FF FF FF 34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")
        #expect(ad[0] == 0x13 && ad[1] == 0xFF)
        let company = UInt16(ad[2]) | UInt16(ad[3]) << 8
        let layout = try Shipped.envSensor()
        let outcome = layout.decode(Payload(.manufacturerData(company: company), Array(ad[4...])))
        #expect(fields(outcome[0])?["temperature_c"] == .double(23.45))
    }

    @Test func `power is voltage times current in Double, as the app computes it`() throws {
        // payloads.md §A.3 rounding edge: V = 1.01 (raw 101), I = 0.50 (raw 50).
        let layout = try Shipped.envSensor()
        let bytes = try layout.encode(
            JSONValue.parse(
                #"{"nonce":1,"temperature_c":0,"humidity_pct":0,"pressure_hpa":0,"voltage_v":1.01,"current_ma":0.5}"#))
        #expect(Hex.encode(bytes) == "01000000000000000000650032000000")
        let power = fields(layout.decode(bytes: bytes))?["power_mw"]
        #expect(power == .double(Double(101) / 100 * (Double(50) / 100)))
        #expect(power == .double(0.505))
    }

    @Test func `company 0xFFFF payloads of another length are errors, as the built-in decoder reports them`() throws {
        let layout = try Shipped.envSensor()
        #expect(layout.matches == [.company(0xFFFF)])
        #expect(
            layout.decode(Payload(.manufacturerData(company: 0xFFFF), Array(workedExample.dropLast()))) == [
                .error(DecodeError(.badLength(declared: 16, available: 15), at: 0, field: "payload"))
            ])
        #expect(
            layout.decode(Payload(.manufacturerData(company: 0xFFFF), workedExample + [0])) == [
                .error(DecodeError(.badLength(declared: 16, available: 17), at: 0, field: "payload"))
            ])
        #expect(layout.decode(Payload(.manufacturerData(company: 0xABCD), workedExample)) == [])
        #expect(layout.decode(Payload(.serviceData(uuid: BluetoothUUID(0xFFFF)), workedExample)) == [])
    }

    @Test func `the company id is a parameter, for firmware that advertises 0xABCD`() throws {
        let layout = try Shipped.envSensor(["company": "0xABCD"])
        #expect(layout.matches == [.company(0xABCD)])
        #expect(layout.parameter("company") == "0xABCD")
        #expect(layout.decode(Payload(.manufacturerData(company: 0xABCD), workedExample)).count == 1)
        #expect(layout.decode(Payload(.manufacturerData(company: 0xFFFF), workedExample)) == [])
    }

    @Test func `it describes its fields with units, dedups on the nonce and bounds humidity`() throws {
        let layout = try Shipped.envSensor()
        #expect(
            layout.fields.map(\.name) == [
                "nonce", "temperature_c", "humidity_pct", "pressure_hpa", "voltage_v", "current_ma", "power_mw",
            ])
        #expect(layout.fields.map(\.unit) == [nil, "°C", "%", "hPa", "V", "mA", "mW"])
        #expect(layout.dedupKey == ["nonce"])
        #expect(
            layout.rules == [
                LayoutRule(field: "humidity_pct", kind: .minimum(0)),
                LayoutRule(field: "humidity_pct", kind: .maximum(100)),
            ])
        #expect(layout.warnings.isEmpty)
    }

    @Test func `without the length rule a payload cut short is an error located at the field`() throws {
        let text = try #require(TestPaths.readText(Shipped.envSensorPath)).replacing(#""length": 16,"#, with: "")
        let layout = try Layout.parse(bytes: Array(text.utf8), name: "envsensor.json", builtInIDs: [])
        let outcome = layout.decode(bytes: Array(workedExample.prefix(11)))
        #expect(error(outcome) == DecodeError(.truncated(needed: 2, available: 1), at: 10, field: "voltage_v"))
    }
}

struct TractorPinLayoutTests {
    @Test func `loading without the characteristic UUID fails and says which parameter is missing`() {
        let thrown = #expect(throws: LayoutLoadError.self) { try Layout.load(path: Shipped.tractorPinPath) }
        let issues = thrown?.issues ?? []
        #expect(issues.count == 1)
        #expect(issues.first?.path == "$.parameters.pin_characteristic")
        #expect(issues.first?.line == 5)
        #expect(issues.first?.message.contains("has no default") == true)
    }

    @Test func `the file itself lints clean and can encode without the parameter`() throws {
        #expect(LayoutLinter.lint(path: Shipped.tractorPinPath).isEmpty)
        let layout = try Layout.load(path: Shipped.tractorPinPath, requireParameters: false)
        #expect(layout.missingParameters == ["pin_characteristic"])
        #expect(layout.matches.isEmpty)
        // payloads.md §C: PIN 0x1A2B is written as 2B 1A.
        #expect(try layout.encode(JSONValue.parse(#"{"pin": 6699}"#)) == [0x2B, 0x1A])
    }

    @Test func `with the UUID set it decodes the PIN write and nothing else`() throws {
        let layout = try Shipped.tractorPin()
        let uuid = try #require(BluetoothUUID(Shipped.pinUUID))
        #expect(layout.matches == [.characteristic(uuid)])
        #expect(
            layout.decode(Payload(.attribute(uuid: uuid, operation: .write), [0x2B, 0x1A])) == [
                .fields([Field("pin", 6699)])
            ])
        #expect(layout.decode(Payload(.attribute(uuid: uuid, operation: .notify), [0x2B, 0x1A])) == [])
        #expect(layout.decode(Payload(.attribute(uuid: BluetoothUUID(0x2A37), operation: .write), [0x2B, 0x1A])) == [])
        #expect(
            layout.decode(Payload(.attribute(uuid: uuid, operation: .write), [0x2B, 0x1A, 0x00])) == [
                .error(DecodeError(.badLength(declared: 2, available: 3), at: 0, field: "payload"))
            ])
    }

    @Test func `a bad UUID or an unknown parameter name is a located error`() {
        let bad = #expect(throws: LayoutLoadError.self) {
            try Layout.load(path: Shipped.tractorPinPath, parameters: ["pin_characteristic": "not-a-uuid"])
        }
        #expect(
            bad?.issues.map(\.message) == [
                #"the value "not-a-uuid" given for 'pin_characteristic' is not a valid uuid"#
            ])
        let unknown = #expect(throws: LayoutLoadError.self) {
            try Layout.load(
                path: Shipped.tractorPinPath, parameters: ["pin_characteristic": "2a00", "pin_uuid": "2a00"])
        }
        #expect(unknown?.issues.map(\.path) == ["$.parameters"])
    }
}
