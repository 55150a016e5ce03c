import BluetoothPackets
import ByteReading
import JSON
import Layouts
import PayloadDecoders
import TestSupport
import Testing

/// One field of each kind, decoded from hand-made bytes and encoded back.
struct FieldTypeTests {
    /// Decodes `bytes` with a one-field layout body and checks the reading and the way back.
    /// With `canonical`, encoding gives back the same bytes; without, only the same values
    /// (an SFLOAT has several spellings of one number).
    func check(
        _ fieldsJSON: String, _ bytes: String, _ expected: Fields, endian: String = "little", canonical: Bool = true
    )
        throws
    {
        let layout = try layout(
            #"{"id": "t", "endian": "\#(endian)", "match": {"company": 1}, "fields": [\#(fieldsJSON)]}"#)
        let outcome = layout.decode(bytes: hex(bytes))
        #expect(outcome == .fields(expected))
        let encoded = try layout.encode(expected)
        if canonical { #expect(encoded == hex(bytes)) }
        #expect(layout.decode(bytes: encoded) == .fields(expected))
    }

    @Test func `integers of every width, both byte orders, sign-extended`() throws {
        try check(
            #"{"name": "a", "type": "u8"}, {"name": "b", "type": "i8"}"#, "ff ff", [Field("a", 255), Field("b", -1)])
        try check(
            #"{"name": "a", "type": "u24"}, {"name": "b", "type": "i24", "endian": "big"}"#, "01 02 03 ff ff fe",
            [Field("a", 0x030201), Field("b", -2)])
        try check(
            #"{"name": "a", "type": "u16"}, {"name": "b", "type": "u32"}"#, "12 34 12 34 56 78",
            [Field("a", 0x1234), Field("b", 0x1234_5678)], endian: "big")
        try check(#"{"name": "a", "type": "u48"}"#, "01 02 03 04 05 06", [Field("a", 0x0605_0403_0201)])
        try check(#"{"name": "a", "type": "i64"}"#, "fe ff ff ff ff ff ff ff", [Field("a", -2)])
    }

    @Test func `a u64 above Int64 max is written as decimal text so no digit is lost`() throws {
        try check(#"{"name": "a", "type": "u64"}"#, "ff ff ff ff ff ff ff ff", [Field("a", "18446744073709551615")])
        try check(#"{"name": "a", "type": "u64"}"#, "ff ff ff ff ff ff ff 7f", [Field("a", .int(Int64.max))])
    }

    @Test func `scale 1 over N is one rounding, so values print as their decimal`() throws {
        try check(#"{"name": "t_c", "type": "i16", "scale": 0.01, "unit": "°C"}"#, "29 09", [Field("t_c", 23.45)])
        // 0.05 is 1/20: raw 7 → 0.35 (7 * 0.05 would be 0.35000000000000003).
        try check(#"{"name": "x_v", "type": "u8", "scale": 0.05, "unit": "V"}"#, "07", [Field("x_v", 0.35)])
        // add folds into the numerator when add·N is whole: (raw + (-40)·10) / 10.
        try check(
            #"{"name": "t_c", "type": "u16", "scale": 0.1, "add": -40, "unit": "°C"}"#, "e7 01", [Field("t_c", 8.7)])
        try check(#"{"name": "r", "type": "u8", "scale": "1/3"}"#, "01", [Field("r", .double(1.0 / 3.0))])
    }

    @Test func `other scales multiply, and an unscaled whole add stays an integer`() throws {
        try check(#"{"name": "d_m", "type": "u8", "scale": 2.5, "unit": "m"}"#, "03", [Field("d_m", 7.5)])
        try check(#"{"name": "year", "type": "u8", "add": 2000}"#, "18", [Field("year", 2024)])
        try check(#"{"name": "half", "type": "u8", "scale": 1, "add": 0.5}"#, "02", [Field("half", 2.5)])
    }

    @Test func `IEEE 754 floats in either byte order`() throws {
        try check(#"{"name": "a", "type": "f32"}"#, "00 00 c0 3f", [Field("a", 1.5)])
        try check(
            #"{"name": "a", "type": "f64"}"#, "40 09 21 fb 54 44 2d 18", [Field("a", .double(Double.pi))], endian: "big"
        )
        try check(#"{"name": "a", "type": "f32"}"#, "00 00 c0 7f", [Field("a", .null)])
    }

    @Test func `IEEE-11073 SFLOAT values and special values`() throws {
        // payloads.md §D.2 worked examples.
        try check(#"{"name": "t_c", "type": "sfloat", "unit": "°C"}"#, "6d f1", [Field("t_c", 36.5)])
        try check(#"{"name": "a", "type": "medfloat16"}"#, "72 01", [Field("a", 370.0)])
        try check(#"{"name": "a", "type": "medfloat16"}"#, "9c ff", [Field("a", -10.0)], canonical: false)
        // Encoding picks exponent 0 where it can: -10 is mantissa -10, exponent 0.
        try check(#"{"name": "a", "type": "medfloat16"}"#, "f6 0f", [Field("a", -10.0)])
        try check(#"{"name": "a", "type": "medfloat16"}"#, "ff 07", [Field("a", .null)])
        try check(#"{"name": "a", "type": "medfloat16"}"#, "fe 07", [Field("a", .double(.infinity))])
        try check(#"{"name": "a", "type": "medfloat16"}"#, "02 08", [Field("a", .double(-.infinity))])
        let nres = try layout(#"{"id": "t", "match": {"company": 1}, "fields": [{"name": "a", "type": "sfloat"}]}"#)
        #expect(nres.decode(bytes: hex("00 08")) == .fields([Field("a", .null)]))
    }

    @Test func `IEEE-11073 FLOAT values`() throws {
        try check(#"{"name": "a", "type": "medfloat32"}"#, "6c 01 00 ff", [Field("a", 36.4)])
        try check(#"{"name": "a", "type": "medfloat32"}"#, "fe ff ff fd", [Field("a", -0.002)])
        try check(#"{"name": "a", "type": "medfloat32"}"#, "da 03 00 ff", [Field("a", 98.6)])
    }

    @Test func `bytes and text of fixed length, to the end, or sized by an earlier field`() throws {
        try check(#"{"name": "id", "type": "bytes", "length": 3}"#, "de ad 01", [Field("id", "dead01")])
        try check(#"{"name": "tag", "type": "ascii", "length": 6}"#, "41 42 43 00 00 00", [Field("tag", "ABC")])
        try check(
            #"{"name": "n", "type": "u8"}, {"name": "name", "type": "utf8", "length": "n"}"#, "02 c3 a9",
            [Field("n", 2), Field("name", "é")])
        try check(
            #"{"name": "k", "type": "u8"}, {"name": "rest", "type": "bytes", "length": "rest"}"#, "01 02 03",
            [Field("k", 1), Field("rest", "0203")])
    }

    @Test func `text that is not what its type says is a located error`() throws {
        let ascii = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "k", "type": "u8"}, {"name": "s", "type": "ascii", "length": 2}]}"#
        )
        #expect(
            error(ascii.decode(bytes: hex("00 41 c3")))
                == DecodeError(.badValue("byte 0xc3 is not ASCII"), at: 2, field: "s"))
        let utf8 = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "s", "type": "utf8", "length": "rest"}]}"#)
        #expect(error(utf8.decode(bytes: hex("c3 28"))) == DecodeError(.badValue("not valid UTF-8"), at: 0, field: "s"))
    }

    @Test func `bit fields inside a byte or a word`() throws {
        let fields = #"""
            {"name": "flags", "type": "u16", "bits": [
              {"name": "button", "bit": 0},
              {"name": "mode", "bit": 1, "width": 2, "enum": {"0": "off", "1": "eco", "3": "max"}},
              {"name": "level_pct", "bit": 8, "width": 7, "scale": 1, "add": 0, "unit": "%"},
              {"name": "battery_v", "bit": 15, "width": 1, "scale": 0.5, "unit": "V"}
            ]}
            """#
        // 0x8A07: button 1, mode 3 (max), level 10, battery 1 → 0.5 V.
        try check(
            fields, "07 8a",
            [
                Field("flags", 0x8A07), Field("button", true), Field("mode", "max"), Field("level_pct", 10),
                Field("battery_v", 0.5),
            ])
        // An unnamed container is not output; an unnamed value in an enum'd field stays a number.
        try check(
            #"{"type": "u8", "bits": [{"name": "a", "bit": 0, "width": 4, "enum": {"1": "one"}}, {"name": "b", "bit": 4, "width": 4}]}"#,
            "32", [Field("a", 2), Field("b", 3)])
    }

    @Test func `arrays of a fixed count, to the end, or counted by an earlier field`() throws {
        try check(
            #"{"name": "rr_ms", "type": "u16", "repeat": 2, "unit": "ms"}"#, "e8 03 20 03",
            [Field("rr_ms", .list([1000, 800]))])
        try check(
            #"{"name": "t_c", "type": "i16", "repeat": "rest", "scale": 0.1, "unit": "°C"}"#, "ff ff 0a 00 ",
            [Field("t_c", .list([-0.1, 1.0]))])
        try check(
            #"{"name": "n", "type": "u8"}, {"name": "v", "type": "sfloat", "repeat": "n"}"#, "01 6d f1",
            [Field("n", 1), Field("v", .list([36.5]))])
        try check(
            #"{"name": "n", "type": "u8"}, {"name": "v", "type": "u8", "repeat": "n"}"#, "00",
            [Field("n", 0), Field("v", .list([]))])
    }

    @Test func `an array to the end with a partial element left over is an error`() throws {
        let l = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "v", "type": "u16", "repeat": "rest"}]}"#)
        #expect(error(l.decode(bytes: hex("01 00 02"))) == DecodeError(.trailingBytes(count: 1), at: 2, field: "v"))
    }

    @Test func `enum names known values and keeps unknown ones as numbers`() throws {
        let l = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "state", "type": "u8", "enum": {"0": "idle", "0x10": "charging"}}]}"#
        )
        #expect(l.decode(bytes: [0x10]) == .fields([Field("state", "charging")]))
        #expect(l.decode(bytes: [0x07]) == .fields([Field("state", 7)]))
        #expect(try l.encode(JSONValue.parse(#"{"state": "charging"}"#)) == [0x10])
        #expect(try l.encode(JSONValue.parse(#"{"state": 7}"#)) == [0x07])
    }

    @Test func `a const field checks its value and fills itself in when encoding`() throws {
        let l = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "version", "type": "u8", "const": 2}, {"name": "x", "type": "u8"}]}"#
        )
        #expect(l.decode(bytes: [2, 9]) == .fields([Field("version", 2), Field("x", 9)]))
        #expect(
            error(l.decode(bytes: [3, 9])) == DecodeError(.badValue("expected 2, found 3"), at: 0, field: "version"))
        #expect(try l.encode(JSONValue.parse(#"{"x": 9}"#)) == [2, 9])
    }

    @Test func `pad bytes are skipped and explicit offsets are checked, not jumped to`() throws {
        try check(
            #"{"name": "a", "type": "u8", "offset": 0}, {"type": "pad", "length": 2}, {"name": "b", "type": "u8", "offset": 3}"#,
            "01 00 00 02", [Field("a", 1), Field("b", 2)])
    }

    @Test func `a fixed layout rejects trailing bytes and short payloads with the offset`() throws {
        let l = try layout(#"{"id": "t", "match": {"company": 1}, "fields": [{"name": "a", "type": "u16"}]}"#)
        #expect(error(l.decode(bytes: [1, 2, 3])) == DecodeError(.trailingBytes(count: 1), at: 2, field: ""))
        #expect(error(l.decode(bytes: [1])) == DecodeError(.truncated(needed: 2, available: 1), at: 0, field: "a"))
    }

    @Test func `a top-level length bounds the payload and reports the length it wanted`() throws {
        let l = try layout(
            #"{"id": "t", "match": {"company": 1}, "length": {"min": 1, "max": 3}, "fields": [{"name": "b", "type": "bytes", "length": "rest"}]}"#
        )
        #expect(l.decode(bytes: [1, 2]) == .fields([Field("b", "0102")]))
        #expect(
            error(l.decode(bytes: [1, 2, 3, 4]))
                == DecodeError(.badLength(declared: 3, available: 4), at: 0, field: "payload"))
        #expect(
            error(l.decode(bytes: [])) == DecodeError(.badLength(declared: 1, available: 0), at: 0, field: "payload"))
    }
}

struct SwitchAndComputeTests {
    @Test func `a switch on a message type picks the rest of the layout`() throws {
        let l = try layout(featureLayoutJSON)
        let heatIndex: Double = 23.45 * 1.1 + 2 - -1
        let reading = l.decode(bytes: hex("a5 01  07  29 09  01 86 a0  1b  6d f1  00 00 c0 3f"))
        #expect(
            reading
                == .fields([
                    Field("magic", 0xA5), Field("kind", "reading"), Field("counter", 7), Field("temperature_c", 23.45),
                    Field("pressure_pa", 100_000), Field("low_battery", true), Field("mode", "active"),
                    Field("level_pct", 1.5),
                    Field("glucose_mgdl", 36.5), Field("ratio", 1.5), Field("heat_index_c", .double(heatIndex)),
                ]))
        let status = l.decode(bytes: hex("a5 02 62 6f 6f 74 00 00 10 0e 00 00 00"))
        #expect(
            status
                == .fields([
                    Field("magic", 0xA5), Field("kind", "status"), Field("label", "boot"), Field("uptime_s", 3600),
                ]))
        let log = l.decode(bytes: hex("a5 03 02 e8 03 18 fc"))
        #expect(
            log
                == .fields([
                    Field("magic", 0xA5), Field("kind", "log"), Field("count", 2),
                    Field("samples_mv", .list([1000, -1000])),
                ]))
    }

    @Test func `other values take the default case, or are malformed when it says reject`() throws {
        let l = try layout(featureLayoutJSON)
        #expect(
            l.decode(bytes: hex("a5 09 ca fe"))
                == .fields([Field("magic", 0xA5), Field("kind", 9), Field("raw", "cafe")]))
        let strict = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [
              {"name": "v", "type": "u8"},
              {"switch": "v", "cases": {"1": [{"name": "a", "type": "u8"}], "default": "reject"}}]}
            """#)
        #expect(error(strict.decode(bytes: [2, 0])) == DecodeError(.badValue("no case for 2"), at: 1, field: "v"))
        #expect(throws: LayoutEncodeError(field: "v", "2 has no case (cases: 1)")) {
            try strict.encode([Field("v", 2)])
        }
    }

    @Test func `computed fields follow precedence, parentheses and the order written`() throws {
        let l = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [
              {"name": "a", "type": "u8"}, {"name": "b", "type": "u8"},
              {"name": "c", "compute": "a + b * 2"},
              {"name": "d", "compute": "(a + b) * 2"},
              {"name": "e", "compute": "-a / (b - 4) - c"},
              {"name": "f", "compute": "a / 0"}]}
            """#)
        #expect(
            l.decode(bytes: [6, 4])
                == .fields([
                    Field("a", 6), Field("b", 4), Field("c", 14.0), Field("d", 20.0), Field("e", .null),
                    Field("f", .null),
                ]))
        let e: Double = -6.0 / (2 - 4) - 10
        #expect(fields(l.decode(bytes: [6, 2]))?["e"] == .double(e))
    }

    @Test func `a name defined in every case can be used after the switch`() throws {
        let l = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [
              {"name": "v", "type": "u8"},
              {"switch": "v", "cases": {
                "1": [{"name": "t_c", "type": "i8", "unit": "°C"}],
                "default": [{"name": "t_c", "type": "i16", "scale": 0.01, "unit": "°C"}]}},
              {"name": "t_f", "compute": "t_c * 9 / 5 + 32", "unit": "°F"}]}
            """#)
        #expect(fields(l.decode(bytes: [1, 0xF6]))?["t_f"] == .double(14))
        let tenDegrees: Double = 10.0 * 9 / 5 + 32
        #expect(fields(l.decode(bytes: [2, 0xE8, 0x03]))?["t_f"] == .double(tenDegrees))
    }
}

struct MatchTests {
    let body = #""fields": [{"name": "x", "type": "u8"}, {"name": "y", "type": "bytes", "length": "rest"}]"#

    @Test func `service data, characteristic and operation keys`() throws {
        let l = try layout(
            #"{"id": "t", "match": {"service_data": "fcd2", "characteristic": ["2a37", "6e400003-b5a3-f393-e0a9-e50e24dcca9e"], "operation": ["notify", "indicate"]}, \#(body)}"#
        )
        let nus = try #require(BluetoothUUID("6e400003-b5a3-f393-e0a9-e50e24dcca9e"))
        #expect(
            l.matches == [
                .serviceData(BluetoothUUID(0xFCD2)), .characteristic(BluetoothUUID(0x2A37)), .characteristic(nus),
            ])
        #expect(l.decode(Payload(.serviceData(uuid: BluetoothUUID(0xFCD2)), [1])).count == 1)
        #expect(l.decode(Payload(.attribute(uuid: nus, operation: .indicate), [1])).count == 1)
        #expect(l.decode(Payload(.attribute(uuid: nus, operation: .read), [1])) == [])
    }

    @Test func `local-name prefix and advertised service UUID come from the payload context`() throws {
        let l = try layout(
            #"{"id": "t", "match": {"company": 89, "name_prefix": "ENV", "service_uuid": "181a"}, \#(body)}"#)
        let context = PayloadContext(localName: "ENV-42", serviceUUIDs: [BluetoothUUID(0x180F), BluetoothUUID(0x181A)])
        #expect(l.decode(Payload(.manufacturerData(company: 89), [1], context: context)).count == 1)
        let otherName = PayloadContext(localName: "Thermo", serviceUUIDs: [BluetoothUUID(0x181A)])
        #expect(l.decode(Payload(.manufacturerData(company: 89), [1], context: otherName)) == [])
        let noName = PayloadContext(serviceUUIDs: [BluetoothUUID(0x181A)])
        #expect(l.decode(Payload(.manufacturerData(company: 89), [1], context: noName)) == [])
        let noService = PayloadContext(localName: "ENV-42")
        #expect(l.decode(Payload(.manufacturerData(company: 89), [1], context: noService)) == [])
    }

    @Test func `a constant prefix and a length range select the payloads`() throws {
        // iBeacon-style: Apple company id, type 02, length 15.
        let l = try layout(
            #"{"id": "t", "match": {"company": "0x004C", "prefix": "0215", "length": {"min": 2, "max": 23}}, \#(body)}"#
        )
        #expect(
            l.decode(Payload(.manufacturerData(company: 0x4C), hex("02 15 aa"))) == [
                .fields([Field("x", 2), Field("y", "15aa")])
            ])
        #expect(l.decode(Payload(.manufacturerData(company: 0x4C), hex("12 15 aa"))) == [])
        #expect(l.decode(Payload(.manufacturerData(company: 0x4C), hex("02"))) == [])
        #expect(
            l.decode(Payload(.manufacturerData(company: 0x4C), hex("02 15") + Array(repeating: 0, count: 22))) == [])
    }
}

struct FlagSwitchTests {
    /// The GATT Heart Rate Measurement's first fields (payloads.md §D): flag bit 0 picks a u8 or u16
    /// rate, flag bit 3 says whether energy expended follows.
    let heartRate = #"""
        {"id": "t", "match": {"characteristic": "2a37"}, "fields": [
          {"type": "u8", "bits": [{"name": "rate_is_u16", "bit": 0}, {"name": "energy_present", "bit": 3}]},
          {"switch": "rate_is_u16", "cases": {
            "false": [{"name": "heart_rate_bpm", "type": "u8", "unit": "bpm"}],
            "true": [{"name": "heart_rate_bpm", "type": "u16", "unit": "bpm"}],
            "default": "reject"}},
          {"switch": "energy_present", "cases": {
            "true": [{"name": "energy_expended_kj", "type": "u16", "unit": "kJ"}],
            "default": []}}]}
        """#

    @Test func `a flag bit decides which fields follow`() throws {
        let l = try layout(heartRate)
        #expect(
            l.decode(bytes: hex("00 48"))
                == .fields([
                    Field("rate_is_u16", false), Field("energy_present", false), Field("heart_rate_bpm", 72),
                ]))
        #expect(
            l.decode(bytes: hex("09 2c 01 10 27"))
                == .fields([
                    Field("rate_is_u16", true), Field("energy_present", true), Field("heart_rate_bpm", 300),
                    Field("energy_expended_kj", 10000),
                ]))
        #expect(
            try l.encode(JSONValue.parse(#"{"rate_is_u16": true, "energy_present": false, "heart_rate_bpm": 300}"#))
                == hex("01 2c 01"))
    }

    @Test func `vectors and random values go through both sides of every flag`() throws {
        let l = try layout(heartRate)
        let names = l.vectors().map(\.name)
        #expect(names.contains("rate_is_u16 = true (case)"))
        #expect(names.contains("rate_is_u16 = false (case)"))
        #expect(names.contains("energy_present = true (case)"))
        #expect(names.contains("energy_expended_kj = 65535 (max)"))
        for vector in l.vectors() { #expect(vector.reading == .fields(vector.input), "\(vector.name)") }
        var generator = TestRandom(seed: 9)
        for _ in 0..<200 {
            let values = l.randomFields(using: &generator)
            #expect(l.decode(bytes: try l.encode(values)) == .fields(values))
        }
    }

    @Test func `a flag switch takes only true and false cases`() {
        let json = #"""
            {"id": "t", "match": {"company": 1}, "fields": [
              {"type": "u8", "bits": [{"name": "f", "bit": 0}]},
              {"switch": "f", "cases": {"yes": [], "default": []}}]}
            """#
        let issues = LayoutLinter.lint(bytes: Array(json.utf8), name: "x.json", builtInIDs: [])
        #expect(
            issues.map(\.message) == [
                #"case "yes" of the flag 'f' is "true" or "false""#, "a switch needs at least one case",
            ])
    }
}
