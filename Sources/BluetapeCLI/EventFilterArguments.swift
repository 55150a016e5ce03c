import Bluetape
import BluetoothPackets
import BluetoothTracking

/// The event filters `events`, `decode`, `replay` and others share, read from the command line.
extension EventFilter {
    static let options: [OptionSpec] = [
        .value("type", "TYPES", "Only these event types (comma-separated): adv, connect, disconnect, att, mtu, smp, …"),
        .value("addr", "ADDRESS", "Only events of this device (repeatable)."),
        .value("uuid", "UUID", "Only ATT events on this characteristic or service, and adverts carrying it."),
        .value("handle", "HANDLE", "Only ATT events on this handle (decimal or 0x hex)."),
        .value(
            "since", "TIME",
            "Only events from TIME: seconds from the capture's first record, or an ISO time (UTC unless it gives an offset)."),
        .value("until", "TIME", "Only events up to TIME."),
    ]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init()
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
        since = try arguments.value("since").map { text throws(UsageError) in try Self.time(text) }
        until = try arguments.value("until").map { text throws(UsageError) in try Self.time(text) }
        if case .absolute(let from)? = since, case .absolute(let to)? = until, from > to {
            throw UsageError("--since is later than --until: nothing would be kept")
        }
        if case .relative(let from)? = since, case .relative(let to)? = until, from > to {
            throw UsageError("--since is later than --until: nothing would be kept")
        }
    }

    private static func time(_ text: String) throws(UsageError) -> TimeBound {
        do {
            return try parseTime(text)
        } catch {
            throw UsageError(error.message)
        }
    }
}
