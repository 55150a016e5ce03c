import FieldJSON
import JSON
import PayloadDecoders

/// Decoder ids, sources and field names as JSON, escaped once per run instead of once per reading:
/// a capture's readings repeat the same few dozen names hundreds of thousands of times.
///
/// Field names are kept per decoder and field position, because a decoder writes its fields in
/// the same order almost every time; a name is looked up by comparing it with the one seen there
/// last, which for the same string costs a word compare. A different name at that place is found
/// among the decoder's other names (or escaped once and kept), so a reading with other fields is
/// still written right, only not faster.
public struct ReadingKeys {
    private var decoders: [Encoded] = []
    private var fieldKeys: [FieldKeys] = []
    private var sources: [Encoded] = []
    /// Where the last reading's decoder was found: readings come in runs of the same decoder.
    private var lastDecoder = 0

    public init() {}

    private struct Encoded {
        var text: String
        /// `"text"`.
        var json: [UInt8]
    }

    /// One decoder's field names as `"name":`, one after another in `bytes`.
    private struct FieldKeys {
        /// The name last seen at each position, and where its key lies in `bytes`.
        var names: [String] = []
        var spans: [Range<Int>] = []
        var bytes: [UInt8] = []
        /// Every name met so far: a name is escaped once however often it changes places.
        var spanOf: [String: Range<Int>] = [:]

        /// Makes `names` and `spans` those of `entries`.
        mutating func match(_ entries: UnsafeBufferPointer<Field>) {
            for position in entries.indices {
                if position < names.count, names[position] == entries[position].name { continue }
                let name = entries[position].name
                let span = spanOf[name] ?? add(name)
                if position < names.count {
                    names[position] = name
                    spans[position] = span
                } else {
                    names.append(name)
                    spans.append(span)
                }
            }
        }

        private mutating func add(_ name: String) -> Range<Int> {
            var w = JSONWriter(capacity: name.utf8.count + 8)
            w.key(escaping: name)
            let start = bytes.count
            w.withBytes { bytes.append(contentsOf: $0) }
            spanOf[name] = start..<bytes.count
            return start..<bytes.count
        }
    }

    private static func encode(_ text: String) -> Encoded {
        var w = JSONWriter(capacity: text.utf8.count + 4)
        w.string(text)
        return Encoded(text: text, json: w.bytes)
    }

    /// The place of `decoder` in the table, added on first sight.
    mutating func decoderSlot(_ decoder: String) -> Int {
        if lastDecoder < decoders.count, decoders[lastDecoder].text == decoder { return lastDecoder }
        if let found = decoders.firstIndex(where: { $0.text == decoder }) {
            lastDecoder = found
            return found
        }
        decoders.append(Self.encode(decoder))
        fieldKeys.append(FieldKeys())
        lastDecoder = decoders.count - 1
        return lastDecoder
    }

    func writeDecoder(_ slot: Int, to w: inout JSONWriter) {
        w.rawJSON(decoders[slot].json)
    }

    mutating func writeSource(_ source: String, to w: inout JSONWriter) {
        let slot: Int
        if let found = sources.firstIndex(where: { $0.text == source }) {
            slot = found
        } else {
            sources.append(Self.encode(source))
            slot = sources.count - 1
        }
        w.rawJSON(sources[slot].json)
    }

    /// `{"name":value,…}` for the fields of the decoder at `slot`.
    mutating func write(_ fields: Fields, decoder slot: Int, to w: inout JSONWriter) {
        // Taken out of the table while in use, so that nothing is copied on write.
        var keys = FieldKeys()
        swap(&keys, &fieldKeys[slot])
        defer { swap(&keys, &fieldKeys[slot]) }
        w.beginObject()
        fields.entries.withUnsafeBufferPointer { entries in
            keys.match(entries)
            keys.bytes.withUnsafeBytes { bytes in
                keys.spans.withUnsafeBufferPointer { spans in
                    for position in entries.indices {
                        w.key(encoded: UnsafeRawBufferPointer(rebasing: bytes[spans[position]]))
                        FieldJSON.write(entries[position].value, to: &w)
                    }
                }
            }
        }
        w.endObject()
    }
}
