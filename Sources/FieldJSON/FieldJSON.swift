import ByteReading
import JSON
import PayloadDecoders

/// Decoded values as JSON, written the one way readings, layout vectors and `bluetape payload` all
/// use: fields in their order, canonical numbers, null where the format marks a value absent.
public enum FieldJSON {
    @inlinable
    public static func write(_ fields: Fields, to w: inout JSONWriter) {
        w.beginObject()
        for entry in fields.entries {
            w.key(escaping: entry.name)
            write(entry.value, to: &w)
        }
        w.endObject()
    }

    @inlinable
    public static func write(_ value: FieldValue, to w: inout JSONWriter) {
        switch value {
        case .int(let i): w.int(i)
        case .double(let d): w.double(d)
        case .string(let s): w.string(s)
        case .bool(let b): w.bool(b)
        case .null: w.null()
        case .list(let list):
            w.beginArray()
            for element in list { write(element, to: &w) }
            w.endArray()
        }
    }

    /// `{"reason": …, "offset": …, "field": …}`.
    public static func write(_ error: DecodeError, to w: inout JSONWriter) {
        w.beginObject()
        w.key("reason")
        w.string(error.reasonText)
        w.key("offset")
        w.int(error.offset)
        w.key("field")
        w.string(error.field)
        w.endObject()
    }
}
