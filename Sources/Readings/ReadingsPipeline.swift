import BluetoothPackets
import BluetoothTracking
import ByteReading
import PayloadDecoders

/// Runs decoders over the event stream and turns their outcomes into readings, in frame order.
///
/// The only state that spans payloads lives here, in two small layers, both asked of the decoders:
/// de-duplication of repeated readings (a device advertising the same value many times, by the
/// decoder's `dedupKey`), and the decoders' follow-ups (work across payloads).
///
/// For output on its way to JSON, a pipeline can pack readings' fields as they are decoded
/// (`init(decoders:options:packingInto:)`): a decoder with a packing path writes them straight
/// into the packer, and every reading comes out with where its fields lie there
/// (`consume(_:packed:)`), its `outcome` holding no fields of its own.
public final class ReadingsPipeline {
    public struct Options: Sendable {
        /// List every copy instead of one reading with `repeats`.
        public var allRepeats = false
        /// Also list payloads no decoder matched.
        public var includeUndecoded = false
        public init() {}
    }

    let decoders: DecoderSet
    let options: Options
    /// Each decoder's id, by its place in the decoder set: asked of the decoder through its
    /// protocol for every reading, it was a call and a retain.
    private let ids: [String]
    /// Each decoder's dedup key, by its place in the decoder set (nil: every payload is a reading).
    private let dedupKeys: [[String]?]
    /// Whether each decoder has one: asked for every payload, where taking the optional out of
    /// `dedupKeys` would copy it through the runtime's generic path.
    private let deduplicates: [Bool]
    /// Each decoder's follow-up, by its place in the decoder set.
    private let followUpOf: [(any DecoderFollowUp)?]
    /// Whether each decoder has one: asked for every payload, where taking the optional out of
    /// `followUpOf` would copy it through the runtime's generic path.
    private let hasFollowUp: [Bool]
    /// The follow-ups there are, for the end of a connection and of the capture.
    private let followUps: [any DecoderFollowUp]
    /// Each decoder's follow-up's `observesOnly`, by its place in the decoder set.
    private let observedOnly: [(name: String, value: FieldValue)?]
    /// Whether each decoder's readings can be packed as they are decoded: it has no follow-up,
    /// or one that sees only some readings, whose fields are then made for it from the packer.
    private let packsDirectly: [Bool]
    private let output: ReadingOutbox
    /// Where readings' fields are written, when they are packed.
    private let packer: FieldPacker?
    /// The same packer, not optional, and whether there is one: bound from the optional for
    /// every payload, the packer was retained and released each time.
    private let packing: FieldPacker
    private let packs: Bool
    /// The reading held for its repeat count, per device and decoder: a device's new value makes
    /// its earlier one final, so there is at most one.
    private let pendingDuplicates = WordTable<HeldReading>()
    @exclusivity(unchecked) private var lastExpiry: Int64 = .min
    @exclusivity(unchecked) private var lastFrame = 0
    @exclusivity(unchecked) private var lastTimestamp: Int64 = 0
    /// The payload handed to the decoders, kept from one to the next so that its bytes' buffer is
    /// refilled, not made and freed for each (copied on write should a reading keep it). Kept in
    /// a slot of its own and moved out while it is used: a class's stored value handed to a call
    /// is copied, its buffers retained and released each time.
    private let payloadSlot: UnsafeMutablePointer<Payload>

    public convenience init(decoders: DecoderSet, options: Options = Options()) {
        self.init(decoders, options, packer: nil)
    }

    /// A pipeline whose readings' fields are written into `packer` as they are decoded; their
    /// readings come out through `consume(_:packed:)` and `finish(packed:)`.
    public convenience init(decoders: DecoderSet, options: Options = Options(), packingInto packer: FieldPacker) {
        self.init(decoders, options, packer: packer)
    }

    private init(_ decoders: DecoderSet, _ options: Options, packer: FieldPacker?) {
        self.decoders = decoders
        self.options = options
        self.packer = packer
        packing = packer ?? FieldPacker()
        packs = packer != nil
        output = ReadingOutbox(packer: packer)
        ids = decoders.decoders.map(\.id)
        dedupKeys = decoders.decoders.map(\.dedupKey)
        deduplicates = dedupKeys.map { $0 != nil }
        followUpOf = decoders.decoders.map { $0.makeFollowUp() }
        followUps = followUpOf.compactMap { $0 }
        hasFollowUp = followUpOf.map { $0 != nil }
        observedOnly = followUpOf.map { $0?.observesOnly }
        packsDirectly = followUpOf.map { $0 == nil || $0?.observesOnly != nil }
        payloadSlot = .allocate(capacity: 1)
        payloadSlot.initialize(to: Payload(.manufacturerData(company: 0), []))
    }

    deinit {
        payloadSlot.deinitialize(count: 1)
        payloadSlot.deallocate()
    }

    /// Decodes what the event carries and hands over the readings that are ready, in order.
    public func consume(_ event: Event, _ emit: (consuming Reading) -> Void) {
        precondition(packer == nil, "a pipeline that packs fields hands readings over with them: consume(_:packed:)")
        take(event)
        output.drain { reading, _ in emit(reading) }
    }

    /// `consume(_:_:)` for a pipeline that packs fields: each reading with where its fields lie
    /// in the packer (`.none` for a reading without fields), valid during the call.
    public func consume(_ event: Event, packed emit: (consuming Reading, FieldPacker.Span) -> Void) {
        take(event)
        output.drain(emit)
    }

    private func take(_ event: Event) {
        lastFrame = event.frame
        lastTimestamp = event.timestamp
        switch event.body {
        case .advertisement(let adv): advertisement(adv, event)
        case .att(let att): attribute(att, event)
        case .disconnect(let d):
            guard let address = d.address else { break }
            let moment = CaptureMoment(frame: event.frame, timestamp: event.timestamp)
            for followUp in followUps { append(followUp.connectionEnded(with: address, at: moment)) }
        default: break
        }
        expireDuplicates(now: event.timestamp)
    }

    public func finish(_ emit: (consuming Reading) -> Void) {
        precondition(packer == nil, "a pipeline that packs fields hands readings over with them: finish(packed:)")
        end()
        output.drain { reading, _ in emit(reading) }
    }

    public func finish(packed emit: (consuming Reading, FieldPacker.Span) -> Void) {
        end()
        output.drain(emit)
    }

    private func end() {
        pendingDuplicates.forEach { _, held in output.release(held.index) }
        pendingDuplicates.removeAll()
        let end = CaptureMoment(frame: lastFrame, timestamp: lastTimestamp)
        for followUp in followUps { append(followUp.finish(at: end)) }
    }

    /// A follow-up's readings, queued in order like any other.
    private func append(_ summaries: [FollowUpReading]) {
        for summary in summaries {
            let match: Reading.Match
            switch summary.match {
            case .company(let company): match = .company(company)
            case .serviceData(let uuid): match = .serviceData(uuid)
            case .characteristic(let uuid): match = .characteristic(uuid)
            }
            let (outcome, span) = place(summary.fields, row: -1)
            output.append(
                Reading(
                    frame: summary.moment.frame, timestamp: summary.moment.timestamp, address: summary.address,
                    decoder: summary.decoder, source: summary.source, match: match, outcome: outcome), span: span)
        }
    }

    /// A reading's outcome for `fields`: the fields themselves, or, when they are packed, none in
    /// the reading and where they lie in the packer (remembered under `row`, a decoder's place).
    private func place(_ fields: consuming Fields, row: Int) -> (Reading.Outcome, FieldPacker.Span) {
        guard let packer else { return (.fields(fields), .none) }
        return (.fields(Fields()), packer.pack(fields, row: row))
    }

    // MARK: Advertising

    private func advertisement(_ adv: Advertisement, _ event: Event) {
        var payload = payloadSlot.move()
        adv.data.withUnsafeBytes { decodePayloads(in: $0, of: adv, event, with: &payload) }
        payloadSlot.initialize(to: consume payload)
    }

    /// The manufacturer and service data in an advertisement's AD structures, each in `payload`
    /// in turn, to their decoders.
    private func decodePayloads(
        in bytes: UnsafeRawBufferPointer, of adv: Advertisement, _ event: Event, with payload: inout Payload
    ) {
        var context: PayloadContext?
        for s in AdvertisingData.structures(in: bytes) {
            let key: MatchKey
            let match: Reading.Match
            let data: UnsafeRawBufferPointer
            switch s.kind {
            case .manufacturerData(let company, let structureData):
                key = .company(company)
                match = .company(company)
                payload.source = .manufacturerData(company: company)
                data = structureData
            case .serviceData(let uuid, let structureData):
                key = .serviceData(uuid)
                match = .serviceData(uuid)
                payload.source = .serviceData(uuid: uuid)
                data = structureData
            default:
                continue
            }
            // Most structures no decoder claims: nothing to copy or gather for them.
            let candidates = decoders.candidates(for: key)
            guard !candidates.isEmpty || options.includeUndecoded else { continue }
            if decoders.readsAdvertisingContext(key) {
                if context == nil { context = Self.context(of: adv, bytes) }
                payload.context = context!
            } else {
                Self.setContext(of: &payload, address: adv.address)
            }
            Self.setBytes(of: &payload, to: data)
            decode(candidates, match: match, payload: payload, source: "adv", address: adv.address, event)
        }
    }

    /// A context with the address alone, without a release or retain when it had no more.
    private static func setContext(of payload: inout Payload, address: BluetoothAddress?) {
        payload.context.address = address
        if payload.context.localName != nil { payload.context.localName = nil }
        if !payload.context.serviceUUIDs.isEmpty { payload.context.serviceUUIDs = [] }
    }

    /// Copies `bytes` into the payload's buffer, in place when it holds as many.
    private static func setBytes(of payload: inout Payload, to bytes: UnsafeRawBufferPointer) {
        if payload.bytes.count == bytes.count {
            // A device's payloads keep their length: overwritten in place, where emptying and
            // appending took the array's general paths.
            payload.bytes.withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
        } else {
            // One replacement, in the buffer the array has when it is large enough (emptying it
            // first and appending took the array's general path twice).
            payload.bytes.replaceSubrange(payload.bytes.indices, with: bytes)
        }
    }

    /// The address, local name and service UUIDs of an advertisement, read in one pass over it.
    private static func context(of adv: Advertisement, _ bytes: UnsafeRawBufferPointer) -> PayloadContext {
        var complete: String?
        var shortened: String?
        var uuids: [BluetoothUUID] = []
        for s in AdvertisingData.structures(in: bytes) {
            switch s.kind {
            case .localName(let name, let isComplete):
                if isComplete { complete = String(decoding: name, as: UTF8.self) } else {
                    shortened = String(decoding: name, as: UTF8.self)
                }
            case .uuids(let list, _): uuids.append(contentsOf: list)
            default: break
            }
        }
        return PayloadContext(address: adv.address, localName: complete ?? shortened, serviceUUIDs: uuids)
    }

    // MARK: Attribute values

    private func attribute(_ att: ATTEvent, _ event: Event) {
        // The value is read where it lies: bound to a name, it was retained and released.
        guard !att.partial, att.value != nil, let operation = Self.operation(att) else { return }
        guard let uuid = att.attribute?.uuid else {
            if options.includeUndecoded {
                output.append(
                    Reading(
                        frame: event.frame, timestamp: event.timestamp, address: att.peer, decoder: nil, source: att.op,
                        match: .characteristic(nil), outcome: .undecoded(att.value ?? [])))
            }
            return
        }
        let candidates = decoders.candidates(for: .characteristic(uuid))
        guard !candidates.isEmpty || options.includeUndecoded else { return }
        var payload = payloadSlot.move()
        payload.source = .attribute(uuid: uuid, operation: operation)
        Self.setContext(of: &payload, address: att.peer)
        att.value?.withUnsafeBytes { Self.setBytes(of: &payload, to: $0) }
        decode(candidates, match: .characteristic(uuid), payload: payload, source: att.op, address: att.peer, event)
        payloadSlot.initialize(to: consume payload)
    }

    /// The value operations decoders see; requests, discovery and errors carry no attribute value.
    static func operation(_ att: ATTEvent) -> ValueOperation? {
        switch att.kind {
        case .readLong: return .read
        case .writeLong: return .write
        case .pdu: break
        }
        switch att.opcode {
        case ATTOpcode.handleValueNotification, ATTOpcode.multipleHandleValueNotification: return .notify
        case ATTOpcode.handleValueIndication: return .indicate
        case ATTOpcode.readResponse, ATTOpcode.readBlobResponse, ATTOpcode.readByTypeResponse,
            ATTOpcode.readMultipleVariableResponse:
            return .read
        case ATTOpcode.writeRequest, ATTOpcode.writeCommand, ATTOpcode.signedWriteCommand: return .write
        default: return nil
        }
    }

    // MARK: Decoding

    /// `candidates`: where the decoders for the payload's key lie in the set's candidates, in
    /// order (empty when none claims it).
    private func decode(
        _ candidates: Range<Int>, match: Reading.Match, payload: borrowing Payload, source: String,
        address: BluetoothAddress?, _ event: Event
    ) {
        var decoded = false
        if !candidates.isEmpty {
            for index in candidates {
                let slot = decoders.candidateSlots[index]
                if countedAsRepeat(payload, decoder: slot, address: address, at: event.timestamp) {
                    decoded = true
                    continue
                }
                let followedUp = hasFollowUp[slot]
                if packs, packsDirectly[slot] {
                    // The fields straight into the packer, where the decoder can: no list of
                    // outcomes, and no fields to hand over or free.
                    packing.beginOutcome(row: slot)
                    let outcome: Reading.Outcome
                    let span: FieldPacker.Span
                    // Used where it lies: bound to a name, the decoder was retained and released.
                    let packed = decoders.candidateDecoders.withUnsafeBufferPointer {
                        $0[index].decode(payload, packingInto: packing)
                    }
                    switch packed {
                    case .none:
                        packing.discardOutcome()
                        continue
                    case .fields:
                        (outcome, span) = (.fields(Fields()), packing.endOutcome())
                        if followedUp { observe(span, packing, slot, address, event) }
                    case .error(let error):
                        packing.discardOutcome()
                        (outcome, span) = (.error(error), .none)
                    case .outcomes(var outcomes):
                        packing.discardOutcome()
                        if outcomes.isEmpty { continue }
                        decoded = true
                        decodeEach(&outcomes, slot, payload, followedUp: followedUp, address, source, match, event)
                        continue
                    }
                    decoded = true
                    deliver(
                        Reading(
                            frame: event.frame, timestamp: event.timestamp, address: address,
                            decoder: ids[slot], source: source, match: match, outcome: outcome),
                        span: span, decoder: slot, payload: payload, keepingPayload: !followedUp)
                    continue
                }
                var outcomes = decoders.candidateDecoders[index].decode(payload)
                if outcomes.isEmpty { continue }
                decoded = true
                decodeEach(&outcomes, slot, payload, followedUp: followedUp, address, source, match, event)
            }
        }
        if !decoded, options.includeUndecoded {
            output.append(
                Reading(
                    frame: event.frame, timestamp: event.timestamp, address: address, decoder: nil, source: source,
                    match: match, outcome: .undecoded(payload.bytes)))
        }
    }

    /// Shows a follow-up the packed fields of a reading its decoder gave, when it looks at them.
    private func observe(
        _ span: FieldPacker.Span, _ packer: FieldPacker, _ decoder: Int, _ address: BluetoothAddress?, _ event: Event
    ) {
        guard let address, let followUp = followUpOf[decoder], let only = observedOnly[decoder],
            packer.value(named: only.name, in: span) == only.value
        else { return }
        let moment = CaptureMoment(frame: event.frame, timestamp: event.timestamp)
        append(followUp.observe(packer.fields(span), from: address, at: moment))
    }

    /// The readings of one decoder's outcomes for a payload.
    private func decodeEach(
        _ outcomes: inout [DecodeOutcome], _ slot: Int, _ payload: borrowing Payload,
        followedUp: Bool, _ address: BluetoothAddress?, _ source: String, _ match: Reading.Match, _ event: Event
    ) {
        let id = ids[slot]
        let count = outcomes.count
        // A held reading keeps its payload to recognise repeats only when it is the payload's one
        // reading and no follow-up has to see the payload again.
        let repeatable = count == 1 && !followedUp
        // Taken from the end of the reversed list: each outcome is moved into its reading, not
        // copied (and its fields retained and released once more).
        outcomes.reverse()
        while let outcome = outcomes.popLast() {
            let readingOutcome: Reading.Outcome
            var span = FieldPacker.Span.none
            switch consume outcome {
            case .fields(let fields):
                if followedUp, let address, let followUp = followUpOf[slot],
                    observedOnly[slot].map({ fields[$0.name] == $0.value }) ?? true
                {
                    let moment = CaptureMoment(frame: event.frame, timestamp: event.timestamp)
                    append(followUp.observe(fields, from: address, at: moment))
                }
                (readingOutcome, span) = place(fields, row: slot)
            case .error(let error): readingOutcome = .error(error)
            }
            deliver(
                Reading(
                    frame: event.frame, timestamp: event.timestamp, address: address, decoder: id,
                    source: source, match: match, index: count > 1 ? count - outcomes.count - 1 : nil,
                    outcome: readingOutcome),
                span: span, decoder: slot, payload: payload, keepingPayload: repeatable)
        }
    }

    // MARK: De-duplication

    /// A device and a decoder (its place in the decoder set) as one word, never 0: the address's
    /// 48 bits (bit 63 without one), the decoder's place above them, bit 62 always set.
    private static func dedupKey(_ address: BluetoothAddress?, _ decoder: Int) -> UInt64 {
        precondition(decoder < 1 << 14, "more decoders than a dedup key holds")
        let device = address.map { $0.value & 0xFFFF_FFFF_FFFF } ?? 1 << 63
        return device | UInt64(truncatingIfNeeded: decoder) << 48 | 1 << 62
    }

    private struct HeldReading {
        /// The fields of the reading, for comparing the values of the decoder's dedup key (none
        /// when they are packed: they are compared where they lie).
        var fields: Fields
        /// The payload it was decoded from, when it was that payload's only reading (`payloadKept`).
        /// Not an optional: compared for every copy, an optional one went through the runtime's
        /// generic path.
        var payload: Payload
        var payloadKept: Bool
        /// Where the reading waits in the outbox.
        var index: Int

        /// What a held reading keeps when it keeps no payload.
        static let noPayload = Payload(.manufacturerData(company: 0), [])
    }

    /// How long a de-duplicated reading waits for more copies after the last one (capture time).
    static let duplicateWindow: Int64 = 10_000_000
    /// Readings held for repeats at once, and readings that may wait behind them. A capture whose
    /// time does not move on (or moves back) would otherwise keep every reading of every new
    /// device in memory to the end, and each event would look through all that are held.
    static let maximumHeld = 512
    static let maximumWaiting = 20_000

    /// A payload byte for byte as the one a held reading came from, from the same device and for
    /// the same decoder, decodes to the same fields (decoders are pure): within the window it is a
    /// repeat, counted without decoding it again.
    private func countedAsRepeat(
        _ payload: borrowing Payload, decoder: Int, address: BluetoothAddress?, at timestamp: Int64
    ) -> Bool {
        guard !options.allRepeats, deduplicates[decoder],
            let place = pendingDuplicates.slot(of: Self.dedupKey(address, decoder))
        else { return false }
        let held = pendingDuplicates[slot: place].index
        guard pendingDuplicates[slot: place].payloadKept, pendingDuplicates[slot: place].payload == payload else {
            return false
        }
        let (waited, overflow) = timestamp.subtractingReportingOverflow(output.lastSeen(held))
        guard !overflow, waited <= Self.duplicateWindow else { return false }
        output.countRepeat(held, at: timestamp)
        return true
    }

    /// `decoder`: the place of the reading's decoder in the decoder set; `payload`: what the
    /// reading was decoded from, kept while it is held to recognise its repeats when
    /// `keepingPayload`. (Not an optional payload: that took a generic path for every reading.)
    /// `span`: where its fields lie, when they are packed.
    private func deliver(
        _ reading: consuming Reading, span: FieldPacker.Span, decoder: Int, payload: borrowing Payload,
        keepingPayload: Bool
    ) {
        guard !options.allRepeats, deduplicates[decoder], let names = dedupKeys[decoder],
            case .fields(let fields) = reading.outcome
        else {
            output.append(reading, span: span)
            return
        }
        let device = Self.dedupKey(reading.address, decoder)
        if let place = pendingDuplicates.slot(of: device) {
            // Read where it lies: copied out, its fields and payload were retained and released.
            let held = pendingDuplicates[slot: place].index
            if sameKey(names, pendingDuplicates[slot: place], fields, span) {
                let (waited, overflow) = reading.timestamp.subtractingReportingOverflow(output.lastSeen(held))
                if !overflow, waited <= Self.duplicateWindow {
                    output.countRepeat(held, at: reading.timestamp)
                    return
                }
            }
            // A new value from this device, or the same one after a long silence: the device has
            // moved on, so its earlier reading is final.
            output.release(held)
        }
        var first = consume reading
        first.repeats = 1
        pendingDuplicates.set(
            device,
            HeldReading(
                fields: fields, payload: keepingPayload ? copy payload : HeldReading.noPayload,
                payloadKept: keepingPayload, index: output.append(first, span: span, held: true)))
    }

    /// Whether a reading has the held one's values for the dedup key `names`. A missing field
    /// counts as null, as it is written.
    private func sameKey(
        _ names: [String], _ held: borrowing HeldReading, _ fields: Fields, _ span: FieldPacker.Span
    ) -> Bool {
        guard let packer else { return names.allSatisfy { (held.fields[$0] ?? .null) == (fields[$0] ?? .null) } }
        let heldSpan = output.span(held.index)
        return names.allSatisfy {
            (packer.value(named: $0, in: heldSpan) ?? .null) == (packer.value(named: $0, in: span) ?? .null)
        }
    }

    /// Releases readings whose copies have stopped, so they go out without waiting for the end.
    /// Once a second of capture time is enough: `deliver` checks the window itself.
    private func expireDuplicates(now: Int64) {
        guard !pendingDuplicates.isEmpty else { return }
        let crowded = pendingDuplicates.count > Self.maximumHeld || output.waiting > Self.maximumWaiting
        // Time that jumps (backwards, or further than Int64 spans) in a damaged capture also checks.
        let (sinceLast, jumped) = now.subtractingReportingOverflow(lastExpiry)
        guard crowded || jumped || sinceLast < 0 || sinceLast >= 1_000_000 else { return }
        lastExpiry = now
        var expired: [UInt64] = []
        pendingDuplicates.forEach { device, held in
            // A damaged capture's timestamps can be further apart than Int64 holds: that is a long wait.
            let (waited, overflow) = now.subtractingReportingOverflow(output.lastSeen(held.index))
            guard crowded || overflow || waited > Self.duplicateWindow else { return }
            output.release(held.index)
            expired.append(device)
        }
        for device in expired { pendingDuplicates.remove(device) }
    }
}
