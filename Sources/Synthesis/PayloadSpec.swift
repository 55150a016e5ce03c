import BluetoothPackets
import ByteReading
import JSON
import Layouts
import PayloadDecoders

/// Where a payload's bytes come from: fixed hex or text, field values through a built-in
/// decoder's encoder or a layout (so the bytes are exactly what that decoder reads back), or a
/// layout's test vectors in turn.
struct PayloadSpec: Sendable {
    enum Source: Sendable {
        case bytes([UInt8])
        case encoder(any PayloadEncoder, FieldSeries)
        case layout(Layout, FieldSeries)
        /// `"layout": …, "vectors": true`: the layout's test vectors, one per packet, cycled.
        case vectors([[UInt8]])
    }

    var source: Source
    var path: String

    /// Parses `hex`, `text`, `decoder` + `fields` or `layout` + `fields` from an object.
    static func parse(
        _ object: JSONValue, at path: String, _ reader: ScenarioReader, context: ScenarioContext
    ) throws(ScenarioError) -> PayloadSpec? {
        if let hex = object["hex"] {
            guard let text = hex.string, let bytes = Hex.decode(text) else {
                throw reader.error("\(path).hex", "expected hex digits")
            }
            return PayloadSpec(source: .bytes(bytes), path: path)
        }
        if let text = object["text"] {
            guard let string = text.string else { throw reader.error("\(path).text", "expected a string") }
            return PayloadSpec(source: .bytes(Array(string.utf8)), path: path)
        }
        let fields = try parseFields(object["fields"], at: "\(path).fields", reader)
        if let id = object["decoder"] {
            guard let name = id.string else { throw reader.error("\(path).decoder", "expected a decoder id") }
            guard let encoder = Registry.encoder(for: name, in: context.decoders) else {
                let known = Registry.encoders(context.decoders).map(\.id).joined(separator: ", ")
                throw reader.error("\(path).decoder", "no encoder for '\(name)'; these can encode: \(known)")
            }
            return PayloadSpec(source: .encoder(encoder, fields), path: path)
        }
        if let file = object["layout"] {
            guard let name = file.string else { throw reader.error("\(path).layout", "expected a layout file path") }
            let layout = try context.layout(name, at: "\(path).layout", reader)
            if object["vectors"] == .bool(true) {
                let vectors = layout.vectors().map(\.bytes)
                guard !vectors.isEmpty else { throw reader.error("\(path).vectors", "\(layout.id) has no vectors") }
                return PayloadSpec(source: .vectors(vectors), path: path)
            }
            return PayloadSpec(source: .layout(layout, fields), path: path)
        }
        return nil
    }

    static func parseFields(_ json: JSONValue?, at path: String, _ reader: ScenarioReader) throws(ScenarioError)
        -> FieldSeries
    {
        guard let json else { return FieldSeries(entries: []) }
        guard let object = json.object else { throw reader.error(path, "expected an object of field values") }
        var entries: [(name: String, series: ValueSeries)] = []
        for entry in object.entries {
            entries.append((entry.key, try ValueSeries.parse(entry.value, at: "\(path).\(entry.key)", reader)))
        }
        return FieldSeries(entries: entries)
    }

    /// The bytes of packet `index` of its stream, sent by `device` (an encrypted payload's
    /// nonce holds its address).
    func bytes(
        index: Int, progress: Double, seconds: Double, random: inout SeededRandom, _ reader: ScenarioReader,
        device: BluetoothAddress
    ) throws(ScenarioError) -> [UInt8] {
        switch source {
        case .bytes(let bytes): return bytes
        case .vectors(let list): return list[index % list.count]
        case .encoder(let encoder, let series):
            let fields = series.evaluate(index: index, progress: progress, seconds: seconds, random: &random)
            do {
                return try encoder.encode(fields, context: PayloadContext(address: device))
            } catch {
                throw reader.error("\(path).fields", "cannot encode packet \(index): \(error)")
            }
        case .layout(let layout, let series):
            let fields = series.evaluate(index: index, progress: progress, seconds: seconds, random: &random)
            do {
                return try layout.encode(fields)
            } catch {
                throw reader.error("\(path).fields", "cannot encode packet \(index) with \(layout.id): \(error)")
            }
        }
    }
}

/// What parsing needs from outside the document: decoder options and layouts by path.
final class ScenarioContext {
    let directory: String
    /// The decoders whose encoders payloads name, configured as the run asks.
    let decoders: [any PayloadDecoder]
    private var layouts: [String: Layout] = [:]

    init(directory: String, decoders: [any PayloadDecoder]) {
        self.directory = directory
        self.decoders = decoders
    }

    func layout(_ name: String, at path: String, _ reader: ScenarioReader) throws(ScenarioError) -> Layout {
        if let known = layouts[name] { return known }
        let file = name.hasPrefix("/") ? name : directory + "/" + name
        do {
            let layout = try Layout.load(path: file, requireParameters: false)
            layouts[name] = layout
            return layout
        } catch {
            throw reader.error(path, "layout \(file): \(error)")
        }
    }
}
