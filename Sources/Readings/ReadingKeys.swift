import FieldJSON
import JSON
import PayloadDecoders

/// Decoder ids, sources and field names as JSON, escaped once per run instead of once per reading:
/// a capture's readings repeat the same few dozen names hundreds of thousands of times.
///
/// Kept per decoder and field position, because a decoder writes its fields in the same order
/// almost every time; a name is looked up by comparing it with the one seen there last, which
/// for the same string costs a word compare. A different name at that place is escaped and kept
/// instead, so a reading with other fields is still written right, only not faster.
public struct ReadingKeys {
    private var decoders: [DecoderKeys] = []
    private var sources: [Encoded] = []
    /// Where the last reading's decoder was found: readings come in runs of the same decoder.
    private var lastDecoder = 0

    public init() {}

    private struct Encoded {
        var text: String
        /// `"text"` for a value, `"text":` for a key.
        var json: [UInt8]
    }

    private struct DecoderKeys {
        var id: Encoded
        var fields: [Encoded] = []
    }

    private static func encode(_ text: String, asKey: Bool) -> Encoded {
        var w = JSONWriter(capacity: text.utf8.count + 4)
        if asKey { w.key(escaping: text) } else { w.string(text) }
        return Encoded(text: text, json: w.bytes)
    }

    /// The place of `decoder` in the table, added on first sight.
    mutating func decoderSlot(_ decoder: String) -> Int {
        if lastDecoder < decoders.count, decoders[lastDecoder].id.text == decoder { return lastDecoder }
        if let found = decoders.firstIndex(where: { $0.id.text == decoder }) {
            lastDecoder = found
            return found
        }
        decoders.append(DecoderKeys(id: Self.encode(decoder, asKey: false)))
        lastDecoder = decoders.count - 1
        return lastDecoder
    }

    func writeDecoder(_ slot: Int, to w: inout JSONWriter) {
        w.rawJSON(decoders[slot].id.json)
    }

    mutating func writeSource(_ source: String, to w: inout JSONWriter) {
        let slot: Int
        if let found = sources.firstIndex(where: { $0.text == source }) {
            slot = found
        } else {
            sources.append(Self.encode(source, asKey: false))
            slot = sources.count - 1
        }
        w.rawJSON(sources[slot].json)
    }

    /// `{"name":value,…}` for the fields of the decoder at `slot`.
    mutating func write(_ fields: Fields, decoder slot: Int, to w: inout JSONWriter) {
        // Taken out of the table while in use, so that nothing is copied on write.
        var known: [Encoded] = []
        swap(&known, &decoders[slot].fields)
        defer { swap(&known, &decoders[slot].fields) }
        w.beginObject()
        fields.entries.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                if position == known.count {
                    known.append(Self.encode(entries[position].name, asKey: true))
                } else if known[position].text != entries[position].name {
                    known[position] = Self.encode(entries[position].name, asKey: true)
                }
                w.key(encoded: known[position].json)
                FieldJSON.write(entries[position].value, to: &w)
            }
        }
        w.endObject()
    }
}
