import BluetoothTracking
import CaptureFiles

/// One adapter (controller index) of a capture: its HCI traffic and how fast it answered.
public struct AdapterStatistics: Sendable {
    /// What an HCI event is counted under: its code, and for LE meta events the subevent.
    public struct EventCode: Sendable, Hashable, Comparable {
        public var code: UInt8
        public var subevent: UInt8?

        public static func < (a: EventCode, b: EventCode) -> Bool {
            (a.code, a.subevent ?? 0) < (b.code, b.subevent ?? 0)
        }
    }

    public let adapter: UInt16
    /// HCI commands by opcode.
    public private(set) var commands: [UInt16: Int] = [:]
    /// HCI events that no other event type describes (Command Complete and Status, Number of
    /// Completed Packets, …) by code. Advertising reports, connection and disconnection events
    /// and the other events the tracker understands count under their event type in `eventTypes`.
    public private(set) var hciEvents: [EventCode: Int] = [:]
    /// Events of each type, indexed by `EventType.ordinal`.
    public private(set) var eventTypes = [Int](repeating: 0, count: EventType.allCases.count)
    /// Microseconds from a command to the Command Complete or Command Status that answers it.
    public private(set) var commandLatency = QuantileSketch(exactCapacity: 256)
    /// Commands answered with a non-zero status.
    public private(set) var failedCommands = 0

    /// The last command of each opcode still waiting for its answer.
    private var pending: [UInt16: Int64] = [:]

    init(adapter: UInt16) { self.adapter = adapter }

    mutating func add(_ event: Event) {
        eventTypes[event.type.ordinal] += 1
        guard case .hci(let packet) = event.body else { return }
        switch packet.kind {
        case .command:
            commands[packet.code, default: 0] += 1
            pending[packet.code] = event.timestamp
        case .event:
            hciEvents[EventCode(code: UInt8(truncatingIfNeeded: packet.code), subevent: packet.subevent), default: 0] += 1
            if let opcode = packet.commandOpcode {
                if let sent = pending.removeValue(forKey: opcode), event.timestamp >= sent {
                    commandLatency.add(Double(event.timestamp - sent))
                }
                if let status = packet.status, status != 0 { failedCommands += 1 }
            }
        default:
            break
        }
    }
}
