/// Link Control commands, OGF 0x01 (Core v6.0, Vol 4, Part E, §7.1), and Link Policy commands,
/// OGF 0x02 (§7.2). The AMP commands were removed in v5.3 but old captures still carry them.
extension HCICommands {
    static let linkControl: [HCICommand] = [
        HCICommand(
            0x0401, "Inquiry",
            [
                HCIField("Access code", "lap", .hex(3)), HCIField("Length", "inquiry_length", .duration(1, micros: 1_280_000)),
                HCIField("Num responses", "num_responses", .unsigned(1)),
            ]),
        HCICommand(0x0402, "Inquiry Cancel", [], returns: HCIReturns.status),
        HCICommand(0x0403, "Periodic Inquiry Mode"),
        HCICommand(0x0404, "Exit Periodic Inquiry Mode", [], returns: HCIReturns.status),
        HCICommand(
            0x0405, "Create Connection",
            [
                .address, HCIField("Packet type", "packet_type", .hex(2)), .pageScanRepetitionMode,
                HCIField("Reserved", "reserved", .hex(1)), .clockOffset,
                HCIField("Role switch", "allow_role_switch", .named(1, HCIValues.allowRoleSwitch)),
            ]),
        HCICommand(0x0406, "Disconnect", [.handle, .reason]),
        HCICommand(0x0407, "Add SCO Connection"),
        HCICommand(0x0408, "Create Connection Cancel", [.address], returns: HCIReturns.statusAddress),
        HCICommand(
            0x0409, "Accept Connection Request", [.address, HCIField("Role", "role", .named(1, HCIValues.acceptRole))]),
        HCICommand(0x040A, "Reject Connection Request", [.address, .reason]),
        HCICommand(0x040B, "Link Key Request Reply", [.address, .linkKey], returns: HCIReturns.statusAddress),
        HCICommand(0x040C, "Link Key Request Negative Reply", [.address], returns: HCIReturns.statusAddress),
        HCICommand(
            0x040D, "PIN Code Request Reply",
            [.address, HCIField("PIN length", "pin_code_length", .unsigned(1)), HCIField("PIN code", "pin_code", .bytes(16))],
            returns: HCIReturns.statusAddress),
        HCICommand(0x040E, "PIN Code Request Negative Reply", [.address], returns: HCIReturns.statusAddress),
        HCICommand(0x040F, "Change Connection Packet Type", [.handle, HCIField("Packet type", "packet_type", .hex(2))]),
        HCICommand(0x0411, "Authentication Requested", [.handle]),
        HCICommand(
            0x0413, "Set Connection Encryption",
            [.handle, HCIField("Encryption", "encryption_enable", .named(1, HCIValues.disabledEnabled))]),
        HCICommand(0x0415, "Change Connection Link Key", [.handle]),
        HCICommand(0x0417, "Link Key Selection"),
        HCICommand(
            0x0419, "Remote Name Request",
            [.address, .pageScanRepetitionMode, HCIField("Reserved", "reserved", .hex(1)), .clockOffset]),
        HCICommand(0x041A, "Remote Name Request Cancel", [.address], returns: HCIReturns.statusAddress),
        HCICommand(0x041B, "Read Remote Supported Features", [.handle]),
        HCICommand(0x041C, "Read Remote Extended Features", [.handle, HCIField("Page", "page_number", .unsigned(1))]),
        HCICommand(0x041D, "Read Remote Version Information", [.handle]),
        HCICommand(0x041F, "Read Clock Offset", [.handle]),
        HCICommand(0x0420, "Read LMP Handle"),
        HCICommand(0x0428, "Setup Synchronous Connection"),
        HCICommand(0x0429, "Accept Synchronous Connection Request"),
        HCICommand(0x042A, "Reject Synchronous Connection Request", [.address, .reason]),
        HCICommand(
            0x042B, "IO Capability Request Reply",
            [
                .address, HCIField("IO capability", "io_capability", .named(1, HCIValues.ioCapability)),
                HCIField("OOB data", "oob_data_present", .hex(1)),
                HCIField("Authentication", "authentication_requirements", .named(1, HCIValues.authenticationRequirements)),
            ], returns: HCIReturns.statusAddress),
        HCICommand(0x042C, "User Confirmation Request Reply", [.address], returns: HCIReturns.statusAddress),
        HCICommand(0x042D, "User Confirmation Request Negative Reply", [.address], returns: HCIReturns.statusAddress),
        HCICommand(
            0x042E, "User Passkey Request Reply", [.address, HCIField("Passkey", "numeric_value", .unsigned(4))],
            returns: HCIReturns.statusAddress),
        HCICommand(0x042F, "User Passkey Request Negative Reply", [.address], returns: HCIReturns.statusAddress),
        HCICommand(0x0430, "Remote OOB Data Request Reply"),
        HCICommand(0x0433, "Remote OOB Data Request Negative Reply", [.address], returns: HCIReturns.statusAddress),
        HCICommand(0x0434, "IO Capability Request Negative Reply", [.address, .reason], returns: HCIReturns.statusAddress),
        HCICommand(0x0435, "Create Physical Link"),
        HCICommand(0x0436, "Accept Physical Link"),
        HCICommand(0x0437, "Disconnect Physical Link"),
        HCICommand(0x0438, "Create Logical Link"),
        HCICommand(0x0439, "Accept Logical Link"),
        HCICommand(0x043A, "Disconnect Logical Link"),
        HCICommand(0x043B, "Logical Link Cancel"),
        HCICommand(0x043C, "Flow Spec Modify"),
        HCICommand(0x043D, "Enhanced Setup Synchronous Connection"),
        HCICommand(0x043E, "Enhanced Accept Synchronous Connection Request"),
        HCICommand(0x043F, "Truncated Page"),
        HCICommand(0x0440, "Truncated Page Cancel"),
        HCICommand(0x0441, "Set Connectionless Peripheral Broadcast"),
        HCICommand(0x0442, "Set Connectionless Peripheral Broadcast Receive"),
        HCICommand(0x0443, "Start Synchronization Train"),
        HCICommand(0x0444, "Receive Synchronization Train"),
        HCICommand(0x0445, "Remote OOB Extended Data Request Reply"),
    ]

    static let linkPolicy: [HCICommand] = [
        HCICommand(0x0801, "Hold Mode"),
        HCICommand(
            0x0803, "Sniff Mode",
            [
                .handle, HCIField("Max interval", "sniff_max_interval", .duration(2, micros: 625)),
                HCIField("Min interval", "sniff_min_interval", .duration(2, micros: 625)),
                HCIField("Attempt", "sniff_attempt", .unsigned(2)), HCIField("Timeout", "sniff_timeout", .unsigned(2)),
            ]),
        HCICommand(0x0804, "Exit Sniff Mode", [.handle]),
        HCICommand(0x0805, "Park State"),
        HCICommand(0x0806, "Exit Park State"),
        HCICommand(0x0807, "QoS Setup"),
        HCICommand(0x0809, "Role Discovery", [.handle], returns: [.status, .handle, HCIField("Role", "current_role", .named(1, HCIValues.role))]),
        HCICommand(0x080B, "Switch Role", [.address, HCIField("Role", "role", .named(1, HCIValues.role))]),
        HCICommand(
            0x080C, "Read Link Policy Settings", [.handle],
            returns: [.status, .handle, HCIField("Link policy", "link_policy_settings", .bits(2, HCIValues.linkPolicy))]),
        HCICommand(
            0x080D, "Write Link Policy Settings",
            [.handle, HCIField("Link policy", "link_policy_settings", .bits(2, HCIValues.linkPolicy))],
            returns: HCIReturns.statusHandle),
        HCICommand(
            0x080E, "Read Default Link Policy Settings", [],
            returns: [.status, HCIField("Link policy", "default_link_policy_settings", .bits(2, HCIValues.linkPolicy))]),
        HCICommand(
            0x080F, "Write Default Link Policy Settings",
            [HCIField("Link policy", "default_link_policy_settings", .bits(2, HCIValues.linkPolicy))],
            returns: HCIReturns.status),
        HCICommand(0x0810, "Flow Specification"),
        HCICommand(
            0x0811, "Sniff Subrating",
            [
                .handle, HCIField("Max latency", "max_latency", .duration(2, micros: 625)),
                HCIField("Min remote timeout", "min_remote_timeout", .duration(2, micros: 625)),
                HCIField("Min local timeout", "min_local_timeout", .duration(2, micros: 625)),
            ], returns: HCIReturns.statusHandle),
    ]
}
