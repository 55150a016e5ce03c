import ByteReading
import JSON
import Layouts
import PayloadDecoders
import TestSupport
import Testing

/// layouts/combustion-advert.json against the built-in `combustion.advert` decoder and the
/// Combustion Android SDK's tests.
struct CombustionLayoutTests {
    static let path = Shipped.directory + "/combustion-advert.json"
    let layout: Layout
    let builtIn = CombustionAdvert()

    init() throws { layout = try Layout.load(path: Self.path) }

    func payload(_ bytes: [UInt8]) -> Payload { Payload(.manufacturerData(company: 0x09C7), bytes) }

    /// combustion-android-ble ProbeAdvertisingDataTest.kt, buildManufacturerData: the bytes after
    /// the company id, with the product type in byte 0 (the Kotlin test passes it beside them).
    static func android(
        type: UInt8 = 1, serial: [UInt8] = [0x78, 0x56, 0x34, 0x12], temperatures: [UInt8] = Array(repeating: 0, count: 13),
        modeColorID: UInt8 = 0b101_110_01, deviceStatus: UInt8 = 0b10_11_101_1, networkInfo: UInt8 = 0b1000_0000,
        overheat: UInt8 = 0, preferences: UInt8 = 0b0000_0100, size: Int = 23
    ) -> [UInt8] {
        let full = [type] + serial + temperatures + [modeColorID, deviceStatus, networkInfo, overheat, preferences]
        return Array(full.prefix(size))
    }

    /// ProbeAdvertisingDataTest.HOT_RAW_TEMPERATURES (also in ProbeStatusTest).
    static let hot: [UInt8] = [0x89, 0x00, 0xDA, 0x00, 0xD7, 0x0D, 0x07, 0x33, 0x05, 0xD5, 0x18, 0x74, 0x1A]

    func both(_ bytes: [UInt8]) -> (layout: [DecodeOutcome], builtIn: [DecodeOutcome]) {
        (layout.decode(payload(bytes)), builtIn.decode(payload(bytes)))
    }

    @Test func `the Android SDK's advertisements decode as the built-in decoder decodes them`() throws {
        let cases = [
            Self.android(), Self.android(type: 2), Self.android(temperatures: Self.hot),
            Self.android(serial: [0, 0, 0, 0], size: 18), Self.android(size: 19), Self.android(size: 21),
            Self.android(size: 22), Self.android(preferences: 0b101), Self.android(overheat: 0b101),
            Self.android(type: 2, networkInfo: 0b1000_0000), Self.android(modeColorID: 0, deviceStatus: 0),
        ]
        for bytes in cases {
            let (fromLayout, fromBuiltIn) = both(bytes)
            #expect(fromLayout == fromBuiltIn, "\(Hex.encode(bytes))")
            #expect(fromLayout.count == 1)
        }
    }

    @Test func `the values are those the Android SDK's tests assert`() throws {
        let f = try #require(fields(layout.decode(payload(Self.android())).first ?? .fields([])))
        // create parses serial number / mode color and id / battery status and virtual sensors.
        #expect(f["serial"] == .string("12345678"))
        #expect(f["mode"] == .string("instant_read"))
        #expect(f["color"] == .int(6))  // COLOR7
        #expect(f["probe_id"] == .int(6))  // ID6
        #expect(f["battery_ok"] == .bool(false))  // LOW_BATTERY
        #expect(f["virtual_core"] == .string("T6"))
        #expect(f["virtual_surface"] == .string("T7"))
        #expect(f["virtual_ambient"] == .string("T7"))
        #expect(f["high_radio_power"] == .bool(true))
        #expect(f["hop_count"] == nil)  // create ignores hop count for a probe
        // Instant Read: T2–T8 hold what the probe sent (raw 0 here), as the SDK reports them.
        #expect(f["t2_c"] == .double(-20))
        let instantHot = try #require(fields(layout.decode(payload(Self.android(temperatures: Self.hot))).first!))
        #expect(instantHot["mode"] == .string("instant_read") && instantHot["t3_c"] == .double(258.4))
        // create parses temperatures: 258.4 and 160.55 °C (±0.05).
        let hot = try #require(fields(layout.decode(payload(Self.android(temperatures: Self.hot, modeColorID: 0))).first!))
        #expect(hot["t3_c"] == .double(258.4))
        #expect(hot["t4_c"] == .double(160.55))
        // create parses hop count for a repeater: HOP3.
        let node = try #require(fields(layout.decode(payload(Self.android(type: 2))).first!))
        #expect(node["hop_count"] == .int(3))
        // create parses thermometer preferences: ALWAYS_ON and highRadioPower.
        let always = try #require(fields(layout.decode(payload(Self.android(preferences: 0b101))).first!))
        #expect(always["power_mode"] == .string("always_on"))
        // Bytes not present: the fields are absent (the SDK shows its defaults).
        let short = try #require(fields(layout.decode(payload(Self.android(size: 18))).first!))
        #expect(short["mode"] == nil && short["t8_c"] == .double(-20))
        #expect(fields(layout.decode(payload(Self.android(size: 22))).first!)?["power_mode"] == nil)
    }

    @Test func `other product types are not this layout's, as they are not the built-in decoder's`() {
        #expect(layout.decode(payload(Self.android(type: 3))) == [])
        #expect(builtIn.decode(payload(Self.android(type: 3))) == [])
    }

    @Test func `every vector of the layout, and random payloads, decode as the built-in decoder decodes them`() throws {
        let vectors = layout.vectors()
        #expect(vectors.count > 40)
        for vector in vectors {
            #expect(vector.reading == .fields(vector.input), "\(vector.name)")
            let (fromLayout, fromBuiltIn) = both(vector.bytes)
            #expect(fromLayout == fromBuiltIn, "\(vector.name)")
        }
        #expect(vectors.contains { $0.bytes.count == 18 } && vectors.contains { $0.bytes.count == 22 })
        var random = TestRandom(seed: 9)
        for _ in 0..<2000 {
            let values = layout.randomFields(using: &random)
            let bytes = try layout.encode(values)
            #expect(layout.decode(bytes: bytes) == .fields(values))
            let (fromLayout, fromBuiltIn) = both(bytes)
            #expect(fromLayout == fromBuiltIn, "\(Hex.encode(bytes))")
        }
    }

    @Test func `random advertisements decode as the built-in decoder decodes them, and encode back`() throws {
        var random = TestRandom(seed: 3)
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 18...23, using: &random)).map { i in
                i == 0 ? UInt8.random(in: 1...2, using: &random) : UInt8.random(in: 0...255, using: &random)
            }
            let (fromLayout, fromBuiltIn) = both(bytes)
            #expect(fromLayout == fromBuiltIn, "\(Hex.encode(bytes))")
            // Undescribed bits (preferences 3–7) go back as 0.
            if case .fields(let f)? = fromLayout.first { #expect(layout.decode(bytes: try layout.encode(f)) == .fields(f)) }
        }
    }
}
