import BluetoothPackets
import BluetoothTracking
import CaptureModel

/// Which events to keep, by type, device, UUID, handle and time; every condition given must match.
/// A filter learns as it reads (which device a connection handle belongs to, when the capture
/// starts): use a fresh one for each pass over a capture.
public struct EventFilter: Sendable {
    /// Event types to keep, as a bit per `EventType` case (nil keeps all).
    public var types: UInt32?
    public var addresses: Set<BluetoothAddress> = []
    public var uuids: Set<BluetoothUUID> = []
    public var handles: Set<UInt16> = []
    public var since: TimeBound?
    public var until: TimeBound?
    /// The time relative bounds count from: the capture's first record, when the reader says it
    /// (`Capture` does); else the first event seen.
    public var timeBase: Int64?
    /// Peer address of each connection seen, so connection events can be matched by address.
    private var connectionPeers: [UInt32: BluetoothAddress] = [:]
    private var firstTimestamp: Int64?

    public init() {}

    /// Keeps only events of these types.
    public mutating func keep(_ types: some Sequence<EventType>) {
        self.types = types.reduce(UInt32(0)) { $0 | Self.bit($1) }
    }

    public enum TimeBound: Sendable, Hashable {
        /// Seconds (µs) from the first record.
        case relative(Int64)
        case absolute(Int64)
    }

    /// Seconds from the first record (`12.5`), or an ISO time (`2024-03-15T09:30:01Z`,
    /// `2025-10-04T08:15:20+02:00`; no zone is UTC).
    public static func parseTime(_ text: String) throws(EventFilterError) -> TimeBound {
        if let seconds = Double(text) {
            // NaN, infinities and counts past ±292,000 years have no Int64 microsecond value.
            guard seconds.isFinite, seconds.magnitude < 9e12 else { throw notATime(text) }
            return .relative(Int64((seconds * 1_000_000).rounded()))
        }
        guard let micros = CivilTime.parseISO(text) else { throw notATime(text) }
        return .absolute(micros)
    }

    private static func notATime(_ text: String) -> EventFilterError {
        EventFilterError(
            "'\(text)' is not a time: give seconds from the start of the capture (12.5) or an ISO time "
                + "(2024-03-15T09:30:01Z, 2025-10-04T08:15:20+02:00)")
    }

    public var isEmpty: Bool {
        types == nil && addresses.isEmpty && uuids.isEmpty && handles.isEmpty && since == nil && until == nil
    }

    /// Sees every event (to learn connection addresses) and says whether it passes.
    public mutating func accepts(_ event: Event) -> Bool {
        if firstTimestamp == nil { firstTimestamp = timeBase ?? event.timestamp }
        learn(event)
        if let types, types & Self.bit(event.type) == 0 { return false }
        if let since, event.timestamp < resolve(since) { return false }
        if let until, event.timestamp > resolve(until) { return false }
        if !addresses.isEmpty {
            guard let address = address(of: event), addresses.contains(address) else { return false }
        }
        if !handles.isEmpty {
            guard case .att(let att) = event.body, let handle = att.handle, handles.contains(handle) else { return false }
        }
        if !uuids.isEmpty, !matchesUUID(event) { return false }
        return true
    }

    public static func bit(_ type: EventType) -> UInt32 { 1 << UInt32(type.ordinal) }

    private func resolve(_ bound: TimeBound) -> Int64 {
        switch bound {
        case .relative(let micros):
            // A damaged capture may start near the end of the Int64 range: saturate, do not trap.
            (firstTimestamp ?? 0).addingReportingOverflow(micros).overflow
                ? (micros < 0 ? .min : .max) : (firstTimestamp ?? 0) + micros
        case .absolute(let micros): micros
        }
    }

    private func key(_ event: Event, _ connection: UInt16) -> UInt32 { UInt32(event.adapter) << 16 | UInt32(connection) }

    private mutating func learn(_ event: Event) {
        switch event.body {
        case .connect(let c): connectionPeers[key(event, c.connection)] = c.address
        case .att(let a): if let peer = a.peer { connectionPeers[key(event, a.connection)] = peer }
        default: break
        }
    }

    private func address(of event: Event) -> BluetoothAddress? {
        switch event.body {
        case .advertisement(let a): return a.address
        case .connect(let c): return c.address
        case .disconnect(let d): return d.address ?? connectionPeers[key(event, d.connection)]
        case .att(let a): return a.peer ?? connectionPeers[key(event, a.connection)]
        case .mtu(let m): return connectionPeers[key(event, m.connection)]
        case .smp(let s): return connectionPeers[key(event, s.connection)]
        case .connectionUpdate(let u): return connectionPeers[key(event, u.connection)]
        case .dataLength(let d): return connectionPeers[key(event, d.connection)]
        case .phy(let p): return connectionPeers[key(event, p.connection)]
        case .encryption(let e): return connectionPeers[key(event, e.connection)]
        case .signal(let s): return connectionPeers[key(event, s.connection)]
        case .l2cap(let l): return connectionPeers[key(event, l.connection)]
        case .linkLayer(let l): return l.address ?? l.connection.flatMap { connectionPeers[key(event, $0)] }
        case .diagnostic(let d): return d.connection.flatMap { connectionPeers[key(event, $0)] }
        case .hci, .note: return nil
        }
    }

    private func matchesUUID(_ event: Event) -> Bool {
        switch event.body {
        case .att(let a):
            guard let attribute = a.attribute else { return false }
            return uuids.contains(attribute.uuid) || attribute.service.map(uuids.contains) == true
                || attribute.characteristic.map(uuids.contains) == true
        case .advertisement(let adv):
            if adv.data.serviceUUIDs.contains(where: uuids.contains) { return true }
            var found = false
            _ = adv.data.forEach { s in
                guard let size = ADType.uuidSize(s.type), s.type >= ADType.serviceData16, s.data.count >= size else { return }
                var r = ByteReader(s.data)
                if let uuid = try? BluetoothUUID(reading: &r, size: size), uuids.contains(uuid) { found = true }
            }
            return found
        default:
            return false
        }
    }
}

import ByteReading


/// A filter value that cannot be understood.
public struct EventFilterError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
