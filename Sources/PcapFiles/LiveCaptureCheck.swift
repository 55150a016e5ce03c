/// Why live capture cannot run here, said so that the user knows what to do; nil when it can.
/// Pure, so every message is tested whatever machine the tests run on.
public enum LiveCaptureCheck {
    public static let interface = "bluetooth-monitor"

    /// Before opening: the system, libpcap's interfaces, the adapters the kernel lists.
    public static func problem(isLinux: Bool, interfaces: [String], adapters: [String]) -> String? {
        guard isLinux else {
            return "live capture needs Linux: it reads the kernel's Bluetooth monitor through libpcap's "
                + "\(interface) interface. Elsewhere, record with the system's own tool (PacketLogger on "
                + "macOS and iOS, the HCI snoop log on Android) and read the file with bluetape."
        }
        guard interfaces.contains(interface) else {
            return "libpcap offers no \(interface) interface here (it was built without Bluetooth support); "
                + "it lists \(interfaces.isEmpty ? "no interfaces" : interfaces.joined(separator: ", "))"
        }
        guard !adapters.isEmpty else {
            return "no Bluetooth adapter: the system lists none (/sys/class/bluetooth), so there is nothing "
                + "to capture. Plug one in or load its driver, then check with 'btmgmt info' or 'hciconfig'."
        }
        return nil
    }

    /// When libpcap cannot activate the interface: `permissionDenied` for PCAP_ERROR_PERM_DENIED.
    public static func openProblem(permissionDenied: Bool, message: String) -> String {
        if permissionDenied || message.contains("Operation not permitted") || message.contains("Permission denied") {
            return "cannot open \(interface): permission denied. Live capture needs CAP_NET_RAW or root: "
                + "run it with sudo, or once: sudo setcap cap_net_raw+ep \"$(command -v bluetape)\""
        }
        if message.contains("Address family not supported") {
            return "cannot open \(interface): the kernel offers no Bluetooth sockets (the bluetooth module "
                + "is not loaded, or this container has no access to it)"
        }
        return "cannot open \(interface): \(message)"
    }
}

/// Why live capture could not start: the message to show, as is.
public struct LiveCaptureError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
