/// Protocol/Service Multiplexers: what a dynamic channel carries (Bluetooth Assigned Numbers, §5.3
/// "Protocol and Service Multiplexer"; LE SPSMs share the fixed values below 0x0080).
public enum L2CAPPSM {
    public static let sdp: UInt16 = 0x0001
    public static let rfcomm: UInt16 = 0x0003
    /// ATT over a BR/EDR channel (Core v5.4, Vol 3, Part F, §3.2.11).
    public static let att: UInt16 = 0x001F
    public static let ipsp: UInt16 = 0x0023
    public static let ots: UInt16 = 0x0025
    /// Enhanced ATT, on enhanced credit-based channels (LE or BR/EDR).
    public static let eatt: UInt16 = 0x0027

    /// The name written as `psm_name`: the assigned one, or "dynamic" for the ranges a device
    /// allocates itself (LE 0x0080–0x00FF, BR/EDR from 0x1001); nil for an unassigned value.
    public static func name(_ psm: UInt16) -> StaticString? {
        switch psm {
        case 0x0001: "sdp"
        case 0x0003: "rfcomm"
        case 0x0005: "tcs_bin"
        case 0x0007: "tcs_bin_cordless"
        case 0x000F: "bnep"
        case 0x0011: "hid_control"
        case 0x0013: "hid_interrupt"
        case 0x0015: "upnp"
        case 0x0017: "avctp"
        case 0x0019: "avdtp"
        case 0x001B: "avctp_browsing"
        case 0x001D: "udi_c_plane"
        case 0x001F: "att"
        case 0x0021: "3dsp"
        case 0x0023: "ipsp"
        case 0x0025: "ots"
        case 0x0027: "eatt"
        case 0x0080...0x00FF, 0x1001...0xFFFF: "dynamic"
        default: nil
        }
    }
}
