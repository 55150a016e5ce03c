import BluetoothPackets
import BluetoothTracking

/// What the first pass learns from the tracker's events: which attribute handles hold blanked
/// values or Device Names, and how the parts of a long Device Name are to be rewritten.
///
/// A handle is known by the connection's peer (nil when the capture started mid-connection), the
/// side whose server holds it, and its number: GATT handles stay put for a device, so a value
/// read before its discovery is caught as well as one read after.
struct LearnedFacts {
    struct HandleKey: Hashable {
        var peer: UInt64?
        var localServer: Bool
        var handle: UInt16
    }

    private(set) var rules: [HandleKey: ValueRule] = [:]
    /// For each part of a long Device Name: the frame of the request it answered → its replacement.
    private(set) var namePlans: [Int: [UInt8]] = [:]
    private var blankedTypes: Set<BluetoothUUID> = []
    private var names = false

    private struct LongValue: Hashable {
        var adapter: UInt16
        var connection: UInt16
        var localServer: Bool
        var handle: UInt16
    }
    private var parts: [LongValue: [(requestFrame: Int, offset: Int, count: Int)]] = [:]

    static let deviceName = BluetoothUUID(0x2A00)

    init(options: ScrubOptions = ScrubOptions()) {
        blankedTypes = options.values
        names = options.names
    }

    func rule(peer: BluetoothAddress?, localServer: Bool, handle: UInt16) -> ValueRule? {
        guard !rules.isEmpty else { return nil }
        return rules[HandleKey(peer: peer?.value, localServer: localServer, handle: handle)]
    }

    /// Read By Type asks for values by their type: the type alone decides.
    func rule(type: BluetoothUUID) -> ValueRule? {
        if blankedTypes.contains(type) { return .blank }
        return names && type == Self.deviceName ? .name : nil
    }

    /// Learns from one event; Device Names found are numbered in `pseudonyms`.
    mutating func learn(_ event: Event, _ pseudonyms: inout NamePseudonyms) {
        guard case .att(let att) = event.body, let handle = att.handle, let uuid = att.attribute?.uuid else { return }
        let key = HandleKey(peer: att.peer?.value, localServer: att.localServer, handle: handle)
        if blankedTypes.contains(uuid) {
            rules[key] = .blank
            return
        }
        guard names, uuid == Self.deviceName, let value = att.value else { return }
        if rules[key] == nil { rules[key] = .name }
        let long = LongValue(adapter: event.adapter, connection: att.connection, localServer: att.localServer, handle: handle)
        switch att.kind {
        case .pdu where att.partial:
            if let frame = att.requestFrame, parts[long, default: []].count < 64 {
                parts[long, default: []].append((frame, Int(att.offset ?? 0), value.count))
            }
        case .pdu:
            pseudonyms.note(value)
        case .readLong, .writeLong:
            guard let number = pseudonyms.note(value) else { break }
            let whole = NamePseudonyms.fitted(number, length: value.count)
            for part in parts.removeValue(forKey: long) ?? [] where part.offset < whole.count {
                namePlans[part.requestFrame] = Array(whole[part.offset..<min(part.offset + part.count, whole.count)])
            }
        }
    }
}
