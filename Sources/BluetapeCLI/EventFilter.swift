import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel

/// The filters `events`, `decode` and `replay` share: they combine (all must match).
struct EventFilter {
    /// Event types to keep, as a bit per `EventType` case (nil keeps all).
    var types: UInt32?
    var addresses: Set<BluetoothAddress> = []
    var uuids: Set<BluetoothUUID> = []
    var handles: Set<UInt16> = []
    var since: TimeBound?
    var until: TimeBound?
    /// Peer address of each connection seen, so connection events can be matched by address.
    private var connectionPeers: [UInt32: BluetoothAddress] = [:]
    private var firstTimestamp: Int64?

    enum TimeBound {
        /// Seconds (µs) from the first record.
        case relative(Int64)
        case absolute(Int64)
    }

    static let options: [OptionSpec] = [
        .value("type", "TYPES", "Only these event types (comma-separated): adv, connect, disconnect, att, mtu, smp, …"),
        .value("addr", "ADDRESS", "Only events of this device (repeatable)."),
        .value("uuid", "UUID", "Only ATT events on this characteristic or service, and adverts carrying it."),
        .value("handle", "HANDLE", "Only ATT events on this handle (decimal or 0x hex)."),
        .value("since", "TIME", "Only events from TIME: seconds from the start, or an ISO time (UTC)."),
        .value("until", "TIME", "Only events up to TIME."),
    ]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let typeNames = arguments.list("type")
        if !typeNames.isEmpty {
            var types: UInt32 = 0
            for name in typeNames {
                guard let type = EventType(rawValue: name) else {
                    throw UsageError(
                        "unknown event type '\(name)'; types are \(EventType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                types |= Self.bit(type)
            }
            self.types = types
        }
        for text in arguments.list("addr") {
            guard let address = BluetoothAddress(text) else { throw UsageError("'\(text)' is not a Bluetooth address") }
            addresses.insert(address)
        }
        for text in arguments.list("uuid") {
            guard let uuid = BluetoothUUID(text) else { throw UsageError("'\(text)' is not a UUID") }
            uuids.insert(uuid)
        }
        for text in arguments.list("handle") {
            let value = text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
            guard let value else { throw UsageError("'\(text)' is not a handle (0–65535, decimal or 0x hex)") }
            handles.insert(value)
        }
        since = try arguments.value("since").map { text throws(UsageError) in try Self.parseTime(text) }
        until = try arguments.value("until").map { text throws(UsageError) in try Self.parseTime(text) }
    }

    static func parseTime(_ text: String) throws(UsageError) -> TimeBound {
        let notATime = UsageError(
            "'\(text)' is not a time: give seconds from the start (12.5) or an ISO time (2024-03-15T09:30:01Z)")
        if let seconds = Double(text) {
            // NaN, infinities and counts past ±292,000 years have no Int64 microsecond value.
            guard seconds.isFinite, seconds.magnitude < 9e12 else { throw notATime }
            return .relative(Int64((seconds * 1_000_000).rounded()))
        }
        // 2024-03-15T09:30:01(.123456)(Z) or with a space.
        let parts = String(text.compactMap { $0 == "Z" ? nil : $0 == "T" ? " " : $0 }).split(separator: " ")
        let date = parts.first.map { $0.split(separator: "-").compactMap { Int64($0) } } ?? []
        let time = parts.count > 1 ? parts[1].split(separator: ":") : []
        // Each part within its calendar range, so the sum below cannot overflow.
        guard date.count == 3, time.count <= 3, (0...9999).contains(date[0]), (1...12).contains(date[1]),
            (1...31).contains(date[2])
        else { throw notATime }
        var micros = TimeFormat.days(year: date[0], month: date[1], day: date[2]) * 86_400_000_000
        let units: [Int64] = [3_600_000_000, 60_000_000]
        for (index, part) in time.enumerated() {
            if index < 2 {
                guard let value = Int64(part), (0..<(index == 0 ? 24 : 60)).contains(value) else { throw notATime }
                micros += value * units[index]
            } else {
                guard let seconds = Double(part), seconds >= 0, seconds < 61 else { throw notATime }
                micros += Int64((seconds * 1_000_000).rounded())
            }
        }
        return .absolute(micros)
    }

    var isEmpty: Bool {
        types == nil && addresses.isEmpty && uuids.isEmpty && handles.isEmpty && since == nil && until == nil
    }

    /// Sees every event (to learn connection addresses) and says whether it passes.
    mutating func accepts(_ event: Event) -> Bool {
        if firstTimestamp == nil { firstTimestamp = event.timestamp }
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

    static func bit(_ type: EventType) -> UInt32 { 1 << UInt32(type.ordinal) }

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

