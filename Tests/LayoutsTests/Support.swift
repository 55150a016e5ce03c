import ByteReading
import JSON
import Layouts
import PayloadDecoders
import TestSupport

/// A layout from inline JSON, named "test.json" in issues, with no built-in ids to collide with.
func layout(_ json: String, parameters: [String: String] = [:]) throws -> Layout {
    try Layout.parse(bytes: Array(json.utf8), name: "test.json", parameters: parameters, builtInIDs: [])
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

    static func tractorPin() throws -> Layout {
        try Layout.load(path: tractorPinPath, parameters: ["pin_characteristic": pinUUID])
    }
}

/// An illustrative layout using every feature at once (not a real device).
let featureLayoutJSON = """
    {
      "id": "acme.station",
      "description": "Illustrative weather-station service data using every layout feature.",
      "match": {"service_data": "fcd2", "length": {"min": 2, "max": 40}, "prefix": "a5"},
      "fields": [
        {"name": "magic", "type": "u8", "const": "0xA5"},
        {"name": "kind", "type": "u8", "enum": {"1": "reading", "2": "status", "3": "log"}},
        {"switch": "kind", "cases": {
          "reading": [
            {"name": "counter", "type": "u8", "counter": true},
            {"name": "temperature_c", "type": "i16", "scale": 0.01, "unit": "°C", "min": -40, "max": 85, "max_jump": 5},
            {"name": "pressure_pa", "type": "u24", "endian": "big", "unit": "Pa"},
            {"type": "u8", "bits": [
              {"name": "low_battery", "bit": 0},
              {"name": "mode", "bit": 1, "width": 2, "enum": {"0": "idle", "1": "active", "2": "boost"}},
              {"name": "level_pct", "bit": 3, "width": 5, "scale": 0.5, "unit": "%"}
            ]},
            {"name": "glucose_mgdl", "type": "sfloat", "unit": "mg/dL"},
            {"name": "ratio", "type": "f32"},
            {"name": "heat_index_c", "compute": "(temperature_c * 1.1) + 2 - -1", "unit": "°C"}
          ],
          "status": [
            {"name": "label", "type": "ascii", "length": 6},
            {"name": "uptime_s", "type": "u32", "unit": "s"},
            {"type": "pad", "length": 1}
          ],
          "log": [
            {"name": "count", "type": "u8"},
            {"name": "samples_mv", "type": "i16", "unit": "mV", "repeat": "count"}
          ],
          "default": [
            {"name": "raw", "type": "bytes", "length": "rest"}
          ]
        }}
      ],
      "cadence": {"min_ms": 900, "max_ms": 1100}
    }
    """
