import ByteReading
import PayloadDecoders
import TestSupport
import Testing

struct CombustionAdvertTests {
    let decoder = CombustionAdvert()

    /// combustion.md §9.1 without the AD header and company id (`19 FF C7 09`).
    static let probeAdvert = "01 CD AB 00 10 84 C3 71 60 0E F4 01 4B 80 0C 58 42 6A 44 D4 00 00"

    @Test func `a probe advertisement decodes as in the worked example`() {
        let fields = decodeFields(decoder, .manufacturer(0x09C7, hex(Self.probeAdvert)))
        expectFields(
            fields,
            [
                "product_type": 1, "product": "probe", "serial": "1000ABCD",
                "t1_c": 25.0, "t2_c": 25.5, "t3_c": 26.0, "t4_c": 30.0,
                "t5_c": 40.0, "t6_c": 60.0, "t7_c": 100.0, "t8_c": 150.0,
                "mode": "normal", "color": 1, "color_name": "grey", "probe_id": 3,
                "battery_ok": true, "virtual_core": "T3", "virtual_surface": "T5", "virtual_ambient": "T8",
                "network_info": 0, "overheating": .list([]),
            ])
    }

    @Test func `a repeater advertisement in instant read keeps T2 to T8 as sent`() {
        // combustion.md §9.2, the Android test data as a repeater advert (company id dropped); the
        // Android SDK reports T2–T8 in instant read mode too (CombustionSDKVectorTests).
        let bytes = hex("02 78 56 34 12 89 00 DA 00 D7 0D 07 33 05 D5 18 74 1A B9 BB 80 0C")
        expectFields(
            decodeFields(decoder, .manufacturer(0x09C7, bytes)),
            [
                "product_type": 2, "product": "repeater", "serial": "12345678",
                "t1_c": -13.15, "t2_c": 67.2, "t3_c": 258.4, "t4_c": 160.55,
                "t5_c": 225.6, "t6_c": 114.5, "t7_c": 189.75, "t8_c": 22.3,
                "mode": "instant_read", "color": 6, "probe_id": 6,
                "battery_ok": false, "virtual_core": "T6", "virtual_surface": "T7", "virtual_ambient": "T7",
                "network_info": 0x80, "hop_count": 3, "overheating": .list(["T3", "T4"]),
            ])
    }

    @Test func `the uneven temperature block decodes to the Android test values`() {
        // combustion.md §9.2 temperatures in a normal-mode probe advert.
        let bytes = hex("01 78 56 34 12 89 00 DA 00 D7 0D 07 33 05 D5 18 74 1A 00")
        let fields = decodeFields(decoder, .manufacturer(0x09C7, bytes))
        let temperatures = (1...8).map { fields?["t\($0)_c"] }
        #expect(temperatures == [-13.15, 67.2, 258.4, 160.55, 225.6, 114.5, 189.75, 22.3])
    }

    @Test func `instant read puts the instant temperature in T1`() {
        // combustion.md §9.2: T1 = 63.25 °C is raw 1665 → 81 06 00 …; mode byte 0x01.
        let bytes = hex("01 00 00 00 00 81 06 00 00 00 00 00 00 00 00 00 00 00 01")
        let fields = decodeFields(decoder, .manufacturer(0x09C7, bytes))
        #expect(fields?["t1_c"] == 63.25)
        #expect(fields?["t8_c"] == -20.0)  // raw 0, as the probe sent it
        #expect(fields?["mode"] == "instant_read")
    }

    @Test func `raw temperature extremes are minus 20 and 389.55`() {
        let zeros = decodeFields(
            decoder, .manufacturer(0x09C7, hex("01 00 00 00 00" + String(repeating: " 00", count: 13))))
        #expect((1...8).map { zeros?["t\($0)_c"] } == Array(repeating: -20.0, count: 8))
        let ones = decodeFields(
            decoder, .manufacturer(0x09C7, hex("01 FF FF FF FF" + String(repeating: " FF", count: 13))))
        #expect((1...8).map { ones?["t\($0)_c"] } == Array(repeating: 389.55, count: 8))
        #expect(ones?["serial"] == "FFFFFFFF")
        #expect(zeros?["serial"] == "00000000")
    }

    @Test func `a serial keeps its leading zeros, eight digits`() {
        let temperatures = String(repeating: " 00", count: 13)
        for (bytes, serial) in [("01 00 00 00", "00000001"), ("EF CD AB 00", "00ABCDEF"), ("00 00 00 10", "10000000")] {
            let fields = decodeFields(decoder, .manufacturer(0x09C7, hex("01 " + bytes + temperatures)))
            #expect(fields?["serial"] == .string(serial))
        }
    }

    @Test func `older firmware stops after the temperatures or any tail byte`() {
        let full = hex(Self.probeAdvert)
        let short = decodeFields(decoder, .manufacturer(0x09C7, Array(full.prefix(18))))
        #expect(short?.names == ["product_type", "product", "serial"] + (1...8).map { "t\($0)_c" })
        let withMode = decodeFields(decoder, .manufacturer(0x09C7, Array(full.prefix(19))))
        #expect(withMode?.names.last == "probe_id")
        let withBattery = decodeFields(decoder, .manufacturer(0x09C7, Array(full.prefix(20))))
        #expect(withBattery?.names.last == "virtual_ambient")
    }

    @Test func `a preferences byte after the spec's 24 bytes is read`() {
        let fields = decodeFields(decoder, .manufacturer(0x09C7, hex(Self.probeAdvert + " 05")))
        #expect(fields?["power_mode"] == "always_on")
        #expect(fields?["high_radio_power"] == true)
    }

    @Test func `other product types are not this decoder's`() {
        for type in [0, 3, 4, 5, 6, 255] as [UInt8] {
            #expect(decoder.decode(.manufacturer(0x09C7, [type] + hex(Self.probeAdvert).dropFirst())) == [])
        }
    }

    @Test func `cut temperatures are a truncation at the block`() {
        let error = decodeError(decoder, .manufacturer(0x09C7, Array(hex(Self.probeAdvert).prefix(17))))
        #expect(error == DecodeError(.truncated(needed: 13, available: 12), at: 5, field: "temperatures"))
    }

    @Test func `an empty payload and a cut serial are errors`() {
        #expect(
            decodeError(decoder, .manufacturer(0x09C7, []))
                == DecodeError(.truncated(needed: 1, available: 0), at: 0, field: "product_type"))
        #expect(
            decodeError(decoder, .manufacturer(0x09C7, hex("01 CD AB")))
                == DecodeError(.truncated(needed: 4, available: 2), at: 1, field: "serial"))
    }

    @Test func `bytes after the preferences are trailing bytes`() {
        let error = decodeError(decoder, .manufacturer(0x09C7, hex(Self.probeAdvert + " 05 00")))
        #expect(error == DecodeError(.trailingBytes(count: 1), at: 23, field: "payload"))
    }

    @Test func `encoding writes the worked example`() throws {
        let fields = try #require(decodeFields(decoder, .manufacturer(0x09C7, hex(Self.probeAdvert))))
        #expect(try decoder.encode(fields) == hex(Self.probeAdvert))
    }

    @Test func `encoding takes temperatures in degrees and rounds to 0.05`() throws {
        var fields: Fields = [Field("product_type", 1), Field("serial", "0000002A")]
        for index in 1...8 { fields.append("t\(index)_c", .double(25.01 + Double(index))) }
        let decoded = decodeFields(decoder, .manufacturer(0x09C7, try decoder.encode(fields)))
        #expect(decoded?["t1_c"] == 26.0)
        #expect(decoded?["t8_c"] == 33.0)
        #expect(decoded?["serial"] == "0000002A")
    }

    @Test func `encoding rejects what does not fit`() {
        let base = Fields(
            [Field("product_type", 1), Field("serial", "1000ABCD")] + (1...8).map { Field("t\($0)_c", 20.0) })
        var hot = base
        hot.entries[2] = Field("t1_c", 389.6)
        #expect(encodeError(decoder, hot)?.field == "t1_c")
        var badSerial = base
        badSerial.entries[1] = Field("serial", "1000ABC")
        #expect(encodeError(decoder, badSerial) == EncodeError(.wrongType(expected: "8 hex digits"), field: "serial"))
        var display = base
        display.entries[0] = Field("product_type", 4)
        #expect(encodeError(decoder, display)?.field == "product_type")
        let badMode = base + [Field("mode", "grilling"), Field("color", 0), Field("probe_id", 1)]
        #expect(encodeError(decoder, badMode)?.field == "mode")
        let badID = base + [Field("mode", "normal"), Field("color", 0), Field("probe_id", 9)]
        #expect(encodeError(decoder, badID)?.field == "probe_id")
    }

    @Test func `decode of encode gives the fields back`() {
        var generator = TestRandom(seed: 0xC0B)
        let payloads = (0..<300).map { index -> [UInt8] in
            let productType = UInt8(1 + index % 2)
            let tail = index % 6  // 0…5 tail bytes: none, mode, battery, network, overheating, preferences
            return [productType] + generator.bytes(4 + 13 + tail)
        }
        #expect(expectRoundTrips(decoder, payloads) == 300)
        expectRoundTrip(decoder, decodeFields(decoder, .manufacturer(0x09C7, hex(Self.probeAdvert))) ?? [])
    }
}

extension Fields {
    static func + (fields: Fields, more: [Field]) -> Fields { Fields(fields.entries + more) }
}
