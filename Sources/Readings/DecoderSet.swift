import BluetoothPackets
import PayloadDecoders

/// The decoders in use, looked up by what they match. Built once per run.
public struct DecoderSet: Sendable {
    public let decoders: [any PayloadDecoder]
    /// Per match key, the decoders to try in order. A list, not a dictionary: a set holds a few
    /// dozen keys, and comparing them is cheaper than hashing one (this runs for every payload).
    private var index: [(key: MatchKey, decoders: [Candidate])] = []
    /// The match keys for which some decoder reads an advertisement's name or service UUIDs. Kept
    /// apart, though the decoders could be asked: it is looked at for every payload, and it is
    /// nearly always empty.
    private var keysReadingContext: [MatchKey] = []

    /// `only`: decoder ids to keep (nil keeps all).
    public init(_ decoders: [any PayloadDecoder], only: Set<String>? = nil) {
        let kept = only.map { ids in decoders.filter { ids.contains($0.id) } } ?? decoders
        self.decoders = kept
        for (slot, decoder) in kept.enumerated() {
            for key in decoder.matches {
                let candidate = Candidate(decoder: decoder, slot: slot)
                if let i = index.firstIndex(where: { $0.key == key }) {
                    index[i].decoders.append(candidate)
                } else {
                    index.append((key, [candidate]))
                }
                if decoder.readsAdvertisingContext, !keysReadingContext.contains(key) { keysReadingContext.append(key) }
            }
        }
    }

    /// Whether a decoder for `key` needs the advertisement's local name and service UUIDs.
    public func readsAdvertisingContext(_ key: MatchKey) -> Bool {
        !keysReadingContext.isEmpty && keysReadingContext.contains(key)
    }

    /// A decoder to try, with its place in `decoders`: what a run keeps per decoder is found by
    /// that number, not by comparing ids.
    public struct Candidate: Sendable {
        public var decoder: any PayloadDecoder
        public var slot: Int
    }

    public func decoders(for key: MatchKey) -> [Candidate]? {
        index.first { $0.key == key }?.decoders
    }

    /// The ids a run over this set can produce: the decoders' and their follow-ups' (for `--decoder`).
    public var producedIDs: [String] {
        decoders.flatMap { decoder in [decoder.id] + (decoder.makeFollowUp()?.ids ?? []) }
    }
}
