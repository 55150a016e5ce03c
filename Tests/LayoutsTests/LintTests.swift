import JSON
import Layouts
import PayloadDecoders
import TestSupport
import Testing

struct LintTests {
    func lint(_ json: String, builtIn: [String] = []) -> [LintIssue] {
        LayoutLinter.lint(bytes: Array(json.utf8), name: "layouts/x.json", builtInIDs: builtIn)
    }

    /// (line, path, message) of each issue, for compact expectations.
    func located(_ json: String, builtIn: [String] = []) -> [String] {
        lint(json, builtIn: builtIn).map { "\($0.line) \($0.path): \($0.message)" }
    }

    @Test(arguments: ["envsensor.json", "tractor-pin.json"])
    func `the shipped layouts lint clean`(file: String) {
        #expect(LayoutLinter.lint(path: Shipped.directory + "/" + file, builtInIDs: ["envsensor"]).isEmpty)
    }

    @Test func `JSON that does not parse is reported at its line and column`() {
        let issues = lint("{\n  \"id\": \"a\",\n  \"match\": {\"company\": 1}\n  \"fields\": []\n}")
        #expect(
            issues == [
                LintIssue(
                    file: "layouts/x.json", line: 4, path: "$",
                    message: "not valid JSON: expected ',' or '}' in an object (column 3)")
            ])
        #expect(
            issues[0].description == "layouts/x.json:4: $: not valid JSON: expected ',' or '}' in an object (column 3)")
    }

    @Test func `unknown keys are errors with a suggestion`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1, "lenght": 2},
                  "fields": [
                    {"name": "t_c", "type": "i16", "scal": 0.01, "unit": "°C"},
                    {"name": "n", "type": "u8", "length": 3}
                  ],
                  "colour": "blue"
                }
                """) == [
                    "3 $.match.lenght: unknown key 'lenght'; did you mean 'length'?",
                    "5 $.fields[0].scal: unknown key 'scal'; did you mean 'scale'?",
                    "6 $.fields[1].length: 'length' does not apply to a u8 field",
                    "8 $.colour: unknown key 'colour'",
                ])
    }

    @Test func `unknown types are errors, and float asks which one was meant`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1},
                  "fields": [
                    {"name": "a", "type": "uint16"},
                    {"name": "b", "type": "float"},
                    {"name": "c", "type": "u12"}
                  ]
                }
                """) == [
                    "5 $.fields[0].type: unknown type 'uint16'; did you mean 'u16'? (types: u8, u16, u24, u32, u40, u48, u64, i8, i16, i24, i32, i40, i48, i64, f32, f64, medfloat16, sfloat, medfloat32, bytes, ascii, utf8, pad)",
                    "6 $.fields[1].type: type 'float' is ambiguous: use 'f32' (IEEE 754) or 'medfloat32' (IEEE-11073 FLOAT)",
                    "7 $.fields[2].type: unknown type 'u12'; did you mean 'u16'? (types: u8, u16, u24, u32, u40, u48, u64, i8, i16, i24, i32, i40, i48, i64, f32, f64, medfloat16, sfloat, medfloat32, bytes, ascii, utf8, pad)",
                ])
    }

    @Test func `explicit offsets that overlap or leave a gap are errors`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1},
                  "fields": [
                    {"name": "a", "type": "u16", "offset": 0},
                    {"name": "b", "type": "u16", "offset": 1},
                    {"name": "c", "type": "u8", "offset": 6}
                  ]
                }
                """) == [
                    "6 $.fields[1].offset: offset 1 overlaps the previous field, which ends at byte 2",
                    #"7 $.fields[2].offset: offset 6 leaves a gap: the previous field ends at byte 4; describe bytes 4…5 (for example {"type": "pad", "length": 2})"#,
                ])
    }

    @Test func `overlapping bit fields are errors`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1},
                  "fields": [
                    {"type": "u8", "bits": [
                      {"name": "a", "bit": 0, "width": 3},
                      {"name": "b", "bit": 2},
                      {"name": "c", "bit": 7, "width": 2}
                    ]}
                  ]
                }
                """) == [
                    "7 $.fields[0].bits[1]: bits 2…2 overlap 'a'",
                    "8 $.fields[0].bits[2]: bits 7…8 do not fit in u8 (bits 0…7)",
                ])
    }

    @Test func `fields past the matched length, and fields that stop short of it, are errors`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1, "length": 4},
                  "fields": [
                    {"name": "a", "type": "u16"},
                    {"name": "b", "type": "u32"}
                  ]
                }
                """) == ["6 $.fields[1]: 'b' ends at byte 6, past the matched length 4"])
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1, "length": 4},
                  "fields": [
                    {"name": "a", "type": "u16"}
                  ]
                }
                """) == [
                    #"4 $.fields: the fields end at byte 2 but the matched length is 4: describe bytes 2…3 (for example {"type": "pad", "length": 2})"#
                ])
    }

    @Test func `names must be snake_case and end in their unit`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1},
                  "fields": [
                    {"name": "Temp", "type": "i16", "scale": 0.01},
                    {"name": "batteryLevel", "type": "u8", "unit": "%"},
                    {"name": "temperature", "type": "i16", "unit": "°C"},
                    {"name": "rssi", "type": "i8", "unit": "dBm"},
                    {"name": "speed_knots", "type": "u8", "unit": "kn"},
                    {"name": "supply_mv", "type": "u16"}
                  ]
                }
                """) == [
                    #"5 $.fields[0].name: "Temp" is not snake_case (try "temp")"#,
                    #"6 $.fields[1].name: "batteryLevel" is not snake_case (try "battery_level")"#,
                    #"6 $.fields[1].name: "batteryLevel" has unit % but does not end in _pct (e.g. "batteryLevel_pct")"#,
                    #"7 $.fields[2].name: "temperature" has unit °C but does not end in _c (e.g. "temperature_c")"#,
                    #"8 $.fields[3].name: "rssi" has unit dBm but does not end in _dbm (e.g. "rssi_dbm")"#,
                    "9 $.fields[4].unit: unit 'kn' is not in the unit table, so the name's suffix is not checked",
                    #"10 $.fields[5].name: "supply_mv" ends like a unit (mV) but has no "unit""#,
                ])
        let warnings = lint(
            #"{"id": "a", "match": {"company": 1}, "fields": [{"name": "s_kn", "type": "u8", "unit": "kn"}]}"#)
        #expect(warnings.map(\.severity) == [.warning])
        #expect(
            warnings.first?.description
                == "layouts/x.json:1: $.fields[0].unit: warning: unit 'kn' is not in the unit table, so the name's suffix is not checked"
        )
    }

    @Test func `a switch with no default is an error`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1},
                  "fields": [
                    {"name": "kind", "type": "u8"},
                    {"switch": "kind", "cases": {
                      "1": [{"name": "a", "type": "u8"}]
                    }}
                  ]
                }
                """) == [
                    #"6 $.fields[1].cases: switch on 'kind' has no "default": add one (an array of fields, [] for none, or "reject" to treat other values as malformed)"#
                ])
    }

    @Test func `computed fields may only use known, earlier, numeric fields`() {
        #expect(
            located(
                """
                {
                  "id": "a",
                  "match": {"company": 1},
                  "fields": [
                    {"name": "voltage_v", "type": "u16", "scale": 0.01, "unit": "V"},
                    {"name": "power_mw", "compute": "voltage_v * current_ma", "unit": "mW"},
                    {"name": "current_ma", "type": "i32", "scale": 0.01, "unit": "mA"},
                    {"name": "x", "compute": "voltage_v * volts"},
                    {"name": "y", "compute": "voltage_v * (2"},
                    {"name": "tag", "type": "ascii", "length": 2},
                    {"name": "z", "compute": "tag + 1"}
                  ]
                }
                """) == [
                    "6 $.fields[1].compute: 'current_ma' is defined later in the layout; a computed field can only use fields before it",
                    "8 $.fields[3].compute: no earlier field named 'volts'",
                    #"9 $.fields[4].compute: "voltage_v * (2": column 13: '(' is not closed"#,
                    "11 $.fields[6].compute: 'tag' is not a number (it is text, bytes or an array)",
                ])
    }

    @Test func `an id that a built-in decoder uses is an error`() {
        #expect(
            located(
                """
                {
                  "id": "envsensor",
                  "match": {"company": 1},
                  "fields": [{"name": "a", "type": "u8"}]
                }
                """, builtIn: ["envsensor", "sig.heart_rate"]) == [
                    #"2 $.id: id "envsensor" is the id of a built-in decoder; choose another (e.g. "envsensor.layout")"#
                ])
    }

    @Test func `the built-in ids default to the registry's`() {
        let json = #"{"id": "a", "match": {"company": 1}, "fields": [{"name": "a", "type": "u8"}]}"#
        let ids = Registry.builtIn.map(\.id)
        #expect(Layout.builtInIDs == ids)
        #expect(LayoutLinter.lint(bytes: Array(json.utf8), name: "x.json").isEmpty)
    }

    @Test func `duplicate names, missing keys and bad values are errors`() {
        #expect(
            located(
                """
                {
                  "id": "A",
                  "match": {"company": 70000},
                  "fields": [
                    {"name": "a", "type": "u8"},
                    {"name": "a", "type": "u8"},
                    {"type": "u8"},
                    {"name": "b", "type": "u8", "min": 5, "max": 1},
                    {"name": "c", "type": "u16", "scale": 0.01, "counter": true},
                    {"name": "d", "type": "u8", "enum": {"one": "x", "256": "y"}}
                  ],
                  "dedup": ["nonce"]
                }
                """) == [
                    #"2 $.id: id "A" must be lower-case snake_case words separated by dots ("acme.th1")"#,
                    "3 $.match.company: company id must be 0…0xFFFF",
                    "6 $.fields[1].name: duplicate field name 'a' (also at $.fields[0], line 5)",
                    #"7 $.fields[2]: a field needs a "name""#,
                    "8 $.fields[3].min: min 5.0 is more than max 1.0",
                    "9 $.fields[4].counter: a counter must be an unscaled integer field without an enum",
                    #"10 $.fields[5].enum.one: enum keys are the raw numbers ("1", "0x1F"), not "one""#,
                    "10 $.fields[5].enum.256: 256 does not fit u8",
                    "12 $.dedup[0]: no field named 'nonce'",
                ])
    }

    @Test func `a layout with errors does not load, and loading returns the lint errors`() {
        let json = """
            {
              "id": "a",
              "match": {"company": 1},
              "fields": [{"name": "Temp", "type": "u8"}]
            }
            """
        let thrown = #expect(throws: LayoutLoadError.self) {
            try Layout.parse(bytes: Array(json.utf8), name: "layouts/x.json", builtInIDs: [])
        }
        #expect(thrown?.issues == lint(json))
        #expect(thrown?.description == #"layouts/x.json:4: $.fields[0].name: "Temp" is not snake_case (try "temp")"#)
    }

    @Test func `an unreadable file is its own error`() {
        let thrown = #expect(throws: LayoutLoadError.self) { try Layout.load(path: "/nonexistent/x.json") }
        #expect(thrown == .unreadable(path: "/nonexistent/x.json", reason: "no such file"))
    }

    @Test func `every issue of a file is reported, not only the first`() {
        let issues = lint(
            """
            {
              "match": {"prefix": "zz"},
              "fields": [{"name": "a", "type": "u8", "repeat": "count"}],
              "cadence": {"min_ms": 2000, "max_ms": 1000}
            }
            """)
        #expect(issues.map(\.line) == [1, 2, 2, 3, 4])
        #expect(issues.map(\.path) == ["$", "$.match.prefix", "$.match", "$.fields[0].repeat", "$.cadence"])
    }
}

struct BoundsLintTests {
    @Test func `min and max that leave no value the field can hold are errors`() {
        let json = """
            {
              "id": "a",
              "match": {"company": 1},
              "fields": [
                {"name": "a_v", "type": "u16", "scale": 0.01, "unit": "V", "min": 10.001, "max": 10.005},
                {"name": "b", "type": "u8", "min": 300},
                {"type": "u8", "bits": [{"name": "c", "bit": 0, "width": 2, "max": -1}]},
                {"name": "d", "type": "sfloat", "min": 1e12},
                {"name": "e_v", "type": "u16", "scale": 0.01, "unit": "V", "min": 10.001, "max": 10.01}
              ]
            }
            """
        let issues = LayoutLinter.lint(bytes: Array(json.utf8), name: "x.json", builtInIDs: []).map {
            "\($0.line) \($0.path): \($0.message)"
        }
        #expect(
            issues == [
                "5 $.fields[0]: no value a u16 can hold at this scale meets min 10.001 and max 10.005",
                "6 $.fields[1]: no value a u8 can hold meets min 300",
                "7 $.fields[2].bits[0]: no value 2 bits can hold meets max -1",
                "8 $.fields[3]: no value a medfloat16 can hold meets min 1000000000000",
            ])
    }
}

struct RobustnessTests {
    @Test func `every proper prefix of a valid payload is a length or truncation error, never a crash`() throws {
        let layouts = [try Shipped.envSensor(), try Shipped.tractorPin()]
        for layout in layouts {
            for vector in layout.vectors() {
                for cut in 0..<vector.bytes.count {
                    let outcome = layout.decode(bytes: Array(vector.bytes.prefix(cut)))
                    guard case .error(let e) = outcome,
                        e.reason == .badLength(declared: vector.bytes.count, available: cut)
                    else {
                        Issue.record("\(layout.id) \(vector.name) cut at \(cut): \(outcome)")
                        continue
                    }
                }
                let longer = layout.decode(bytes: vector.bytes + [0])
                #expect(
                    error(longer)?.reason == .badLength(declared: vector.bytes.count, available: vector.bytes.count + 1)
                )
            }
        }
        // Without a length rule, the fields themselves find the cut and the extra byte.
        let bare = try layout(
            #"{"id": "t", "match": {"company": 1}, "fields": [{"name": "a", "type": "u16"}, {"name": "b", "type": "i24"}]}"#
        )
        for vector in bare.vectors() {
            for cut in 0..<vector.bytes.count {
                let reason = error(bare.decode(bytes: Array(vector.bytes.prefix(cut))))?.reason
                #expect(reason == .truncated(needed: cut < 2 ? 2 : 3, available: cut < 2 ? cut : cut - 2))
            }
            #expect(error(bare.decode(bytes: vector.bytes + [0]))?.reason == .trailingBytes(count: 1))
        }
    }

    @Test func `random bytes never crash the decoder of a layout using every feature`() throws {
        let l = try layout(featureLayoutJSON)
        var generator = TestRandom(seed: 7)
        var decoded = 0
        var failed = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if count > 0, Bool.random(using: &generator) { bytes[0] = 0xA5 }
            if count > 1, Bool.random(using: &generator) { bytes[1] = UInt8.random(in: 0...4, using: &generator) }
            switch l.decode(bytes: bytes) {
            case .fields: decoded += 1
            case .error(let e):
                failed += 1
                #expect(e.offset >= 0 && e.offset <= count)
            }
        }
        #expect(decoded + failed == 20_000)
        #expect(decoded > 1000)
    }
}
