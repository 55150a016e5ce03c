/// An HCI command (Core v6.0, Vol 4, Part E, §7.1–§7.8): its opcode, the specification's name, and
/// the layouts of its parameters and of the return parameters its Command Complete event carries.
/// A nil layout is shown as bytes.
public struct HCICommand: Sendable {
    public let opcode: UInt16
    public let name: StaticString
    public let parameters: [HCIField]?
    public let returns: [HCIField]?

    init(_ opcode: UInt16, _ name: StaticString, _ parameters: [HCIField]? = nil, returns: [HCIField]? = nil) {
        self.opcode = opcode
        self.name = name
        self.parameters = parameters
        self.returns = returns
    }

    /// OGF (the opcode's top 6 bits) and OCF.
    public var group: UInt16 { opcode >> 10 }
    public var command: UInt16 { opcode & 0x03FF }
}

/// Every command of the Core Specification, one table per OGF (`HCICommands+*.swift`), looked up by
/// binary search. Vendor-specific commands (OGF 0x3F) are not in it: their meaning is the vendor's.
public enum HCICommands {
    public static let vendorGroup: UInt16 = 0x3F

    /// The whole table, sorted by opcode.
    public static let all: [HCICommand] =
        (linkControl + linkPolicy + controllerAndBaseband + informational + statusParameters + testing + lowEnergy)
        .sorted { $0.opcode < $1.opcode }

    public static func command(_ opcode: UInt16) -> HCICommand? {
        var low = 0
        var high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].opcode < opcode { low = middle + 1 } else { high = middle }
        }
        return low < all.count && all[low].opcode == opcode ? all[low] : nil
    }
}

/// Parameters many commands and events share.
extension HCIField {
    static let status = HCIField("Status", "status", .status)
    static let handle = HCIField("Handle", "handle", .handle)
    static let address = HCIField("Address", "bd_addr", .address)
    static let reason = HCIField("Reason", "reason", .errorCode)
    static let classOfDevice = HCIField("Class", "class_of_device", .hex(3))
    static let clockOffset = HCIField("Clock offset", "clock_offset", .hex(2))
    static let pageScanRepetitionMode = HCIField(
        "Page scan repetition mode", "page_scan_repetition_mode", .named(1, HCIValues.pageScanRepetitionMode))
    static let linkKey = HCIField("Link key", "link_key", .bytes(16))
    static let lmpFeatures = HCIField("Features", "lmp_features", .bytes(8))
    static let leFeatures = HCIField("Features", "le_features", .bytes(8))
    static let advertisingHandle = HCIField("Handle", "advertising_handle", .unsigned(1))
    static let peerAddressType = HCIField("Peer address type", "peer_address_type", .named(1, HCIValues.addressType))
    static let peerAddress = HCIField("Peer address", "peer_address", .address)
    static let ownAddressType = HCIField("Own address type", "own_address_type", .named(1, HCIValues.ownAddressType))
    static let role = HCIField("Role", "role", .named(1, HCIValues.role))

    static func enable(_ key: StaticString = "enable") -> HCIField {
        HCIField("Enable", key, .named(1, HCIValues.disabledEnabled))
    }

    /// Connection interval min and max, latency and supervision timeout, as LE connections ask for them.
    static let connectionParameters: [HCIField] = [
        HCIField("Min connection interval", "connection_interval_min", .duration(2, micros: 1250)),
        HCIField("Max connection interval", "connection_interval_max", .duration(2, micros: 1250)),
        HCIField("Connection latency", "max_latency", .unsigned(2)),
        HCIField("Supervision timeout", "supervision_timeout", .duration(2, micros: 10_000)),
    ]
    static let connectionEventLength: [HCIField] = [
        HCIField("Min connection length", "min_ce_length", .duration(2, micros: 625)),
        HCIField("Max connection length", "max_ce_length", .duration(2, micros: 625)),
    ]
}

/// Return parameters many commands share.
enum HCIReturns {
    static let status: [HCIField] = [.status]
    static let statusHandle: [HCIField] = [.status, .handle]
    static let statusAddress: [HCIField] = [.status, .address]
}
