/// LE Controller commands, OGF 0x08 (Core v6.0, Vol 4, Part E, §7.8).
extension HCICommands {
    static let lowEnergy: [HCICommand] = [
        HCICommand(0x2001, "LE Set Event Mask", [HCIField("Mask", "le_event_mask", .hex(8))], returns: HCIReturns.status),
        HCICommand(0x2002, "LE Read Buffer Size [v1]", [], returns: LE.bufferSizeV1),
        HCICommand(0x2003, "LE Read Local Supported Features Page 0", [], returns: [.status, .leFeatures]),
        HCICommand(0x2005, "LE Set Random Address", [HCIField("Address", "random_address", .address)], returns: HCIReturns.status),
        HCICommand(0x2006, "LE Set Advertising Parameters", LE.advertisingParameters, returns: HCIReturns.status),
        HCICommand(
            0x2007, "LE Read Advertising Physical Channel Tx Power", [],
            returns: [.status, HCIField("TX power", "tx_power_level", .dbm)]),
        HCICommand(0x2008, "LE Set Advertising Data", [LE.legacyData("advertising_data")], returns: HCIReturns.status),
        HCICommand(0x2009, "LE Set Scan Response Data", [LE.legacyData("scan_response_data")], returns: HCIReturns.status),
        HCICommand(0x200A, "LE Set Advertising Enable", [.enable("advertising_enable")], returns: HCIReturns.status),
        HCICommand(0x200B, "LE Set Scan Parameters", LE.scanParameters, returns: HCIReturns.status),
        HCICommand(0x200C, "LE Set Scan Enable", LE.scanEnable, returns: HCIReturns.status),
        HCICommand(0x200D, "LE Create Connection", LE.createConnection),
        HCICommand(0x200E, "LE Create Connection Cancel", [], returns: HCIReturns.status),
        HCICommand(
            0x200F, "LE Read Filter Accept List Size", [],
            returns: [.status, HCIField("Size", "filter_accept_list_size", .unsigned(1))]),
        HCICommand(0x2010, "LE Clear Filter Accept List", [], returns: HCIReturns.status),
        HCICommand(0x2011, "LE Add Device To Filter Accept List", LE.listedDevice, returns: HCIReturns.status),
        HCICommand(0x2012, "LE Remove Device From Filter Accept List", LE.listedDevice, returns: HCIReturns.status),
        HCICommand(0x2013, "LE Connection Update", [.handle] + HCIField.connectionParameters + HCIField.connectionEventLength),
        HCICommand(0x2014, "LE Set Host Channel Classification", [HCIField("Channels", "channel_map", .bytes(5))], returns: HCIReturns.status),
        HCICommand(0x2015, "LE Read Channel Map", [.handle], returns: [.status, .handle, HCIField("Channels", "channel_map", .bytes(5))]),
        HCICommand(0x2016, "LE Read Remote Features Page 0", [.handle]),
        HCICommand(
            0x2017, "LE Encrypt", [HCIField("Key", "key", .bytes(16)), HCIField("Plaintext data", "plaintext_data", .bytes(16))],
            returns: [.status, HCIField("Encrypted data", "encrypted_data", .bytes(16))]),
        HCICommand(0x2018, "LE Rand", [], returns: [.status, HCIField("Random number", "random_number", .bytes(8))]),
        HCICommand(0x2019, "LE Enable Encryption", LE.enableEncryption),
        HCICommand(0x201A, "LE Long Term Key Request Reply", [.handle, HCIField("Long term key", "long_term_key", .bytes(16))], returns: HCIReturns.statusHandle),
        HCICommand(0x201B, "LE Long Term Key Request Negative Reply", [.handle], returns: HCIReturns.statusHandle),
        HCICommand(0x201C, "LE Read Supported States", [], returns: [.status, HCIField("States", "le_states", .hex(8))]),
        HCICommand(0x201D, "LE Receiver Test [v1]"),
        HCICommand(0x201E, "LE Transmitter Test [v1]"),
        HCICommand(0x201F, "LE Test End", [], returns: [.status, HCIField("Num packets", "num_packets", .unsigned(2))]),
        HCICommand(
            0x2020, "LE Remote Connection Parameter Request Reply",
            [.handle] + HCIField.connectionParameters + HCIField.connectionEventLength, returns: HCIReturns.statusHandle),
        HCICommand(0x2021, "LE Remote Connection Parameter Request Negative Reply", [.handle, .reason], returns: HCIReturns.statusHandle),
        HCICommand(
            0x2022, "LE Set Data Length",
            [.handle, HCIField("TX octets", "tx_octets", .unsigned(2)), HCIField("TX time", "tx_time", .unsigned(2))],
            returns: HCIReturns.statusHandle),
        HCICommand(0x2023, "LE Read Suggested Default Data Length", [], returns: [.status] + LE.suggestedDataLength),
        HCICommand(0x2024, "LE Write Suggested Default Data Length", LE.suggestedDataLength, returns: HCIReturns.status),
        HCICommand(0x2025, "LE Read Local P-256 Public Key", []),
        HCICommand(0x2026, "LE Generate DHKey [v1]", [HCIField("Remote P-256 public key", "key_x_coordinate", .bytes(64))]),
        HCICommand(0x2027, "LE Add Device To Resolving List", LE.addToResolvingList, returns: HCIReturns.status),
        HCICommand(0x2028, "LE Remove Device From Resolving List", LE.identity, returns: HCIReturns.status),
        HCICommand(0x2029, "LE Clear Resolving List", [], returns: HCIReturns.status),
        HCICommand(0x202A, "LE Read Resolving List Size", [], returns: [.status, HCIField("Size", "resolving_list_size", .unsigned(1))]),
        HCICommand(
            0x202B, "LE Read Peer Resolvable Address", LE.identity,
            returns: [.status, HCIField("Address", "peer_resolvable_address", .address)]),
        HCICommand(
            0x202C, "LE Read Local Resolvable Address", LE.identity,
            returns: [.status, HCIField("Address", "local_resolvable_address", .address)]),
        HCICommand(0x202D, "LE Set Address Resolution Enable", [.enable("address_resolution_enable")], returns: HCIReturns.status),
        HCICommand(
            0x202E, "LE Set Resolvable Private Address Timeout",
            [HCIField("Timeout", "rpa_timeout", .duration(2, micros: 1_000_000))], returns: HCIReturns.status),
        HCICommand(0x202F, "LE Read Maximum Data Length", [], returns: [.status] + LE.maximumDataLength),
        HCICommand(0x2030, "LE Read PHY", [.handle], returns: [.status, .handle, LE.phy("TX PHY", "tx_phy"), LE.phy("RX PHY", "rx_phy")]),
        HCICommand(0x2031, "LE Set Default PHY", LE.phyPreferences, returns: HCIReturns.status),
        HCICommand(
            0x2032, "LE Set PHY",
            [.handle] + LE.phyPreferences + [HCIField("PHY options", "phy_options", .named(2, HCIValues.phyOptions))]),
        HCICommand(0x2033, "LE Receiver Test [v2]"),
        HCICommand(0x2034, "LE Transmitter Test [v2]"),
        HCICommand(
            0x2035, "LE Set Advertising Set Random Address",
            [.advertisingHandle, HCIField("Address", "random_address", .address)], returns: HCIReturns.status),
        HCICommand(
            0x2036, "LE Set Extended Advertising Parameters [v1]", LE.extendedAdvertisingParameters,
            returns: [.status, HCIField("Selected TX power", "selected_tx_power", .dbm)]),
        HCICommand(0x2037, "LE Set Extended Advertising Data", LE.extendedData("advertising_data"), returns: HCIReturns.status),
        HCICommand(0x2038, "LE Set Extended Scan Response Data", LE.extendedData("scan_response_data"), returns: HCIReturns.status),
        HCICommand(0x2039, "LE Set Extended Advertising Enable", LE.extendedAdvertisingEnable, returns: HCIReturns.status),
        HCICommand(
            0x203A, "LE Read Maximum Advertising Data Length", [],
            returns: [.status, HCIField("Max length", "max_advertising_data_length", .unsigned(2))]),
        HCICommand(
            0x203B, "LE Read Number of Supported Advertising Sets", [],
            returns: [.status, HCIField("Num supported advertising sets", "num_supported_advertising_sets", .unsigned(1))]),
        HCICommand(0x203C, "LE Remove Advertising Set", [.advertisingHandle], returns: HCIReturns.status),
        HCICommand(0x203D, "LE Clear Advertising Sets", [], returns: HCIReturns.status),
        HCICommand(0x203E, "LE Set Periodic Advertising Parameters [v1]"),
        HCICommand(0x203F, "LE Set Periodic Advertising Data"),
        HCICommand(
            0x2040, "LE Set Periodic Advertising Enable", [.enable(), .advertisingHandle], returns: HCIReturns.status),
        HCICommand(0x2041, "LE Set Extended Scan Parameters", LE.extendedScanParameters, returns: HCIReturns.status),
        HCICommand(0x2042, "LE Set Extended Scan Enable", LE.extendedScanEnable, returns: HCIReturns.status),
        HCICommand(0x2043, "LE Extended Create Connection [v1]", LE.extendedCreateConnection),
        HCICommand(0x2044, "LE Periodic Advertising Create Sync"),
        HCICommand(0x2045, "LE Periodic Advertising Create Sync Cancel", [], returns: HCIReturns.status),
        HCICommand(0x2046, "LE Periodic Advertising Terminate Sync"),
        HCICommand(0x2047, "LE Add Device To Periodic Advertiser List"),
        HCICommand(0x2048, "LE Remove Device From Periodic Advertiser List"),
        HCICommand(0x2049, "LE Clear Periodic Advertiser List", [], returns: HCIReturns.status),
        HCICommand(
            0x204A, "LE Read Periodic Advertiser List Size", [],
            returns: [.status, HCIField("Size", "periodic_advertiser_list_size", .unsigned(1))]),
        HCICommand(
            0x204B, "LE Read Transmit Power", [],
            returns: [.status, HCIField("Min TX power", "min_tx_power", .dbm), HCIField("Max TX power", "max_tx_power", .dbm)]),
        HCICommand(0x204C, "LE Read RF Path Compensation"),
        HCICommand(0x204D, "LE Write RF Path Compensation"),
        HCICommand(
            0x204E, "LE Set Privacy Mode",
            LE.identity + [HCIField("Privacy mode", "privacy_mode", .named(1, HCIValues.privacyMode))],
            returns: HCIReturns.status),
        HCICommand(0x204F, "LE Receiver Test [v3]"),
        HCICommand(0x2050, "LE Transmitter Test [v3]"),
        HCICommand(0x2051, "LE Set Connectionless CTE Transmit Parameters"),
        HCICommand(0x2052, "LE Set Connectionless CTE Transmit Enable"),
        HCICommand(0x2053, "LE Set Connectionless IQ Sampling Enable"),
        HCICommand(0x2054, "LE Set Connection CTE Receive Parameters"),
        HCICommand(0x2055, "LE Set Connection CTE Transmit Parameters"),
        HCICommand(0x2056, "LE Connection CTE Request Enable"),
        HCICommand(0x2057, "LE Connection CTE Response Enable"),
        HCICommand(0x2058, "LE Read Antenna Information"),
        HCICommand(0x2059, "LE Set Periodic Advertising Receive Enable"),
        HCICommand(0x205A, "LE Periodic Advertising Sync Transfer"),
        HCICommand(0x205B, "LE Periodic Advertising Set Info Transfer"),
        HCICommand(0x205C, "LE Set Periodic Advertising Sync Transfer Parameters"),
        HCICommand(0x205D, "LE Set Default Periodic Advertising Sync Transfer Parameters"),
        HCICommand(0x205E, "LE Generate DHKey [v2]"),
        HCICommand(0x205F, "LE Modify Sleep Clock Accuracy"),
        HCICommand(0x2060, "LE Read Buffer Size [v2]", [], returns: LE.bufferSizeV1 + LE.isoBufferSize),
        HCICommand(0x2061, "LE Read ISO TX Sync"),
        HCICommand(0x2062, "LE Set CIG Parameters"),
        HCICommand(0x2063, "LE Set CIG Parameters Test"),
        HCICommand(0x2064, "LE Create CIS"),
        HCICommand(0x2065, "LE Remove CIG"),
        HCICommand(0x2066, "LE Accept CIS Request"),
        HCICommand(0x2067, "LE Reject CIS Request"),
        HCICommand(0x2068, "LE Create BIG"),
        HCICommand(0x2069, "LE Create BIG Test"),
        HCICommand(0x206A, "LE Terminate BIG"),
        HCICommand(0x206B, "LE BIG Create Sync"),
        HCICommand(0x206C, "LE BIG Terminate Sync"),
        HCICommand(0x206D, "LE Request Peer SCA"),
        HCICommand(0x206E, "LE Setup ISO Data Path"),
        HCICommand(0x206F, "LE Remove ISO Data Path"),
        HCICommand(0x2070, "LE ISO Transmit Test"),
        HCICommand(0x2071, "LE ISO Receive Test"),
        HCICommand(0x2072, "LE ISO Read Test Counters"),
        HCICommand(0x2073, "LE ISO Test End"),
        HCICommand(0x2074, "LE Set Host Feature [v1]", LE.hostFeature(1), returns: HCIReturns.status),
        HCICommand(0x2075, "LE Read ISO Link Quality"),
        HCICommand(0x2076, "LE Enhanced Read Transmit Power Level"),
        HCICommand(0x2077, "LE Read Remote Transmit Power Level"),
        HCICommand(0x2078, "LE Set Path Loss Reporting Parameters"),
        HCICommand(0x2079, "LE Set Path Loss Reporting Enable"),
        HCICommand(0x207A, "LE Set Transmit Power Reporting Enable"),
        HCICommand(0x207B, "LE Transmitter Test [v4]"),
        HCICommand(0x207C, "LE Set Data Related Address Changes"),
        HCICommand(0x207D, "LE Set Default Subrate"),
        HCICommand(0x207E, "LE Subrate Request"),
        HCICommand(
            0x207F, "LE Set Extended Advertising Parameters [v2]", LE.extendedAdvertisingParametersV2,
            returns: [.status, HCIField("Selected TX power", "selected_tx_power", .dbm)]),
        HCICommand(0x2080, "LE Set Decision Data"),
        HCICommand(0x2081, "LE Set Decision Instructions"),
        HCICommand(0x2082, "LE Set Periodic Advertising Subevent Data"),
        HCICommand(0x2083, "LE Set Periodic Advertising Response Data"),
        HCICommand(0x2084, "LE Set Periodic Sync Subevent"),
        HCICommand(0x2085, "LE Extended Create Connection [v2]", LE.extendedCreateConnectionV2),
        HCICommand(0x2086, "LE Set Periodic Advertising Parameters [v2]"),
        HCICommand(0x2087, "LE Read All Local Supported Features"),
        HCICommand(0x2088, "LE Read All Remote Features"),
        HCICommand(0x2089, "LE CS Read Local Supported Capabilities"),
        HCICommand(0x208A, "LE CS Read Remote Supported Capabilities"),
        HCICommand(0x208B, "LE CS Write Cached Remote Supported Capabilities"),
        HCICommand(0x208C, "LE CS Security Enable"),
        HCICommand(0x208D, "LE CS Set Default Settings"),
        HCICommand(0x208E, "LE CS Read Remote FAE Table"),
        HCICommand(0x208F, "LE CS Write Cached Remote FAE Table"),
        HCICommand(0x2090, "LE CS Create Config"),
        HCICommand(0x2091, "LE CS Remove Config"),
        HCICommand(0x2092, "LE CS Set Channel Classification"),
        HCICommand(0x2093, "LE CS Set Procedure Parameters"),
        HCICommand(0x2094, "LE CS Procedure Enable"),
        HCICommand(0x2095, "LE CS Test"),
        HCICommand(0x2096, "LE CS Test End"),
        HCICommand(0x2097, "LE Set Host Feature [v2]", LE.hostFeature(2), returns: HCIReturns.status),
        HCICommand(0x2098, "LE Add Device To Monitored Advertisers List"),
        HCICommand(0x2099, "LE Remove Device From Monitored Advertisers List"),
        HCICommand(0x209A, "LE Clear Monitored Advertisers List"),
        HCICommand(0x209B, "LE Read Monitored Advertisers List Size"),
        HCICommand(0x209C, "LE Enable Monitoring Advertisers"),
        HCICommand(0x209D, "LE Frame Space Update"),
    ]

    /// The parameter layouts of the LE commands that shape a session: advertising, scanning,
    /// connecting, encryption, privacy, PHY and data length.
    enum LE {
        static let bufferSizeV1: [HCIField] = [
            .status, HCIField("Data packet length", "le_acl_data_packet_length", .unsigned(2)),
            HCIField("Num data packets", "total_num_le_acl_data_packets", .unsigned(1)),
        ]
        static let isoBufferSize: [HCIField] = [
            HCIField("ISO data packet length", "iso_data_packet_length", .unsigned(2)),
            HCIField("Num ISO data packets", "total_num_iso_data_packets", .unsigned(1)),
        ]

        static let advertisingParameters: [HCIField] = [
            HCIField("Min advertising interval", "advertising_interval_min", .duration(2, micros: 625)),
            HCIField("Max advertising interval", "advertising_interval_max", .duration(2, micros: 625)),
            HCIField("Type", "advertising_type", .named(1, HCIValues.advertisingType)),
            .ownAddressType,
            HCIField("Direct address type", "peer_address_type", .named(1, HCIValues.addressType)),
            HCIField("Direct address", "peer_address", .address),
            HCIField("Channel map", "advertising_channel_map", .bits(1, HCIValues.channelMap)),
            HCIField("Filter policy", "advertising_filter_policy", .named(1, HCIValues.advertisingFilterPolicy)),
        ]

        static func legacyData(_ key: StaticString) -> HCIField { HCIField("Data", key, .advertisingData(padded: 31)) }

        static let scanParameters: [HCIField] = [
            HCIField("Type", "le_scan_type", .named(1, HCIValues.scanType)),
            HCIField("Interval", "le_scan_interval", .duration(2, micros: 625)),
            HCIField("Window", "le_scan_window", .duration(2, micros: 625)),
            .ownAddressType,
            HCIField("Filter policy", "scanning_filter_policy", .named(1, HCIValues.scanningFilterPolicy)),
        ]

        static let scanEnable: [HCIField] = [
            .enable("le_scan_enable"),
            HCIField("Filter duplicates", "filter_duplicates", .named(1, HCIValues.disabledEnabled)),
        ]

        static let createConnection: [HCIField] =
            [
                HCIField("Scan interval", "le_scan_interval", .duration(2, micros: 625)),
                HCIField("Scan window", "le_scan_window", .duration(2, micros: 625)),
                HCIField("Filter policy", "initiator_filter_policy", .named(1, HCIValues.initiatorFilterPolicy)),
                .peerAddressType, .peerAddress, .ownAddressType,
            ] + HCIField.connectionParameters + HCIField.connectionEventLength

        static let listedDevice: [HCIField] = [
            HCIField("Address type", "address_type", .named(1, HCIValues.addressType)), HCIField("Address", "address", .address),
        ]

        static let enableEncryption: [HCIField] = [
            .handle, HCIField("Random number", "random_number", .bytes(8)),
            HCIField("Encrypted diversifier", "encrypted_diversifier", .hex(2)),
            HCIField("Long term key", "long_term_key", .bytes(16)),
        ]

        static let suggestedDataLength: [HCIField] = [
            HCIField("TX octets", "suggested_max_tx_octets", .unsigned(2)),
            HCIField("TX time", "suggested_max_tx_time", .unsigned(2)),
        ]

        static let maximumDataLength: [HCIField] = [
            HCIField("Max TX octets", "supported_max_tx_octets", .unsigned(2)),
            HCIField("Max TX time", "supported_max_tx_time", .unsigned(2)),
            HCIField("Max RX octets", "supported_max_rx_octets", .unsigned(2)),
            HCIField("Max RX time", "supported_max_rx_time", .unsigned(2)),
        ]

        static let identity: [HCIField] = [
            HCIField("Address type", "peer_identity_address_type", .named(1, HCIValues.addressType)),
            HCIField("Address", "peer_identity_address", .address),
        ]

        static let addToResolvingList: [HCIField] =
            identity + [
                HCIField("Peer identity resolving key", "peer_irk", .bytes(16)),
                HCIField("Local identity resolving key", "local_irk", .bytes(16)),
            ]

        static func phy(_ label: StaticString, _ key: StaticString) -> HCIField {
            HCIField(label, key, .named(1, HCIValues.phy))
        }

        static let phyPreferences: [HCIField] = [
            HCIField("All PHYs preference", "all_phys", .bits(1, HCIValues.allPHYs)),
            HCIField("TX PHYs preference", "tx_phys", .bits(1, HCIValues.phyBits)),
            HCIField("RX PHYs preference", "rx_phys", .bits(1, HCIValues.phyBits)),
        ]

        static let extendedAdvertisingParameters: [HCIField] = [
            .advertisingHandle,
            HCIField("Properties", "advertising_event_properties", .bits(2, HCIValues.advertisingEventProperties)),
            HCIField("Min advertising interval", "primary_advertising_interval_min", .duration(3, micros: 625)),
            HCIField("Max advertising interval", "primary_advertising_interval_max", .duration(3, micros: 625)),
            HCIField("Channel map", "primary_advertising_channel_map", .bits(1, HCIValues.channelMap)),
            .ownAddressType, .peerAddressType, .peerAddress,
            HCIField("Filter policy", "advertising_filter_policy", .named(1, HCIValues.advertisingFilterPolicy)),
            HCIField("TX power", "advertising_tx_power", .dbm),
            HCIField("Primary PHY", "primary_advertising_phy", .named(1, HCIValues.phy)),
            HCIField("Secondary max skip", "secondary_advertising_max_skip", .unsigned(1)),
            HCIField("Secondary PHY", "secondary_advertising_phy", .named(1, HCIValues.phy)),
            HCIField("SID", "advertising_sid", .hex(1)),
            HCIField("Scan request notifications", "scan_request_notification_enable", .named(1, HCIValues.disabledEnabled)),
        ]

        static let extendedAdvertisingParametersV2: [HCIField] =
            extendedAdvertisingParameters + [
                HCIField("Primary PHY options", "primary_advertising_phy_options", .named(1, HCIValues.phyOptions)),
                HCIField("Secondary PHY options", "secondary_advertising_phy_options", .named(1, HCIValues.phyOptions)),
            ]

        static func extendedData(_ key: StaticString) -> [HCIField] {
            [
                .advertisingHandle, HCIField("Operation", "operation", .named(1, HCIValues.dataOperation)),
                HCIField("Fragment preference", "fragment_preference", .named(1, HCIValues.fragmentPreference)),
                HCIField("Data", key, .advertisingData(padded: nil)),
            ]
        }

        static let extendedAdvertisingEnable: [HCIField] = [
            .enable(),
            HCIField(
                "Number of sets", "sets",
                .list([
                    .advertisingHandle, HCIField("Duration", "duration", .duration(2, micros: 10_000)),
                    HCIField("Max ext adv events", "max_extended_advertising_events", .unsigned(1)),
                ])),
        ]

        static let extendedScanParameters: [HCIField] = [
            .ownAddressType,
            HCIField("Filter policy", "scanning_filter_policy", .named(1, HCIValues.scanningFilterPolicy)),
            HCIField(
                "PHYs", "scanning_phys",
                .perPHY([
                    HCIField("Type", "scan_type", .named(1, HCIValues.scanType)),
                    HCIField("Interval", "scan_interval", .duration(2, micros: 625)),
                    HCIField("Window", "scan_window", .duration(2, micros: 625)),
                ])),
        ]

        static let extendedScanEnable: [HCIField] = [
            .enable(), HCIField("Filter duplicates", "filter_duplicates", .named(1, HCIValues.filterDuplicates)),
            HCIField("Duration", "duration", .duration(2, micros: 10_000)),
            HCIField("Period", "period", .duration(2, micros: 1_280_000)),
        ]

        static let initiatingPHYs = HCIField(
            "Initiating PHYs", "initiating_phys",
            .perPHY(
                [
                    HCIField("Scan interval", "scan_interval", .duration(2, micros: 625)),
                    HCIField("Scan window", "scan_window", .duration(2, micros: 625)),
                ] + HCIField.connectionParameters + HCIField.connectionEventLength))

        static let extendedCreateConnection: [HCIField] = [
            HCIField("Filter policy", "initiator_filter_policy", .named(1, HCIValues.initiatorFilterPolicy)),
            .ownAddressType, .peerAddressType, .peerAddress, initiatingPHYs,
        ]

        static let extendedCreateConnectionV2: [HCIField] =
            [.advertisingHandle, HCIField("Subevent", "advertising_subevent", .unsigned(1))] + extendedCreateConnection

        static func hostFeature(_ bitNumberSize: Int) -> [HCIField] {
            [
                HCIField("Bit number", "bit_number", .named(bitNumberSize, HCIValues.hostFeatureBit)),
                HCIField("Bit value", "bit_value", .named(1, HCIValues.disabledEnabled)),
            ]
        }
    }
}
