import Layouts
import PayloadDecoders
import TestSupport
import Testing

/// `bluetape layout export`: what the generated files say. scripts/test-layout-export runs them
/// (tshark with the plugin, the C header under the sanitizers, the Markdown's examples).
struct ExportTests {
    static let files =
        Shipped.all.map { Shipped.directory + "/" + $0 }
        + ["acme-station.json", "heart-rate.json", "thermometer.json", "spot-probe.json"].map {
            TestPaths.packageRoot + "/Tests/Fixtures/layouts/" + $0
        }

    @Test(arguments: files) func `every shipped and fixture layout exports to all three`(path: String) throws {
        let layout = try Layout.load(path: path, requireParameters: false)
        exportEverywhere(layout)
    }

    @Test func `the plugin registers each layout where Wireshark offers its payloads, with its parameters as preferences`() throws {
        let env = try Shipped.envSensor()
        let pin = try Layout.load(path: Shipped.tractorPinPath, requireParameters: false)
        let lua = LayoutExport.wireshark([env, pin])
        #expect(lua.contains(#"proto.prefs.company = Pref.uint("company", 65535"#))
        #expect(lua.contains(#"add("btcommon.eir_ad.manufacturer_company_id", proto.prefs.company)"#))
        #expect(lua.contains(#"add("bluetooth.uuid", bluetape.uuid_key(proto.prefs.pin_characteristic))"#))
        #expect(lua.contains(#"if op ~= nil and not (op.value == 18 or op.value == 82) then return 0 end"#))
        #expect(lua.contains(#"ProtoField.double("envsensor_layout.temperature_c", "temperature_c (°C)")"#.asLuaText))
        #expect(lua.contains("ProtoExpert.new(\"envsensor_layout.malformed\""))
        #expect(lua.contains("function proto.prefs_changed() register() end"))
    }

    @Test func `the C header needs no floating point where the layout needs none`() throws {
        let pin = try Layout.load(path: Shipped.tractorPinPath, requireParameters: false)
        let header = LayoutExport.c(pin)
        #expect(!header.contains("double") && !header.contains("math.h"))
        #expect(header.contains("uint16_t pin;"))
        let env = LayoutExport.c(try Shipped.envSensor())
        #expect(env.contains("int16_t temperature_c_raw;") && env.contains("double temperature_c;"))
        #expect(!env.contains("*(uint") && !env.contains("malloc"))
    }

    @Test func `the Markdown page has the byte table, the match and two worked examples`() throws {
        let page = LayoutExport.markdown(try Shipped.envSensor())
        #expect(page.contains("| 2 | 2 | i16 LE | `temperature_c` | ÷ 100 | °C |  |  |"))
        #expect(page.contains("- Manufacturer data of company 0xFFFF (parameter `company`)"))
        #expect(page.split(separator: "\n").filter { $0 == "```json" }.count == 2)
    }
}

extension String {
    /// The text as luaString writes it: bytes outside printable ASCII as decimal escapes.
    var asLuaText: String {
        var out = ""
        for byte in utf8 {
            if (0x20..<0x7F).contains(byte) { out.append(Character(Unicode.Scalar(byte))) } else { out += "\\" + String(byte) }
        }
        return out
    }
}
