import FieldJSON
import ByteReading
import JSON
import PayloadDecoders

/// One generated test payload: the values it was built from, its bytes, and what decoding them gives.
public struct LayoutVector: Sendable, Hashable {
    /// What the vector exercises: "temperature_c = -327.68 (min)", "kind = 2 (case)".
    public var name: String
    /// The values given to the encoder.
    public var input: Fields
    public var bytes: [UInt8]
    /// Decoding `bytes` with the layout; equal to `.fields(input)` for a sound layout.
    public var reading: DecodeOutcome

    /// `{"name":…,"hex":…,"expect":{…}}` (or `"error"` instead of `"expect"`), the line format of
    /// Tests/Fixtures/payloads/*.vectors.jsonl.
    public var jsonLine: String {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("name")
        w.string(name)
        w.key("hex")
        w.hex(bytes)
        switch reading {
        case .fields(let fields):
            w.key("expect")
            FieldJSON.write(fields, to: &w)
        case .error(let error):
            w.key("error")
            FieldJSON.write(error, to: &w)
        }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// What `bluetape layout decode` prints for one payload.
public enum LayoutJSON {
    /// A decode outcome as one JSON object: the fields, or `{"error": {…}}`.
    public static func text(_ outcome: DecodeOutcome) -> String {
        var w = JSONWriter(capacity: 256)
        switch outcome {
        case .fields(let fields): FieldJSON.write(fields, to: &w)
        case .error(let error):
            w.beginObject()
            w.key("error")
            FieldJSON.write(error, to: &w)
            w.endObject()
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
