/// An HCI event or LE Meta subevent (Core v6.0, Vol 4, Part E, §7.7): its code, the specification's
/// name and the layout of its parameters (nil: shown as bytes). Events the tracker turns into their
/// own event types (connections, advertising reports, encryption, …) need no layout here.
public struct HCIEventInfo: Sendable {
    public let code: UInt8
    public let name: StaticString
    public let parameters: [HCIField]?

    init(_ code: UInt8, _ name: StaticString, _ parameters: [HCIField]? = nil) {
        self.code = code
        self.name = name
        self.parameters = parameters
    }
}

/// The event and LE subevent tables, by code. The AMP events were removed in v5.3 but old captures
/// still carry them.
public enum HCIEventTable {
    public static func event(_ code: UInt8) -> HCIEventInfo? { events.first { $0.code == code } }
    public static func leSubevent(_ code: UInt8) -> HCIEventInfo? { leSubevents.first { $0.code == code } }

    public static let events: [HCIEventInfo] = [
        HCIEventInfo(0x01, "Inquiry Complete", [.status]),
        HCIEventInfo(
            0x02, "Inquiry Result",
            [
                HCIField(
                    "Num responses", "responses",
                    .list([
                        .address, .pageScanRepetitionMode, HCIField("Reserved", "reserved", .hex(2)), .classOfDevice,
                        .clockOffset,
                    ]))
            ]),
        HCIEventInfo(
            0x03, "Connection Complete",
            [
                .status, HCIField("Handle", "handle", .handle, onlyOnSuccess: true), .address,
                HCIField("Link type", "link_type", .named(1, HCIValues.linkType)),
                HCIField("Encryption", "encryption_enabled", .named(1, HCIValues.encryptionEnabled), onlyOnSuccess: true),
            ]),
        HCIEventInfo(
            0x04, "Connection Request",
            [.address, .classOfDevice, HCIField("Link type", "link_type", .named(1, HCIValues.linkType))]),
        HCIEventInfo(0x05, "Disconnection Complete", [.status, .handle, .reason]),
        HCIEventInfo(0x06, "Authentication Complete", [.status, .handle]),
        HCIEventInfo(0x07, "Remote Name Request Complete", [.status, .address, HCIField("Name", "remote_name", .text(248))]),
        HCIEventInfo(
            0x08, "Encryption Change [v1]",
            [.status, .handle, HCIField("Encryption", "encryption_enabled", .named(1, HCIValues.encryptionEnabled))]),
        HCIEventInfo(0x09, "Change Connection Link Key Complete", [.status, .handle]),
        HCIEventInfo(0x0A, "Link Key Type Changed"),
        HCIEventInfo(0x0B, "Read Remote Supported Features Complete", [.status, .handle, .lmpFeatures]),
        HCIEventInfo(
            0x0C, "Read Remote Version Information Complete",
            [
                .status, .handle, HCIField("LMP version", "version", .named(1, HCIValues.coreVersion)),
                HCIField("Manufacturer", "company_identifier", .company), HCIField("Subversion", "subversion", .hex(2)),
            ]),
        HCIEventInfo(0x0D, "QoS Setup Complete"),
        HCIEventInfo(0x0E, "Command Complete"),
        HCIEventInfo(0x0F, "Command Status"),
        HCIEventInfo(0x10, "Hardware Error", [HCIField("Code", "hardware_code", .hex(1))]),
        HCIEventInfo(0x11, "Flush Occurred", [.handle]),
        HCIEventInfo(0x12, "Role Change", [.status, .address, HCIField("Role", "new_role", .named(1, HCIValues.role))]),
        HCIEventInfo(0x13, "Number Of Completed Packets", completedPackets),
        HCIEventInfo(
            0x14, "Mode Change",
            [
                .status, .handle, HCIField("Mode", "current_mode", .named(1, HCIValues.currentMode)),
                HCIField("Interval", "interval", .duration(2, micros: 625)),
            ]),
        HCIEventInfo(0x15, "Return Link Keys"),
        HCIEventInfo(0x16, "PIN Code Request", [.address]),
        HCIEventInfo(0x17, "Link Key Request", [.address]),
        HCIEventInfo(
            0x18, "Link Key Notification", [.address, .linkKey, HCIField("Key type", "key_type", .named(1, HCIValues.keyType))]),
        HCIEventInfo(0x19, "Loopback Command"),
        HCIEventInfo(0x1A, "Data Buffer Overflow", [HCIField("Link type", "link_type", .named(1, HCIValues.linkType))]),
        HCIEventInfo(0x1B, "Max Slots Change", [.handle, HCIField("Max slots", "lmp_max_slots", .unsigned(1))]),
        HCIEventInfo(0x1C, "Read Clock Offset Complete", [.status, .handle, .clockOffset]),
        HCIEventInfo(0x1D, "Connection Packet Type Changed", [.status, .handle, HCIField("Packet type", "packet_type", .hex(2))]),
        HCIEventInfo(0x1E, "QoS Violation", [.handle]),
        HCIEventInfo(0x1F, "Page Scan Mode Change"),
        HCIEventInfo(0x20, "Page Scan Repetition Mode Change", [.address, .pageScanRepetitionMode]),
        HCIEventInfo(0x21, "Flow Specification Complete"),
        HCIEventInfo(
            0x22, "Inquiry Result with RSSI",
            [
                HCIField(
                    "Num responses", "responses",
                    .list([
                        .address, .pageScanRepetitionMode, HCIField("Reserved", "reserved", .hex(1)), .classOfDevice,
                        .clockOffset, HCIField("RSSI", "rssi", .dbm),
                    ]))
            ]),
        HCIEventInfo(
            0x23, "Read Remote Extended Features Complete",
            [
                .status, .handle, HCIField("Page", "page_number", .unsigned(1)),
                HCIField("Max page", "max_page_number", .unsigned(1)), HCIField("Features", "extended_lmp_features", .bytes(8)),
            ]),
        HCIEventInfo(
            0x2C, "Synchronous Connection Complete",
            [
                .status, HCIField("Handle", "handle", .handle, onlyOnSuccess: true), .address,
                HCIField("Link type", "link_type", .named(1, HCIValues.linkType)),
                HCIField("Transmission interval", "transmission_interval", .duration(1, micros: 625)),
                HCIField("Retransmission window", "retransmission_window", .duration(1, micros: 625)),
                HCIField("RX packet length", "rx_packet_length", .unsigned(2)),
                HCIField("TX packet length", "tx_packet_length", .unsigned(2)),
                HCIField("Air mode", "air_mode", .named(1, HCIValues.airMode)),
            ]),
        HCIEventInfo(0x2D, "Synchronous Connection Changed"),
        HCIEventInfo(
            0x2E, "Sniff Subrating",
            [
                .status, .handle, HCIField("Max transmit latency", "max_tx_latency", .duration(2, micros: 625)),
                HCIField("Max receive latency", "max_rx_latency", .duration(2, micros: 625)),
                HCIField("Min remote timeout", "min_remote_timeout", .duration(2, micros: 625)),
                HCIField("Min local timeout", "min_local_timeout", .duration(2, micros: 625)),
            ]),
        HCIEventInfo(
            0x2F, "Extended Inquiry Result",
            [
                HCIField("Num responses", "num_responses", .unsigned(1)), .address, .pageScanRepetitionMode,
                HCIField("Reserved", "reserved", .hex(1)), .classOfDevice, .clockOffset, HCIField("RSSI", "rssi", .dbm),
                HCIField("Data", "extended_inquiry_response", .eir(240)),
            ]),
        HCIEventInfo(0x30, "Encryption Key Refresh Complete", [.status, .handle]),
        HCIEventInfo(0x31, "IO Capability Request", [.address]),
        HCIEventInfo(
            0x32, "IO Capability Response",
            [
                .address, HCIField("IO capability", "io_capability", .named(1, HCIValues.ioCapability)),
                HCIField("OOB data", "oob_data_present", .hex(1)),
                HCIField("Authentication", "authentication_requirements", .named(1, HCIValues.authenticationRequirements)),
            ]),
        HCIEventInfo(0x33, "User Confirmation Request", [.address, HCIField("Passkey", "numeric_value", .unsigned(4))]),
        HCIEventInfo(0x34, "User Passkey Request", [.address]),
        HCIEventInfo(0x35, "Remote OOB Data Request", [.address]),
        HCIEventInfo(0x36, "Simple Pairing Complete", [.status, .address]),
        HCIEventInfo(
            0x38, "Link Supervision Timeout Changed",
            [.handle, HCIField("Timeout", "link_supervision_timeout", .duration(2, micros: 625))]),
        HCIEventInfo(0x39, "Enhanced Flush Complete", [.handle]),
        HCIEventInfo(0x3B, "User Passkey Notification", [.address, HCIField("Passkey", "passkey", .unsigned(4))]),
        HCIEventInfo(0x3C, "Keypress Notification", [.address, HCIField("Notification type", "notification_type", .hex(1))]),
        HCIEventInfo(
            0x3D, "Remote Host Supported Features Notification",
            [.address, HCIField("Features", "host_supported_features", .bytes(8))]),
        HCIEventInfo(0x3E, "LE Meta"),
        HCIEventInfo(0x40, "Physical Link Complete"),
        HCIEventInfo(0x41, "Channel Selected"),
        HCIEventInfo(0x42, "Disconnection Physical Link Complete"),
        HCIEventInfo(0x43, "Physical Link Loss Early Warning"),
        HCIEventInfo(0x44, "Physical Link Recovery"),
        HCIEventInfo(0x45, "Logical Link Complete"),
        HCIEventInfo(0x46, "Disconnection Logical Link Complete"),
        HCIEventInfo(0x47, "Flow Spec Modify Complete"),
        HCIEventInfo(0x48, "Number Of Completed Data Blocks"),
        HCIEventInfo(0x49, "AMP Start Test"),
        HCIEventInfo(0x4A, "AMP Test End"),
        HCIEventInfo(0x4B, "AMP Receiver Report"),
        HCIEventInfo(0x4C, "Short Range Mode Change Complete"),
        HCIEventInfo(0x4D, "AMP Status Change"),
        HCIEventInfo(0x4E, "Triggered Clock Capture"),
        HCIEventInfo(0x4F, "Synchronization Train Complete"),
        HCIEventInfo(0x50, "Synchronization Train Received"),
        HCIEventInfo(0x51, "Connectionless Peripheral Broadcast Receive"),
        HCIEventInfo(0x52, "Connectionless Peripheral Broadcast Timeout"),
        HCIEventInfo(0x53, "Truncated Page Complete"),
        HCIEventInfo(0x54, "Peripheral Page Response Timeout"),
        HCIEventInfo(0x55, "Connectionless Peripheral Broadcast Channel Map Change"),
        HCIEventInfo(0x56, "Inquiry Response Notification"),
        HCIEventInfo(0x57, "Authenticated Payload Timeout Expired", [.handle]),
        HCIEventInfo(0x58, "SAM Status Change"),
        HCIEventInfo(
            0x59, "Encryption Change [v2]",
            [
                .status, .handle, HCIField("Encryption", "encryption_enabled", .named(1, HCIValues.encryptionEnabled)),
                HCIField("Key size", "encryption_key_size", .unsigned(1)),
            ]),
        HCIEventInfo(0xFF, "Vendor"),
    ]

    /// LE Meta subevents (§7.7.65).
    public static let leSubevents: [HCIEventInfo] = [
        HCIEventInfo(0x01, "LE Connection Complete"),
        HCIEventInfo(0x02, "LE Advertising Report"),
        HCIEventInfo(0x03, "LE Connection Update Complete"),
        HCIEventInfo(0x04, "LE Read Remote Features Page 0 Complete", [.status, .handle, .leFeatures]),
        HCIEventInfo(
            0x05, "LE Long Term Key Request",
            [
                .handle, HCIField("Random number", "random_number", .bytes(8)),
                HCIField("Encrypted diversifier", "encrypted_diversifier", .hex(2)),
            ]),
        HCIEventInfo(0x06, "LE Remote Connection Parameter Request", [.handle] + HCIField.connectionParameters),
        HCIEventInfo(0x07, "LE Data Length Change"),
        HCIEventInfo(
            0x08, "LE Read Local P-256 Public Key Complete", [.status, HCIField("Public key", "key", .bytes(64))]),
        HCIEventInfo(0x09, "LE Generate DHKey Complete", [.status, HCIField("DHKey", "dh_key", .bytes(32))]),
        HCIEventInfo(0x0A, "LE Enhanced Connection Complete [v1]"),
        HCIEventInfo(0x0B, "LE Directed Advertising Report"),
        HCIEventInfo(0x0C, "LE PHY Update Complete"),
        HCIEventInfo(0x0D, "LE Extended Advertising Report"),
        HCIEventInfo(0x0E, "LE Periodic Advertising Sync Established [v1]"),
        HCIEventInfo(0x0F, "LE Periodic Advertising Report [v1]"),
        HCIEventInfo(0x10, "LE Periodic Advertising Sync Lost", [HCIField("Sync handle", "sync_handle", .unsigned(2))]),
        HCIEventInfo(0x11, "LE Scan Timeout", []),
        HCIEventInfo(
            0x12, "LE Advertising Set Terminated",
            [
                .status, .advertisingHandle, .handle,
                HCIField("Num completed ext adv events", "num_completed_extended_advertising_events", .unsigned(1)),
            ]),
        HCIEventInfo(
            0x13, "LE Scan Request Received",
            [
                .advertisingHandle, HCIField("Scanner address type", "scanner_address_type", .named(1, HCIValues.addressType)),
                HCIField("Scanner address", "scanner_address", .address),
            ]),
        HCIEventInfo(
            0x14, "LE Channel Selection Algorithm",
            [.handle, HCIField("Algorithm", "channel_selection_algorithm", .named(1, HCIValues.channelSelectionAlgorithm))]),
        HCIEventInfo(0x15, "LE Connectionless IQ Report"),
        HCIEventInfo(0x16, "LE Connection IQ Report"),
        HCIEventInfo(0x17, "LE CTE Request Failed", [.status, .handle]),
        HCIEventInfo(0x18, "LE Periodic Advertising Sync Transfer Received [v1]"),
        HCIEventInfo(0x19, "LE CIS Established [v1]"),
        HCIEventInfo(0x1A, "LE CIS Request"),
        HCIEventInfo(0x1B, "LE Create BIG Complete"),
        HCIEventInfo(0x1C, "LE Terminate BIG Complete"),
        HCIEventInfo(0x1D, "LE BIG Sync Established"),
        HCIEventInfo(0x1E, "LE BIG Sync Lost"),
        HCIEventInfo(0x1F, "LE Request Peer SCA Complete"),
        HCIEventInfo(0x20, "LE Path Loss Threshold"),
        HCIEventInfo(0x21, "LE Transmit Power Reporting"),
        HCIEventInfo(0x22, "LE BIGInfo Advertising Report"),
        HCIEventInfo(0x23, "LE Subrate Change"),
        HCIEventInfo(0x24, "LE Periodic Advertising Sync Established [v2]"),
        HCIEventInfo(0x25, "LE Periodic Advertising Report [v2]"),
        HCIEventInfo(0x26, "LE Periodic Advertising Sync Transfer Received [v2]"),
        HCIEventInfo(0x27, "LE Periodic Advertising Subevent Data Request"),
        HCIEventInfo(0x28, "LE Periodic Advertising Response Report"),
        HCIEventInfo(0x29, "LE Enhanced Connection Complete [v2]"),
        HCIEventInfo(0x2A, "LE CIS Established [v2]"),
        HCIEventInfo(0x2B, "LE Read All Remote Features Complete"),
        HCIEventInfo(0x2C, "LE CS Read Remote Supported Capabilities Complete"),
        HCIEventInfo(0x2D, "LE CS Read Remote FAE Table Complete"),
        HCIEventInfo(0x2E, "LE CS Security Enable Complete"),
        HCIEventInfo(0x2F, "LE CS Config Complete"),
        HCIEventInfo(0x30, "LE CS Procedure Enable Complete"),
        HCIEventInfo(0x31, "LE CS Subevent Result"),
        HCIEventInfo(0x32, "LE CS Subevent Result Continue"),
        HCIEventInfo(0x33, "LE CS Test End Complete"),
        HCIEventInfo(0x34, "LE Monitored Advertisers Report"),
        HCIEventInfo(0x35, "LE Frame Space Update Complete"),
    ]

    /// Number Of Completed Packets (§7.7.19), and the host's own count (§7.3.40): handle and count,
    /// interleaved per handle as controllers send them.
    static let completedPackets: [HCIField] = [
        HCIField(
            "Num handles", "handles",
            .list([.handle, HCIField("Count", "num_completed_packets", .unsigned(2))]))
    ]
}

/// Status and error codes (Core v6.0, Vol 1, Part F, §1.3), with the specification's names.
public enum HCIErrorCodes {
    public static func name(_ code: UInt8) -> StaticString? { table.first { $0.code == code }?.name }

    public static let table: [HCICodeName] = [
        HCICodeName(0x00, "Success"),
        HCICodeName(0x01, "Unknown HCI Command"),
        HCICodeName(0x02, "Unknown Connection Identifier"),
        HCICodeName(0x03, "Hardware Failure"),
        HCICodeName(0x04, "Page Timeout"),
        HCICodeName(0x05, "Authentication Failure"),
        HCICodeName(0x06, "PIN or Key Missing"),
        HCICodeName(0x07, "Memory Capacity Exceeded"),
        HCICodeName(0x08, "Connection Timeout"),
        HCICodeName(0x09, "Connection Limit Exceeded"),
        HCICodeName(0x0A, "Synchronous Connection Limit To A Device Exceeded"),
        HCICodeName(0x0B, "Connection Already Exists"),
        HCICodeName(0x0C, "Command Disallowed"),
        HCICodeName(0x0D, "Connection Rejected due to Limited Resources"),
        HCICodeName(0x0E, "Connection Rejected Due To Security Reasons"),
        HCICodeName(0x0F, "Connection Rejected due to Unacceptable BD_ADDR"),
        HCICodeName(0x10, "Connection Accept Timeout Exceeded"),
        HCICodeName(0x11, "Unsupported Feature or Parameter Value"),
        HCICodeName(0x12, "Invalid HCI Command Parameters"),
        HCICodeName(0x13, "Remote User Terminated Connection"),
        HCICodeName(0x14, "Remote Device Terminated Connection due to Low Resources"),
        HCICodeName(0x15, "Remote Device Terminated Connection due to Power Off"),
        HCICodeName(0x16, "Connection Terminated By Local Host"),
        HCICodeName(0x17, "Repeated Attempts"),
        HCICodeName(0x18, "Pairing Not Allowed"),
        HCICodeName(0x19, "Unknown LMP PDU"),
        HCICodeName(0x1A, "Unsupported Remote Feature"),
        HCICodeName(0x1B, "SCO Offset Rejected"),
        HCICodeName(0x1C, "SCO Interval Rejected"),
        HCICodeName(0x1D, "SCO Air Mode Rejected"),
        HCICodeName(0x1E, "Invalid LMP Parameters / Invalid LL Parameters"),
        HCICodeName(0x1F, "Unspecified Error"),
        HCICodeName(0x20, "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"),
        HCICodeName(0x21, "Role Change Not Allowed"),
        HCICodeName(0x22, "LMP Response Timeout / LL Response Timeout"),
        HCICodeName(0x23, "LMP Error Transaction Collision / LL Procedure Collision"),
        HCICodeName(0x24, "LMP PDU Not Allowed"),
        HCICodeName(0x25, "Encryption Mode Not Acceptable"),
        HCICodeName(0x26, "Link Key cannot be Changed"),
        HCICodeName(0x27, "Requested QoS Not Supported"),
        HCICodeName(0x28, "Instant Passed"),
        HCICodeName(0x29, "Pairing With Unit Key Not Supported"),
        HCICodeName(0x2A, "Different Transaction Collision"),
        HCICodeName(0x2C, "QoS Unacceptable Parameter"),
        HCICodeName(0x2D, "QoS Rejected"),
        HCICodeName(0x2E, "Channel Classification Not Supported"),
        HCICodeName(0x2F, "Insufficient Security"),
        HCICodeName(0x30, "Parameter Out Of Mandatory Range"),
        HCICodeName(0x32, "Role Switch Pending"),
        HCICodeName(0x34, "Reserved Slot Violation"),
        HCICodeName(0x35, "Role Switch Failed"),
        HCICodeName(0x36, "Extended Inquiry Response Too Large"),
        HCICodeName(0x37, "Secure Simple Pairing Not Supported By Host"),
        HCICodeName(0x38, "Host Busy - Pairing"),
        HCICodeName(0x39, "Connection Rejected due to No Suitable Channel Found"),
        HCICodeName(0x3A, "Controller Busy"),
        HCICodeName(0x3B, "Unacceptable Connection Parameters"),
        HCICodeName(0x3C, "Advertising Timeout"),
        HCICodeName(0x3D, "Connection Terminated due to MIC Failure"),
        HCICodeName(0x3E, "Connection Failed to be Established / Synchronization Timeout"),
        HCICodeName(0x3F, "MAC Connection Failed"),
        HCICodeName(0x40, "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"),
        HCICodeName(0x41, "Type0 Submap Not Defined"),
        HCICodeName(0x42, "Unknown Advertising Identifier"),
        HCICodeName(0x43, "Limit Reached"),
        HCICodeName(0x44, "Operation Cancelled by Host"),
        HCICodeName(0x45, "Packet Too Long"),
        HCICodeName(0x46, "Too Late"),
        HCICodeName(0x47, "Too Early"),
        HCICodeName(0x48, "Insufficient Channels"),
    ]
}
