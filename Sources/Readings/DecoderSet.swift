import BluetoothPackets
import PayloadDecoders

/// The decoders in use, looked up by what they match. Built once per run.
public struct DecoderSet: Sendable {
    public let decoders: [any PayloadDecoder]
    private var index: [MatchKey: [any PayloadDecoder]] = [:]

    /// `only`: decoder ids to keep (nil keeps all).
    public init(_ decoders: [any PayloadDecoder], only: Set<String>? = nil) {
        let kept = only.map { ids in decoders.filter { ids.contains($0.id) } } ?? decoders
        self.decoders = kept
        for decoder in kept {
            for key in decoder.matches { index[key, default: []].append(decoder) }
        }
    }

    public func decoders(for key: MatchKey) -> [any PayloadDecoder]? { index[key] }
}
