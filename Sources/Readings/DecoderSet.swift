import BluetoothPackets
import PayloadDecoders

/// The decoders in use, looked up by what they match. Built once per run.
public struct DecoderSet: Sendable {
    public let decoders: [any PayloadDecoder]
    /// Every match key's decoders to try, in order, one key's after another's (`candidates(for:)`
    /// gives where a key's lie): a list per key, handed out for every payload, was retained and
    /// released each time.
    public private(set) var candidates: [Candidate] = []
    /// `candidates` taken apart, as the pipeline reads them for every payload: a candidate read
    /// out of its list was copied whole (its decoder retained and released), even for its place.
    public private(set) var candidateSlots: [Int] = []
    public private(set) var candidateDecoders: [any PayloadDecoder] = []
    /// Per match key, where its decoders lie in `candidates`, kept by kind of key. Lists, not
    /// dictionaries: a set holds a few dozen keys, and comparing a number or a UUID with each of
    /// the few of its kind is cheaper than hashing one (this runs for every payload).
    private var companies: [(key: UInt16, range: Range<Int>)] = []
    private var serviceData: [(key: BluetoothUUID, range: Range<Int>)] = []
    private var characteristics: [(key: BluetoothUUID, range: Range<Int>)] = []
    /// The match keys for which some decoder reads an advertisement's name or service UUIDs. Kept
    /// apart, though the decoders could be asked: it is looked at for every payload, and it is
    /// nearly always empty.
    private var keysReadingContext: [MatchKey] = []

    /// `only`: decoder ids to keep (nil keeps all).
    public init(_ decoders: [any PayloadDecoder], only: Set<String>? = nil) {
        let kept = only.map { ids in decoders.filter { ids.contains($0.id) } } ?? decoders
        self.decoders = kept
        var companyLists: [(key: UInt16, decoders: [Candidate])] = []
        var serviceDataLists: [(key: BluetoothUUID, decoders: [Candidate])] = []
        var characteristicLists: [(key: BluetoothUUID, decoders: [Candidate])] = []
        for (slot, decoder) in kept.enumerated() {
            for key in decoder.matches {
                let candidate = Candidate(decoder: decoder, slot: slot)
                switch key {
                case .company(let company): Self.add(candidate, for: company, to: &companyLists)
                case .serviceData(let uuid): Self.add(candidate, for: uuid, to: &serviceDataLists)
                case .characteristic(let uuid): Self.add(candidate, for: uuid, to: &characteristicLists)
                }
                if decoder.readsAdvertisingContext, !keysReadingContext.contains(key) { keysReadingContext.append(key) }
            }
        }
        companies = Self.place(companyLists, in: &candidates)
        serviceData = Self.place(serviceDataLists, in: &candidates)
        characteristics = Self.place(characteristicLists, in: &candidates)
        candidateSlots = candidates.map(\.slot)
        candidateDecoders = candidates.map(\.decoder)
    }

    /// Appends each key's decoders to `candidates`, answering where each key's lie.
    private static func place<Key>(
        _ lists: [(key: Key, decoders: [Candidate])], in candidates: inout [Candidate]
    ) -> [(key: Key, range: Range<Int>)] {
        lists.map { entry in
            let start = candidates.count
            candidates.append(contentsOf: entry.decoders)
            return (entry.key, start..<candidates.count)
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

    /// The decoders to try for `key`, in order; empty when none claims it.
    public func decoders(for key: MatchKey) -> [Candidate] {
        Array(candidates[candidates(for: key)])
    }

    /// Where the decoders to try for `key` lie in `candidates`; empty when none claims it.
    public func candidates(for key: MatchKey) -> Range<Int> {
        switch key {
        case .company(let company): Self.find(company, in: companies)
        case .serviceData(let uuid): Self.find(uuid, in: serviceData)
        case .characteristic(let uuid): Self.find(uuid, in: characteristics)
        }
    }

    private static func find<Key: Equatable>(_ key: Key, in index: [(key: Key, range: Range<Int>)]) -> Range<Int> {
        for entry in index where entry.key == key { return entry.range }
        return 0..<0
    }

    /// The ids a run over this set can produce: the decoders' and their follow-ups' (for `--decoder`).
    public var producedIDs: [String] {
        decoders.flatMap { decoder in [decoder.id] + (decoder.makeFollowUp()?.ids ?? []) }
    }
}
