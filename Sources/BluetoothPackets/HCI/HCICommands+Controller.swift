/// Controller & Baseband (OGF 0x03, Core v6.0, Vol 4, Part E, §7.3), Informational parameters (0x04,
/// §7.4), Status parameters (0x05, §7.5) and Testing commands (0x06, §7.6).
extension HCICommands {
    static let controllerAndBaseband: [HCICommand] = [
        HCICommand(0x0C01, "Set Event Mask", [HCIField("Mask", "event_mask", .hex(8))], returns: HCIReturns.status),
        HCICommand(0x0C03, "Reset", [], returns: HCIReturns.status),
        HCICommand(0x0C05, "Set Event Filter"),
        HCICommand(0x0C08, "Flush", [.handle], returns: HCIReturns.statusHandle),
        HCICommand(0x0C09, "Read PIN Type"),
        HCICommand(0x0C0A, "Write PIN Type"),
        HCICommand(0x0C0B, "Create New Unit Key"),
        HCICommand(0x0C0D, "Read Stored Link Key"),
        HCICommand(0x0C11, "Write Stored Link Key"),
        HCICommand(0x0C12, "Delete Stored Link Key"),
        HCICommand(0x0C13, "Write Local Name", [Controller.localName], returns: HCIReturns.status),
        HCICommand(0x0C14, "Read Local Name", [], returns: [.status, Controller.localName]),
        HCICommand(0x0C15, "Read Connection Accept Timeout"),
        HCICommand(0x0C16, "Write Connection Accept Timeout"),
        HCICommand(0x0C17, "Read Page Timeout", [], returns: [.status, Controller.pageTimeout]),
        HCICommand(0x0C18, "Write Page Timeout", [Controller.pageTimeout], returns: HCIReturns.status),
        HCICommand(0x0C19, "Read Scan Enable", [], returns: [.status, Controller.scanEnable]),
        HCICommand(0x0C1A, "Write Scan Enable", [Controller.scanEnable], returns: HCIReturns.status),
        HCICommand(0x0C1B, "Read Page Scan Activity", [], returns: [.status] + Controller.scanActivity),
        HCICommand(0x0C1C, "Write Page Scan Activity", Controller.scanActivity, returns: HCIReturns.status),
        HCICommand(0x0C1D, "Read Inquiry Scan Activity", [], returns: [.status] + Controller.scanActivity),
        HCICommand(0x0C1E, "Write Inquiry Scan Activity", Controller.scanActivity, returns: HCIReturns.status),
        HCICommand(0x0C1F, "Read Authentication Enable", [], returns: [.status, Controller.authenticationEnable]),
        HCICommand(0x0C20, "Write Authentication Enable", [Controller.authenticationEnable], returns: HCIReturns.status),
        HCICommand(0x0C21, "Read Encryption Mode"),
        HCICommand(0x0C22, "Write Encryption Mode"),
        HCICommand(0x0C23, "Read Class of Device", [], returns: [.status, .classOfDevice]),
        HCICommand(0x0C24, "Write Class of Device", [.classOfDevice], returns: HCIReturns.status),
        HCICommand(0x0C25, "Read Voice Setting", [], returns: [.status, Controller.voiceSetting]),
        HCICommand(0x0C26, "Write Voice Setting", [Controller.voiceSetting], returns: HCIReturns.status),
        HCICommand(0x0C27, "Read Automatic Flush Timeout"),
        HCICommand(0x0C28, "Write Automatic Flush Timeout"),
        HCICommand(0x0C29, "Read Num Broadcast Retransmissions"),
        HCICommand(0x0C2A, "Write Num Broadcast Retransmissions"),
        HCICommand(0x0C2B, "Read Hold Mode Activity"),
        HCICommand(0x0C2C, "Write Hold Mode Activity"),
        HCICommand(
            0x0C2D, "Read Transmit Power Level", [.handle, HCIField("Type", "tx_power_level_type", .hex(1))],
            returns: [.status, .handle, HCIField("TX power", "tx_power_level", .dbm)]),
        HCICommand(0x0C2E, "Read Synchronous Flow Control Enable"),
        HCICommand(0x0C2F, "Write Synchronous Flow Control Enable"),
        HCICommand(0x0C31, "Set Controller To Host Flow Control"),
        HCICommand(
            0x0C33, "Host Buffer Size",
            [
                HCIField("ACL MTU", "host_acl_data_packet_length", .unsigned(2)),
                HCIField("SCO MTU", "host_synchronous_data_packet_length", .unsigned(1)),
                HCIField("ACL max packet", "host_total_num_acl_data_packets", .unsigned(2)),
                HCIField("SCO max packet", "host_total_num_synchronous_data_packets", .unsigned(2)),
            ], returns: HCIReturns.status),
        HCICommand(0x0C35, "Host Number Of Completed Packets", HCIEventTable.completedPackets),
        HCICommand(
            0x0C36, "Read Link Supervision Timeout", [.handle],
            returns: [.status, .handle, Controller.linkSupervisionTimeout]),
        HCICommand(
            0x0C37, "Write Link Supervision Timeout", [.handle, Controller.linkSupervisionTimeout],
            returns: HCIReturns.statusHandle),
        HCICommand(0x0C38, "Read Number Of Supported IAC"),
        HCICommand(0x0C39, "Read Current IAC LAP"),
        HCICommand(
            0x0C3A, "Write Current IAC LAP", [HCIField("Number of IAC", "iac_laps", .list([HCIField("Access code", "lap", .hex(3))]))],
            returns: HCIReturns.status),
        HCICommand(0x0C3B, "Read Page Scan Period Mode"),
        HCICommand(0x0C3C, "Write Page Scan Period Mode"),
        HCICommand(0x0C3D, "Read Page Scan Mode"),
        HCICommand(0x0C3E, "Write Page Scan Mode"),
        HCICommand(0x0C3F, "Set AFH Host Channel Classification"),
        HCICommand(0x0C42, "Read Inquiry Scan Type", [], returns: [.status, Controller.scanType("inquiry_scan_type")]),
        HCICommand(0x0C43, "Write Inquiry Scan Type", [Controller.scanType("inquiry_scan_type")], returns: HCIReturns.status),
        HCICommand(0x0C44, "Read Inquiry Mode", [], returns: [.status, Controller.inquiryMode]),
        HCICommand(0x0C45, "Write Inquiry Mode", [Controller.inquiryMode], returns: HCIReturns.status),
        HCICommand(0x0C46, "Read Page Scan Type", [], returns: [.status, Controller.scanType("page_scan_type")]),
        HCICommand(0x0C47, "Write Page Scan Type", [Controller.scanType("page_scan_type")], returns: HCIReturns.status),
        HCICommand(0x0C48, "Read AFH Channel Assessment Mode"),
        HCICommand(0x0C49, "Write AFH Channel Assessment Mode"),
        HCICommand(0x0C51, "Read Extended Inquiry Response", [], returns: [.status] + Controller.extendedInquiryResponse),
        HCICommand(0x0C52, "Write Extended Inquiry Response", Controller.extendedInquiryResponse, returns: HCIReturns.status),
        HCICommand(0x0C53, "Refresh Encryption Key", [.handle]),
        HCICommand(0x0C55, "Read Simple Pairing Mode", [], returns: [.status, Controller.enabled("Mode", "simple_pairing_mode")]),
        HCICommand(0x0C56, "Write Simple Pairing Mode", [Controller.enabled("Mode", "simple_pairing_mode")], returns: HCIReturns.status),
        HCICommand(0x0C57, "Read Local OOB Data"),
        HCICommand(
            0x0C58, "Read Inquiry Response Transmit Power Level", [],
            returns: [.status, HCIField("TX power", "tx_power", .dbm)]),
        HCICommand(0x0C59, "Write Inquiry Transmit Power Level", [HCIField("TX power", "tx_power", .dbm)], returns: HCIReturns.status),
        HCICommand(0x0C5A, "Read Default Erroneous Data Reporting", [], returns: [.status, Controller.erroneousDataReporting]),
        HCICommand(0x0C5B, "Write Default Erroneous Data Reporting", [Controller.erroneousDataReporting], returns: HCIReturns.status),
        HCICommand(0x0C5F, "Enhanced Flush", [.handle, HCIField("Packet type", "packet_type", .hex(1))]),
        HCICommand(0x0C60, "Send Keypress Notification"),
        HCICommand(0x0C61, "Read Logical Link Accept Timeout"),
        HCICommand(0x0C62, "Write Logical Link Accept Timeout"),
        HCICommand(0x0C63, "Set Event Mask Page 2", [HCIField("Mask", "event_mask_page_2", .hex(8))], returns: HCIReturns.status),
        HCICommand(0x0C64, "Read Location Data"),
        HCICommand(0x0C65, "Write Location Data"),
        HCICommand(0x0C66, "Read Flow Control Mode"),
        HCICommand(0x0C67, "Write Flow Control Mode"),
        HCICommand(0x0C68, "Read Enhanced Transmit Power Level"),
        HCICommand(0x0C69, "Read Best Effort Flush Timeout"),
        HCICommand(0x0C6A, "Write Best Effort Flush Timeout"),
        HCICommand(0x0C6B, "Short Range Mode"),
        HCICommand(0x0C6C, "Read LE Host Support", [], returns: [.status] + Controller.leHostSupport),
        HCICommand(0x0C6D, "Write LE Host Support", Controller.leHostSupport, returns: HCIReturns.status),
        HCICommand(0x0C6E, "Set MWS Channel Parameters"),
        HCICommand(0x0C6F, "Set External Frame Configuration"),
        HCICommand(0x0C70, "Set MWS Signaling"),
        HCICommand(0x0C71, "Set MWS Transport Layer"),
        HCICommand(0x0C72, "Set MWS Scan Frequency Table"),
        HCICommand(0x0C73, "Set MWS_PATTERN Configuration"),
        HCICommand(0x0C74, "Set Reserved LT_ADDR"),
        HCICommand(0x0C75, "Delete Reserved LT_ADDR"),
        HCICommand(0x0C76, "Set Connectionless Peripheral Broadcast Data"),
        HCICommand(0x0C77, "Read Synchronization Train Parameters"),
        HCICommand(0x0C78, "Write Synchronization Train Parameters"),
        HCICommand(
            0x0C79, "Read Secure Connections Host Support", [],
            returns: [.status, Controller.enabled("Support", "secure_connections_host_support")]),
        HCICommand(
            0x0C7A, "Write Secure Connections Host Support", [Controller.enabled("Support", "secure_connections_host_support")],
            returns: HCIReturns.status),
        HCICommand(
            0x0C7B, "Read Authenticated Payload Timeout", [.handle],
            returns: [.status, .handle, Controller.authenticatedPayloadTimeout]),
        HCICommand(
            0x0C7C, "Write Authenticated Payload Timeout", [.handle, Controller.authenticatedPayloadTimeout],
            returns: HCIReturns.statusHandle),
        HCICommand(0x0C7D, "Read Local OOB Extended Data"),
        HCICommand(0x0C7E, "Read Extended Page Timeout"),
        HCICommand(0x0C7F, "Write Extended Page Timeout"),
        HCICommand(0x0C80, "Read Extended Inquiry Length"),
        HCICommand(0x0C81, "Write Extended Inquiry Length"),
        HCICommand(0x0C82, "Set Ecosystem Base Interval"),
        HCICommand(0x0C83, "Configure Data Path"),
        HCICommand(
            0x0C84, "Set Min Encryption Key Size", [HCIField("Key size", "min_encryption_key_size", .unsigned(1))],
            returns: HCIReturns.status),
    ]

    static let informational: [HCICommand] = [
        HCICommand(0x1001, "Read Local Version Information", [], returns: Controller.localVersion),
        HCICommand(0x1002, "Read Local Supported Commands", [], returns: [.status, HCIField("Commands", "supported_commands", .bytes(64))]),
        HCICommand(0x1003, "Read Local Supported Features", [], returns: [.status, .lmpFeatures]),
        HCICommand(
            0x1004, "Read Local Extended Features", [HCIField("Page", "page_number", .unsigned(1))],
            returns: [
                .status, HCIField("Page", "page_number", .unsigned(1)), HCIField("Max page", "max_page_number", .unsigned(1)),
                HCIField("Features", "extended_lmp_features", .bytes(8)),
            ]),
        HCICommand(
            0x1005, "Read Buffer Size", [],
            returns: [
                .status, HCIField("ACL MTU", "acl_data_packet_length", .unsigned(2)),
                HCIField("SCO MTU", "synchronous_data_packet_length", .unsigned(1)),
                HCIField("ACL max packet", "total_num_acl_data_packets", .unsigned(2)),
                HCIField("SCO max packet", "total_num_synchronous_data_packets", .unsigned(2)),
            ]),
        HCICommand(0x1007, "Read Country Code"),
        HCICommand(0x1009, "Read BD_ADDR", [], returns: HCIReturns.statusAddress),
        HCICommand(0x100A, "Read Data Block Size"),
        HCICommand(0x100B, "Read Local Supported Codecs [v1]"),
        HCICommand(0x100C, "Read Local Simple Pairing Options"),
        HCICommand(0x100D, "Read Local Supported Codecs [v2]"),
        HCICommand(0x100E, "Read Local Supported Codec Capabilities"),
        HCICommand(0x100F, "Read Local Supported Controller Delay"),
    ]

    static let statusParameters: [HCICommand] = [
        HCICommand(0x1401, "Read Failed Contact Counter", [.handle]),
        HCICommand(0x1402, "Reset Failed Contact Counter", [.handle], returns: HCIReturns.statusHandle),
        HCICommand(0x1403, "Read Link Quality", [.handle], returns: [.status, .handle, HCIField("Link quality", "link_quality", .hex(1))]),
        HCICommand(0x1405, "Read RSSI", [.handle], returns: [.status, .handle, HCIField("RSSI", "rssi", .dbm)]),
        HCICommand(0x1406, "Read AFH Channel Map"),
        HCICommand(0x1407, "Read Clock"),
        HCICommand(0x1408, "Read Encryption Key Size", [.handle], returns: [.status, .handle, HCIField("Key size", "key_size", .unsigned(1))]),
        HCICommand(0x1409, "Read Local AMP Info"),
        HCICommand(0x140A, "Read Local AMP ASSOC"),
        HCICommand(0x140B, "Write Remote AMP ASSOC"),
        HCICommand(0x140C, "Get MWS Transport Layer Configuration"),
        HCICommand(0x140D, "Set Triggered Clock Capture"),
    ]

    static let testing: [HCICommand] = [
        HCICommand(0x1801, "Read Loopback Mode"),
        HCICommand(0x1802, "Write Loopback Mode"),
        HCICommand(0x1803, "Enable Device Under Test Mode", [], returns: HCIReturns.status),
        HCICommand(0x1804, "Write Simple Pairing Debug Mode", [Controller.enabled("Mode", "debug_mode")], returns: HCIReturns.status),
        HCICommand(0x1807, "Enable AMP Receiver Reports"),
        HCICommand(0x1808, "AMP Test End"),
        HCICommand(0x1809, "AMP Test"),
        HCICommand(0x180A, "Write Secure Connections Test Mode"),
    ]

    /// Layouts of the classic controller commands that shape a session.
    enum Controller {
        static let localName = HCIField("Name", "local_name", .text(248))
        static let pageTimeout = HCIField("Timeout", "page_timeout", .duration(2, micros: 625))
        static let scanEnable = HCIField("Scan enable", "scan_enable", .named(1, HCIValues.scanEnable))
        static let scanActivity: [HCIField] = [
            HCIField("Interval", "scan_interval", .duration(2, micros: 625)),
            HCIField("Window", "scan_window", .duration(2, micros: 625)),
        ]
        static let authenticationEnable = HCIField(
            "Enable", "authentication_enable", .named(1, HCIValues.authenticationEnable))
        static let voiceSetting = HCIField("Setting", "voice_setting", .hex(2))
        static let linkSupervisionTimeout = HCIField("Timeout", "link_supervision_timeout", .duration(2, micros: 625))
        static let inquiryMode = HCIField("Mode", "inquiry_mode", .named(1, HCIValues.inquiryMode))
        static let erroneousDataReporting = HCIField(
            "Mode", "erroneous_data_reporting", .named(1, HCIValues.disabledEnabled))
        static let authenticatedPayloadTimeout = HCIField(
            "Timeout", "authenticated_payload_timeout", .duration(2, micros: 10_000))
        static let extendedInquiryResponse: [HCIField] = [
            HCIField("FEC", "fec_required", .named(1, HCIValues.fecRequired)),
            HCIField("Data", "extended_inquiry_response", .eir(240)),
        ]
        static let leHostSupport: [HCIField] = [
            HCIField("Supported", "le_supported_host", .named(1, HCIValues.leHostSupport)),
            HCIField("Simultaneous", "unused", .hex(1)),
        ]

        static func scanType(_ key: StaticString) -> HCIField { HCIField("Type", key, .named(1, HCIValues.scanTypeBREDR)) }

        static func enabled(_ label: StaticString, _ key: StaticString) -> HCIField {
            HCIField(label, key, .named(1, HCIValues.disabledEnabled))
        }

        static let localVersion: [HCIField] = [
            .status, HCIField("HCI version", "hci_version", .named(1, HCIValues.coreVersion)),
            HCIField("HCI revision", "hci_subversion", .hex(2)),
            HCIField("LMP version", "lmp_version", .named(1, HCIValues.coreVersion)),
            HCIField("Manufacturer", "company_identifier", .company),
            HCIField("LMP subversion", "lmp_subversion", .hex(2)),
        ]
    }
}
