import BluetoothPackets
import PayloadDecoders

/// The decoders in use, looked up by what they match. Built once per run.
public struct DecoderSet: Sendable {
    public let decoders: [any PayloadDecoder]
    /// Per match key, the decoders to try in order, kept by kind of key. Lists, not dictionaries:
    /// a set holds a few dozen keys, and comparing a number or a UUID with each of the few of its
    /// kind is cheaper than hashing one (this runs for every payload).
    private var companies: [(key: UInt16, decoders: [Candidate])] = []
    private var serviceData: [(key: BluetoothUUID, decoders: [Candidate])] = []
    private var characteristics: [(key: BluetoothUUID, decoders: [Candidate])] = []
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
                switch key {
                case .company(let company): Self.add(candidate, for: company, to: &companies)
                case .serviceData(let uuid): Self.add(candidate, for: uuid, to: &serviceData)
                case .characteristic(let uuid): Self.add(candidate, for: uuid, to: &characteristics)
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

    private static func add<Key: Equatable>(
        _ candidate: Candidate, for key: Key, to index: inout [(key: Key, decoders: [Candidate])]
    ) {
        if let i = index.firstIndex(where: { $0.key == key }) {
            index[i].decoders.append(candidate)
        } else {
            index.append((key, [candidate]))
        }
    }

    /// The decoders to try for `key`, in order; empty when none claims it. Not an optional: the
    /// array is looked up for every payload, and releasing an optional one took a generic path.
    public func decoders(for key: MatchKey) -> [Candidate] {
        switch key {
        case .company(let company): Self.find(company, in: companies)
        case .serviceData(let uuid): Self.find(uuid, in: serviceData)
        case .characteristic(let uuid): Self.find(uuid, in: characteristics)
        }
    }

    private static func find<Key: Equatable>(_ key: Key, in index: [(key: Key, decoders: [Candidate])]) -> [Candidate] {
        for entry in index where entry.key == key { return entry.decoders }
        return []
    }

    /// The ids a run over this set can produce: the decoders' and their follow-ups' (for `--decoder`).
    public var producedIDs: [String] {
        decoders.flatMap { decoder in [decoder.id] + (decoder.makeFollowUp()?.ids ?? []) }
    }
}
