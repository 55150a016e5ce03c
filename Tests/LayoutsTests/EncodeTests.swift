import ByteReading
import JSON
import Layouts
import PayloadDecoders
import TestSupport
import Testing

struct EncodeTests {
    @Test func `the worked example encodes back to its bytes`() throws {
        let layout = try Shipped.envSensor()
        let values = try JSONValue.parse(
            #"{"nonce": 4660, "temperature_c": 23.45, "humidity_pct": 55.3, "pressure_hpa": 1013.2, "voltage_v": 3.3, "current_ma": -12.34}"#
        )
        #expect(Hex.encode(try layout.encode(values)) == "341229099a15942700004a012efbffff")
    }

    @Test func `a computed field may be given, and must then agree with its formula`() throws {
        let layout = try Shipped.envSensor()
        var values = try #require(fields(layout.decode(bytes: hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF"))))
        #expect(Hex.encode(try layout.encode(values)) == "341229099a15942700004a012efbffff")
        values.entries[6].value = .double(-40)
        #expect(
            throws: LayoutEncodeError(
                field: "power_mw", "is computed as voltage_v * current_ma = -40.722, not -40.0")
        ) {
            try layout.encode(values)
        }
    }

    @Test func `values a field cannot hold are refused with the reason`() throws {
        let layout = try Shipped.envSensor()
        func attempt(_ json: String) -> LayoutEncodeError? {
            let base = #""nonce": 1, "humidity_pct": 1, "pressure_hpa": 1, "voltage_v": 1, "current_ma": 1"#
            return #expect(throws: LayoutEncodeError.self) { try layout.encode(JSONValue.parse("{\(base), \(json)}")) }
        }
        #expect(
            attempt(#""temperature_c": 23.456"#)
                == LayoutEncodeError(
                    field: "temperature_c",
                    "23.456 cannot be written exactly with this scale; the nearest value is 23.46"))
        #expect(
            attempt(#""temperature_c": 400"#)
                == LayoutEncodeError(
                    field: "temperature_c", "400 is out of range: i16 holds -327.68…327.67"))
        #expect(
            attempt(#""temperature_c": "warm""#)
                == LayoutEncodeError(field: "temperature_c", #""warm" is not a number"#))
        #expect(
            attempt(#""temperature_c": 1, "temprature_c": 1"#)
                == LayoutEncodeError(
                    field: "temprature_c", "no such field in envsensor.layout; did you mean 'temperature_c'?"))
        let missing = #expect(throws: LayoutEncodeError.self) { try layout.encode(JSONValue.parse(#"{"nonce": 1}"#)) }
        #expect(missing == LayoutEncodeError(field: "temperature_c", "no value given"))
    }

    @Test func `length and count fields are derived from what they measure`() throws {
        let l = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [
              {"name": "n", "type": "u8"}, {"name": "name", "type": "ascii", "length": "n"},
              {"name": "k", "type": "u8"}, {"name": "v_mv", "type": "u16", "repeat": "k", "unit": "mV"}]}
            """#)
        let bytes = try l.encode(JSONValue.parse(#"{"name": "hi", "v_mv": [1, 2, 3]}"#))
        #expect(bytes == hex("02 68 69 03 01 00 02 00 03 00"))
        #expect(throws: LayoutEncodeError(field: "name", "has 2 bytes but n says 5")) {
            try l.encode(JSONValue.parse(#"{"n": 5, "name": "hi", "v_mv": []}"#))
        }
    }

    @Test func `fields of another switch case are refused`() throws {
        let l = try layout(featureLayoutJSON)
        let error = #expect(throws: LayoutEncodeError.self) {
            try l.encode(JSONValue.parse(#"{"kind": "log", "count": 0, "samples_mv": [], "uptime_s": 5}"#))
        }
        #expect(
            error
                == LayoutEncodeError(
                    field: "uptime_s",
                    "is not part of the payload with these values (it belongs to another switch case)"))
        #expect(try l.encode(JSONValue.parse(#"{"kind": "log", "samples_mv": [-1]}"#)) == hex("a5 03 01 ff ff"))
    }

    @Test func `bit fields are combined into their container and checked against it`() throws {
        let l = try layout(
            #"""
            {"id": "t", "match": {"company": 1}, "fields": [{"name": "flags", "type": "u8", "bits": [
              {"name": "a", "bit": 0}, {"name": "b", "bit": 4, "width": 3}]}]}
            """#)
        #expect(try l.encode(JSONValue.parse(#"{"a": true, "b": 5}"#)) == [0x51])
        #expect(try l.encode(JSONValue.parse(#"{"flags": 81}"#)) == [0x51])
        #expect(throws: LayoutEncodeError(field: "b", "disagrees with flags (whose bits give 5)")) {
            try l.encode(JSONValue.parse(#"{"flags": 81, "b": 4}"#))
        }
        #expect(throws: LayoutEncodeError(field: "b", "8 is out of range: 3 bits holds 0…7")) {
            try l.encode(JSONValue.parse(#"{"a": false, "b": 8}"#))
        }
    }
}

struct VectorTests {
    @Test func `envsensor vectors cover min, max and zero of every field, each decoding to its values`() throws {
        let layout = try Shipped.envSensor()
        let vectors = layout.vectors()
        #expect(
            vectors.map(\.name) == [
                "nonce = 0 (min)", "nonce = 65535 (max)",
                "temperature_c = -327.68 (min)", "temperature_c = 0", "temperature_c = 327.67 (max)",
                "humidity_pct = 0 (min)", "humidity_pct = 100 (max)",
                "pressure_hpa = 0 (min)", "pressure_hpa = 429496729.5 (max)",
                "voltage_v = 0 (min)", "voltage_v = 655.35 (max)",
                "current_ma = -21474836.48 (min)", "current_ma = 0", "current_ma = 21474836.47 (max)",
            ])
        for vector in vectors {
            #expect(vector.reading == .fields(vector.input), "\(vector.name)")
            #expect(try layout.encode(vector.input) == vector.bytes, "\(vector.name)")
        }
        let humidityMax = try #require(vectors.first { $0.name == "humidity_pct = 100 (max)" })
        #expect(Hex.encode(humidityMax.bytes) == "00000000102700000000000000000000")
        #expect(
            humidityMax.jsonLine
                == #"{"name":"humidity_pct = 100 (max)","hex":"00000000102700000000000000000000","expect":{"nonce":0,"temperature_c":0,"humidity_pct":100,"pressure_hpa":0,"voltage_v":0,"current_ma":0,"power_mw":0}}"#
        )
    }

    @Test func `vectors cover every enum name, every switch case, the default and every bit`() throws {
        let l = try layout(featureLayoutJSON)
        let vectors = l.vectors()
        let names = Set(vectors.map(\.name))
        for expected in [
            "kind = reading (case)", "kind = status (case)", "kind = log (case)", "kind = 0 (default)",
            "mode = idle (0)", "mode = active (1)", "mode = boost (2)", "low_battery = true", "low_battery = false",
            "temperature_c = -40 (min)", "temperature_c = 0", "temperature_c = 85 (max)",
            "level_pct = 0 (min)", "level_pct = 15.5 (max)", "pressure_pa = 16777215 (max)",
            "glucose_mgdl = -20450000000 (min)", "glucose_mgdl = 20450000000 (max)",
            "label = 6 × A", "raw = empty", "raw = 8 bytes", "count = 0 (empty)", "count = 4",
        ] {
            #expect(names.contains(expected), "\(expected)")
        }
        for vector in vectors {
            #expect(vector.reading == .fields(vector.input), "\(vector.name)")
        }
        let boost = try #require(vectors.first { $0.name == "mode = boost (2)" })
        #expect(fields(boost.reading)?["kind"] == "reading")
        #expect(fields(boost.reading)?["mode"] == "boost")
        let log4 = try #require(vectors.first { $0.name == "count = 4" })
        #expect(fields(log4.reading)?["samples_mv"] == .list([0, 0, 0, 0]))
        let fallback = try #require(vectors.first { $0.name == "kind = 0 (default)" })
        #expect(Hex.encode(fallback.bytes) == "a5000000")
    }
}

struct RoundTripTests {
    /// decode(encode(x)) == x for `count` values drawn with a seeded generator.
    func roundTrip(_ layout: Layout, seed: UInt64, count: Int = 400) throws -> Int {
        var generator = TestRandom(seed: seed)
        var checked = 0
        for _ in 0..<count {
            let values = layout.randomFields(using: &generator)
            let bytes = try layout.encode(values)
            #expect(layout.decode(bytes: bytes) == .fields(values), "seed \(seed): \(values)")
            checked += 1
        }
        return checked
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func `decode of encode is the identity for the envsensor layout`(seed: UInt64) throws {
        #expect(try roundTrip(try Shipped.envSensor(), seed: seed) == 400)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func `decode of encode is the identity for the tractor PIN layout`(seed: UInt64) throws {
        #expect(try roundTrip(try Shipped.tractorPin(), seed: seed) == 400)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func `decode of encode is the identity for a layout using every feature`(seed: UInt64) throws {
        #expect(try roundTrip(try layout(featureLayoutJSON), seed: seed) == 400)
    }

    @Test func `the same seed gives the same values`() throws {
        let layout = try Shipped.envSensor()
        var a = TestRandom(seed: 42)
        var b = TestRandom(seed: 42)
        #expect(layout.randomFields(using: &a) == layout.randomFields(using: &b))
    }
}
