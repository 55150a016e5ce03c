import BluetoothPackets
import ByteReading
import CaptureModel

/// Turns capture records into the ordered event stream: HCI → L2CAP → ATT/GATT, advertising,
/// connections, and handles resolved to UUIDs. The only stateful stage of the pipeline.
///
/// Feed records in file order with `consume`, then call `finish` once. Memory stays bounded:
/// state is kept per open connection, and reassembly buffers are capped.
public final class Tracker {
    public struct Options: Sendable {
        /// GATT databases from a map file, for captures without discovery.
        public var gattMap = GATTMap()
        public init() {}
    }

    /// How records were used; nothing is dropped without being counted here.
    public struct Statistics: Sendable {
        public var records = 0
        public var events = 0
        public var diagnostics = 0
        /// SCO and ISO audio, monitor index records and other records with no events.
        public var skippedRecords = 0
        /// Air captures: empty data PDUs (link keep-alives).
        public var emptyDataPDUs = 0
        public var badCRC = 0
        public var badMIC = 0
        public var encryptedPDUs = 0
        public var retransmissions = 0
    }

    let options: Options
    @exclusivity(unchecked) public internal(set) var statistics = Statistics()

    @exclusivity(unchecked) var connections = ConnectionTable()
    /// GATT databases learned in connections that have ended, by server.
    @exclusivity(unchecked) var cache: [GATTServer: GATTDatabase] = [:]
    @exclusivity(unchecked) var localAddresses: [UInt16: BluetoothAddress] = [:]
    /// Each adapter's manufacturer, from its Read Local Version Information: who defines its vendor commands.
    @exclusivity(unchecked) var manufacturers: [UInt16: UInt16] = [:]
    @exclusivity(unchecked) var extendedFragments: [ExtendedFragmentKey: ExtendedFragment] = [:]
    @exclusivity(unchecked) var airConnections: [UInt32: AirConnection] = [:]
    @exclusivity(unchecked) var nextAirConnectionID: UInt16 = 1
    /// Set once the connection table has been full (reported once).
    @exclusivity(unchecked) var reportedFullTable = false

    /// Connections followed at once, over HCI and on air each. A capture of random handles or
    /// access addresses would otherwise grow memory by a connection's state per few bytes read.
    static let maximumConnections = 1024

    // The outbox: events wait here while an earlier one is held for a decision.
    @exclusivity(unchecked) var outbox: [Event] = []
    @exclusivity(unchecked) var outboxHeld: [Bool] = []
    @exclusivity(unchecked) var outboxStart = 0
    /// Absolute index of outbox[0] (events ever queued before it).
    @exclusivity(unchecked) var outboxBase = 0
    @exclusivity(unchecked) var heldCount = 0

    /// Where events go while `consume` or `finish` runs: straight out when nothing is held.
    /// Unretained: it lives only while `streaming` runs, and a closure called from a variable
    /// had its context retained and released for every event (two atomic operations each).
    @exclusivity(unchecked) private var sink: Unmanaged<EventSink>?

    // The record being processed.
    @exclusivity(unchecked) var frame = 0
    @exclusivity(unchecked) var timestamp: Int64 = 0
    @exclusivity(unchecked) var adapter: UInt16 = 0
    @exclusivity(unchecked) var truncated = false

    /// Where events are made for a consumer that takes them by value (`streaming(to:)`).
    private let outgoing = UnsafeMutablePointer<Event>.allocate(capacity: 1)

    public init(options: Options = Options()) {
        self.options = options
        outbox.reserveCapacity(64)
    }

    deinit { outgoing.deallocate() }

    /// Processes one record and hands over the events it completed, in order.
    public func consume(_ record: CaptureRecord, _ emit: (consuming Event) -> Void) {
        streaming(to: emit) { consumeStreamed(record) }
    }

    /// Every record `next` gives until it gives nil, in order, as `consume` would take them one
    /// by one: for a loop over a capture, at less cost per record. Each record is consumed before
    /// `next` is asked again, so a reader may lend its records.
    public func consumeAll(_ next: () -> CaptureRecord?, _ emit: (consuming Event) -> Void) {
        streaming(to: emit) {
            while let record = next() { consumeStreamed(record) }
        }
    }

    /// Runs `body` with `emit` as where events go, for `consumeStreamed`: a stream of records
    /// makes its closure escaping once, not once per record (each time a heap box and a check).
    func streaming(to emit: (consuming Event) -> Void, _ body: () -> Void) {
        streaming(makingIn: { outgoing }, taking: { emit($0.move()) }, body)
    }

    /// `streaming`, with each event made where the next stage wants it (see
    /// `EventStream.read(_:options:stop:firstRecord:makingIn:taking:)`).
    func streaming(
        makingIn slot: () -> UnsafeMutablePointer<Event>, taking take: (UnsafeMutablePointer<Event>) -> Void,
        _ body: () -> Void
    ) {
        withoutActuallyEscaping(slot) { slot in
            withoutActuallyEscaping(take) { take in
                let target = EventSink(slot: slot, take: take)
                sink = Unmanaged.passUnretained(target)
                defer { sink = nil }
                withExtendedLifetime(target) { body() }
            }
        }
    }

    /// One record, inside `streaming`.
    func consumeStreamed(_ record: CaptureRecord) {
        statistics.records += 1
        frame = record.frame
        timestamp = record.timestamp
        adapter = record.adapter
        truncated = record.isSnapped
        var reader = ByteReader(record.payload)
        switch record.kind {
        case .event: handleEvent(&reader)
        case .acl: handleACL(&reader, direction: record.direction)
        case .command: handleCommand(&reader)
        case .linkLayer: handleLinkLayer(&reader, linkType: record.linkType)
        case .note:
            push(.note(Note(record: record)))
        case .sco, .iso, .other:
            statistics.skippedRecords += 1
        }
        if heldCount > 0 { expireHolds() }
        // Most events went straight out (`push`): nothing waits, and the sink is not taken out
        // (a retain and a release) for each record.
        if !outbox.isEmpty, let sink {
            let target = sink.takeUnretainedValue()
            drain { event in
                let slot = target.slot()
                slot.initialize(to: event)
                target.take(slot)
            }
        }
    }

    /// Ends the stream: decides held events, reports unfinished fragments, caches open connections.
    public func finish(_ emit: (consuming Event) -> Void) {
        truncated = false
        for connection in connections.values { releaseHolds(connection) }
        for air in airConnections.values { releaseHolds(air.connection) }
        for (key, fragment) in extendedFragments.sorted(by: { $0.value.firstFrame < $1.value.firstFrame }) {
            _ = key
            diagnose(
                "hci", "adv.incomplete_fragments",
                "extended advertising data from \(fragment.address) (SID \(fragment.sid)) never completed after frame \(fragment.firstFrame)")
        }
        extendedFragments.removeAll()
        drain(emit)
    }

    /// Every GATT database learned so far, by server: ended connections and open ones.
    public var learnedDatabases: [GATTServer: GATTDatabase] {
        var result = cache
        for connection in connections.values + airConnections.values.map(\.connection) {
            for side in 0..<2 where !connection.databases[side].isEmpty {
                guard let server = server(of: connection, side: side) else { continue }
                result[server, default: GATTDatabase()].merge(connection.databases[side])
            }
        }
        return result
    }

    /// The GATT server on `side` of a connection: 0 the peer, 1 ourselves.
    func server(of connection: Connection, side: Int) -> GATTServer? {
        if side == 0 { return connection.peer.map { .device($0) } }
        return connection.local.map { .device($0) } ?? .localAdapter(connection.adapter)
    }

    // MARK: Outbox

    /// `mayHoldReferences`: false for a body known to hold nothing on the heap (`Event.deinitialize`).
    func push(_ body: consuming Event.Body, held: Bool = false, mayHoldReferences: Bool = true) {
        statistics.events += 1
        // Nothing waiting: the event goes straight out, made where the sink (borrowed without
        // a retain) wants it.
        if !held, heldCount == 0, outboxStart == outbox.count, let sink {
            let slot = sink._withUnsafeGuaranteedRef { $0.slot() }
            Event.initialize(
                slot, frame: frame, timestamp: timestamp, adapter: adapter, body: body, truncated: truncated,
                mayHoldReferences: mayHoldReferences)
            sink._withUnsafeGuaranteedRef { $0.take(slot) }
            return
        }
        outbox.append(Event(frame: frame, timestamp: timestamp, adapter: adapter, body: body, truncated: truncated))
        outboxHeld.append(held)
        if held { heldCount += 1 }
    }

    /// A diagnostic found outside the tracker (a damaged record the reader skipped), queued behind
    /// any event still held for a decision so that the stream stays in capture order.
    func report(_ diagnostic: Diagnostic, frame: Int, timestamp: Int64, _ emit: (consuming Event) -> Void) {
        outbox.append(Event(frame: frame, timestamp: timestamp, body: .diagnostic(diagnostic)))
        outboxHeld.append(false)
        drain(emit)
    }

    /// Absolute index the next pushed event will get.
    var nextOutboxIndex: Int { outboxBase + outbox.count }

    func diagnose(
        _ layer: StaticString, _ id: StaticString, _ reason: String, offset: Int? = nil, connection: UInt16? = nil
    ) {
        statistics.diagnostics += 1
        push(.diagnostic(Diagnostic(layer: layer, id: id, reason: reason, offset: offset, connection: connection)))
    }

    func diagnose(_ layer: StaticString, _ id: StaticString, _ error: DecodeError, connection: UInt16? = nil) {
        diagnose(layer, id, error.description, offset: error.offset, connection: connection)
    }

    /// Decides a held event: whether it was a part of a long value.
    func decideHeld(at index: Int, partial: Bool) {
        let local = index - outboxBase
        guard local >= outboxStart, local < outbox.count, outboxHeld[local] else { return }
        outboxHeld[local] = false
        heldCount -= 1
        if partial, case .att(var att) = outbox[local].body {
            att.partial = true
            outbox[local].body = .att(att)
        }
    }

    private func drain(_ emit: (consuming Event) -> Void) {
        while outboxStart < outbox.count, !outboxHeld[outboxStart] {
            emit(outbox[outboxStart])
            outboxStart += 1
        }
        if outboxStart == outbox.count, !outbox.isEmpty {
            outboxBase += outbox.count
            outbox.removeAll(keepingCapacity: true)
            outboxHeld.removeAll(keepingCapacity: true)
            outboxStart = 0
        }
    }

    /// Where `streaming` sends events.
    final class EventSink {
        /// Where the next event is made.
        let slot: () -> UnsafeMutablePointer<Event>
        /// Given the event once it is made there.
        let take: (UnsafeMutablePointer<Event>) -> Void
        init(
            slot: @escaping () -> UnsafeMutablePointer<Event>, take: @escaping (UnsafeMutablePointer<Event>) -> Void
        ) {
            self.slot = slot
            self.take = take
        }
    }

    /// Holds wait at most a few seconds or a few hundred events, so output never stalls.
    private func expireHolds() {
        guard outboxStart < outbox.count else { return }
        let oldest = outbox[outboxStart]
        // Damaged timestamps can be far apart: a difference Int64 cannot hold is a long wait too.
        let (waited, overflow) = timestamp.subtractingReportingOverflow(oldest.timestamp)
        if overflow || waited > 5_000_000 || outbox.count - outboxStart > 512 {
            for connection in connections.values { releaseHolds(connection) }
            for air in airConnections.values { releaseHolds(air.connection) }
        }
    }

    // MARK: Connections

    func connectionKey(_ handle: UInt16) -> UInt32 { UInt32(adapter) << 16 | UInt32(handle) }

    /// The connection for an ACL handle, created on first sight for captures that start mid-connection.
    func connection(handle: UInt16) -> Connection {
        let key = connectionKey(handle)
        if let existing = connections[key] { return existing }
        let created = Connection(id: handle, adapter: adapter)
        created.local = localAddresses[adapter]
        if hasRoom(connections.count) { connections[key] = created }
        return created
    }

    /// Whether a table of `count` connections may take one more; reports the first time it may not.
    /// A connection that is not kept is still decoded, packet by packet, without its state.
    func hasRoom(_ count: Int, layer: StaticString = "hci") -> Bool {
        guard count >= Self.maximumConnections else { return true }
        if !reportedFullTable {
            reportedFullTable = true
            diagnose(
                layer, "tracker.too_many_connections",
                "more than \(Self.maximumConnections) connections at once: further ones are decoded without their state"
            )
        }
        return false
    }

    /// Ends a connection: decides its held events and keeps what it learned for later connections.
    func close(_ connection: Connection) {
        releaseHolds(connection)
        // Its channels close with the link.
        for channel in connection.channels { closeChannel(connection, channel) }
        for side in 0..<2 where !connection.databases[side].isEmpty {
            guard let server = server(of: connection, side: side) else { continue }
            cache[server, default: GATTDatabase()].merge(connection.databases[side])
        }
    }
}
