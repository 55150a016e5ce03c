/// A datalink: btsnoop's datalink field, or a pcap/pcapng LINKTYPE_ value.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    // btsnoop datalinks
    public static let btsnoopHCI = LinkType(rawValue: 1001)
    public static let btsnoopUART = LinkType(rawValue: 1002)
    public static let btsnoopBCSP = LinkType(rawValue: 1003)
    public static let btsnoop3Wire = LinkType(rawValue: 1004)
    public static let btsnoopMonitor = LinkType(rawValue: 2001)
    public static let btsnoopSimulator = LinkType(rawValue: 2002)
    // pcap link types
    public static let ppi = LinkType(rawValue: 192)
    public static let h4 = LinkType(rawValue: 187)
    public static let h4WithPHDR = LinkType(rawValue: 201)
    public static let leLL = LinkType(rawValue: 251)
    public static let linuxMonitor = LinkType(rawValue: 254)
    public static let leLLWithPHDR = LinkType(rawValue: 256)
    public static let nordicBLE = LinkType(rawValue: 272)
    /// LINKTYPE_USER0, which some sniffers (Ubertooth, crackle) use for raw LE link-layer packets.
    public static let user0 = LinkType(rawValue: 147)
    /// Apple PacketLogger has no datalink field; this value stands for its framing.
    public static let packetLogger = LinkType(rawValue: 0xFFFF_0001)

    public var name: String {
        switch self {
        case .btsnoopHCI: "HCI (unencapsulated)"
        case .btsnoopUART: "HCI UART (H4)"
        case .btsnoopBCSP: "HCI BCSP"
        case .btsnoop3Wire: "HCI Three-wire (H5)"
        case .btsnoopMonitor: "Linux monitor"
        case .btsnoopSimulator: "BlueZ simulator"
        case .ppi: "PPI"
        case .h4: "BLUETOOTH_HCI_H4"
        case .h4WithPHDR: "BLUETOOTH_HCI_H4_WITH_PHDR"
        case .leLL: "BLUETOOTH_LE_LL"
        case .linuxMonitor: "BLUETOOTH_LINUX_MONITOR"
        case .leLLWithPHDR: "BLUETOOTH_LE_LL_WITH_PHDR"
        case .nordicBLE: "NORDIC_BLE (nRF Sniffer)"
        case .user0: "USER0 (raw LE link layer)"
        case .packetLogger: "PacketLogger"
        default: "unknown datalink \(rawValue)"
        }
    }

    public var description: String { name }

    /// True for the Linux monitor framings (btsnoop 2001, pcap 254), whose records carry an opcode.
    public var isMonitor: Bool { self == .btsnoopMonitor || self == .linuxMonitor }

    /// True for air-sniffer framings whose payload is a link-layer packet.
    public var isLinkLayer: Bool {
        self == .leLL || self == .leLLWithPHDR || self == .nordicBLE || self == .user0
    }
}

/// The container format of a capture file, found from its first bytes.
public enum CaptureFormat: String, Sendable, Hashable {
    case btsnoop
    case packetLogger = "pklg"
    case pcap
    case pcapng
    /// Android's btsnooz ring, from a bug report's BTSNOOP_LOG_SUMMARY section.
    case btsnooz
    /// A btsnoop file header followed by btsnooz version-2 records, as some phones write
    /// `btsnooz_hci.log`: no clock, times count from the first record.
    case btsnoopSnooz = "btsnoop+snooz"
}
