/// Names of the coded parameter values the HCI layouts use (Core v6.0, Vol 4, Part E, §7), worded
/// as btmon prints them where the spec's own words are a sentence.
enum HCIValues {
    static let disabledEnabled = HCIValueNames([HCICodeName(0, "Disabled"), HCICodeName(1, "Enabled")])

    static let addressType = HCIValueNames([
        HCICodeName(0, "Public"), HCICodeName(1, "Random"), HCICodeName(2, "Public Identity"),
        HCICodeName(3, "Random Identity"), HCICodeName(0xFF, "Anonymous"),
    ])

    static let ownAddressType = HCIValueNames([
        HCICodeName(0, "Public"), HCICodeName(1, "Random"), HCICodeName(2, "Resolvable or Public"),
        HCICodeName(3, "Resolvable or Random"),
    ])

    static let role = HCIValueNames([HCICodeName(0, "Central"), HCICodeName(1, "Peripheral")])

    static let advertisingType = HCIValueNames([
        HCICodeName(0, "Connectable undirected - ADV_IND"),
        HCICodeName(1, "Connectable directed - ADV_DIRECT_IND (high duty cycle)"),
        HCICodeName(2, "Scannable undirected - ADV_SCAN_IND"),
        HCICodeName(3, "Non connectable undirected - ADV_NONCONN_IND"),
        HCICodeName(4, "Connectable directed - ADV_DIRECT_IND (low duty cycle)"),
    ])

    static let channelMap = HCIBitNames([HCICodeName(0, "37"), HCICodeName(1, "38"), HCICodeName(2, "39")])

    static let advertisingFilterPolicy = HCIValueNames([
        HCICodeName(0, "Allow Scan Request from Any, Allow Connect Request from Any"),
        HCICodeName(1, "Allow Scan Request from Filter Accept List Only, Allow Connect Request from Any"),
        HCICodeName(2, "Allow Scan Request from Any, Allow Connect Request from Filter Accept List Only"),
        HCICodeName(3, "Allow Scan Request from Filter Accept List Only, Allow Connect Request from Filter Accept List Only"),
    ])

    static let scanType = HCIValueNames([HCICodeName(0, "Passive"), HCICodeName(1, "Active")])

    static let scanningFilterPolicy = HCIValueNames([
        HCICodeName(0, "Accept all advertisements"),
        HCICodeName(1, "Accept only advertisements from devices on the Filter Accept List"),
        HCICodeName(2, "Accept all advertisements, and directed ones to a resolvable address"),
        HCICodeName(3, "Filter Accept List only, and directed ones to a resolvable address"),
    ])

    static let initiatorFilterPolicy = HCIValueNames([
        HCICodeName(0, "Filter Accept List is not used"), HCICodeName(1, "Filter Accept List is used"),
        HCICodeName(2, "Decision PDUs"), HCICodeName(3, "Filter Accept List and decision PDUs"),
    ])

    static let filterDuplicates = HCIValueNames([
        HCICodeName(0, "Disabled"), HCICodeName(1, "Enabled"), HCICodeName(2, "Enabled, reset for each scan period"),
    ])

    static let phy = HCIValueNames([HCICodeName(1, "LE 1M"), HCICodeName(2, "LE 2M"), HCICodeName(3, "LE Coded")])

    static let secondaryPHY = HCIValueNames([
        HCICodeName(0, "No packets"), HCICodeName(1, "LE 1M"), HCICodeName(2, "LE 2M"), HCICodeName(3, "LE Coded"),
    ])

    static let phyBits = HCIParameters.phyBits

    static let allPHYs = HCIBitNames([HCICodeName(0, "No TX PHY preference"), HCICodeName(1, "No RX PHY preference")])

    static let phyOptions = HCIValueNames([
        HCICodeName(0, "No preferred coding"), HCICodeName(1, "S=2 coding preferred"),
        HCICodeName(2, "S=8 coding preferred"), HCICodeName(3, "S=2 coding required"),
        HCICodeName(4, "S=8 coding required"),
    ])

    static let advertisingEventProperties = HCIBitNames([
        HCICodeName(0, "Connectable"), HCICodeName(1, "Scannable"), HCICodeName(2, "Directed"),
        HCICodeName(3, "High Duty Cycle Directed Connectable"), HCICodeName(4, "Use legacy advertising PDUs"),
        HCICodeName(5, "Anonymous advertising"), HCICodeName(6, "Include TxPower"),
        HCICodeName(7, "Use decision PDUs"), HCICodeName(8, "Include AdvA in decision PDUs"),
        HCICodeName(9, "Include ADI in decision PDUs"),
    ])

    static let dataOperation = HCIValueNames([
        HCICodeName(0, "Intermediate fragment"), HCICodeName(1, "First fragment"), HCICodeName(2, "Last fragment"),
        HCICodeName(3, "Complete extended advertising data"), HCICodeName(4, "Unchanged data"),
    ])

    static let fragmentPreference = HCIValueNames([
        HCICodeName(0, "Fragment all"), HCICodeName(1, "Minimize fragmentation"),
    ])

    static let privacyMode = HCIValueNames([HCICodeName(0, "Network Privacy Mode"), HCICodeName(1, "Device Privacy Mode")])

    static let channelSelectionAlgorithm = HCIValueNames([HCICodeName(0, "#1"), HCICodeName(1, "#2")])

    static let linkType = HCIValueNames([HCICodeName(0, "SCO"), HCICodeName(1, "ACL"), HCICodeName(2, "eSCO")])

    static let encryptionEnabled = HCIValueNames([
        HCICodeName(0, "Disabled"), HCICodeName(1, "Enabled with E0 or AES-CCM"),
        HCICodeName(2, "Enabled with AES-CCM"),
    ])

    static let currentMode = HCIValueNames([
        HCICodeName(0, "Active"), HCICodeName(1, "Hold"), HCICodeName(2, "Sniff"), HCICodeName(3, "Park"),
    ])

    static let pageScanRepetitionMode = HCIValueNames([
        HCICodeName(0, "R0"), HCICodeName(1, "R1"), HCICodeName(2, "R2"),
    ])

    static let allowRoleSwitch = HCIValueNames([
        HCICodeName(0, "Stay Central"), HCICodeName(1, "Allow Peripheral"),
    ])

    static let acceptRole = HCIValueNames([
        HCICodeName(0, "Become Central"), HCICodeName(1, "Remain Peripheral"),
    ])

    static let scanEnable = HCIValueNames([
        HCICodeName(0, "No Scans"), HCICodeName(1, "Inquiry Scan"), HCICodeName(2, "Page Scan"),
        HCICodeName(3, "Inquiry Scan + Page Scan"),
    ])

    static let inquiryMode = HCIValueNames([
        HCICodeName(0, "Standard Inquiry Result"), HCICodeName(1, "Inquiry Result with RSSI"),
        HCICodeName(2, "Inquiry Result with RSSI or Extended Inquiry Result"),
    ])

    static let scanTypeBREDR = HCIValueNames([HCICodeName(0, "Standard Scan"), HCICodeName(1, "Interlaced Scan")])

    static let authenticationEnable = HCIValueNames([
        HCICodeName(0, "Authentication not required"), HCICodeName(1, "Authentication required for all connections"),
    ])

    static let linkPolicy = HCIBitNames([
        HCICodeName(0, "Enable Role Switch"), HCICodeName(1, "Enable Hold Mode"),
        HCICodeName(2, "Enable Sniff Mode"),
    ])

    static let keyType = HCIValueNames([
        HCICodeName(0, "Combination Key"), HCICodeName(3, "Debug Combination Key"),
        HCICodeName(4, "Unauthenticated Combination Key from P-192"),
        HCICodeName(5, "Authenticated Combination Key from P-192"), HCICodeName(6, "Changed Combination Key"),
        HCICodeName(7, "Unauthenticated Combination Key from P-256"),
        HCICodeName(8, "Authenticated Combination Key from P-256"),
    ])

    static let ioCapability = HCIValueNames([
        HCICodeName(0, "DisplayOnly"), HCICodeName(1, "DisplayYesNo"), HCICodeName(2, "KeyboardOnly"),
        HCICodeName(3, "NoInputNoOutput"),
    ])

    static let authenticationRequirements = HCIValueNames([
        HCICodeName(0, "No Bonding - MITM not required"), HCICodeName(1, "No Bonding - MITM required"),
        HCICodeName(2, "Dedicated Bonding - MITM not required"), HCICodeName(3, "Dedicated Bonding - MITM required"),
        HCICodeName(4, "General Bonding - MITM not required"), HCICodeName(5, "General Bonding - MITM required"),
    ])

    static let airMode = HCIValueNames([
        HCICodeName(0, "u-law log"), HCICodeName(1, "A-law log"), HCICodeName(2, "CVSD"),
        HCICodeName(3, "Transparent"),
    ])

    static let leHostSupport = HCIValueNames([HCICodeName(0, "Disabled"), HCICodeName(1, "Enabled")])

    static let fecRequired = HCIValueNames([HCICodeName(0, "Not required"), HCICodeName(1, "Required")])

    /// Assigned Numbers §2.1: the HCI_Version and LMP_Version values.
    static let coreVersion = HCIValueNames([
        HCICodeName(0, "Bluetooth 1.0b"), HCICodeName(1, "Bluetooth 1.1"), HCICodeName(2, "Bluetooth 1.2"),
        HCICodeName(3, "Bluetooth 2.0"), HCICodeName(4, "Bluetooth 2.1"), HCICodeName(5, "Bluetooth 3.0"),
        HCICodeName(6, "Bluetooth 4.0"), HCICodeName(7, "Bluetooth 4.1"), HCICodeName(8, "Bluetooth 4.2"),
        HCICodeName(9, "Bluetooth 5.0"), HCICodeName(10, "Bluetooth 5.1"), HCICodeName(11, "Bluetooth 5.2"),
        HCICodeName(12, "Bluetooth 5.3"), HCICodeName(13, "Bluetooth 5.4"), HCICodeName(14, "Bluetooth 6.0"),
    ])

    /// LE feature bits a host sets with LE Set Host Feature (Vol 6, Part B, §4.6).
    static let hostFeatureBit = HCIValueNames([
        HCICodeName(32, "Isochronous Channels (Host Support)"), HCICodeName(38, "Connection Subrating (Host Support)"),
        HCICodeName(41, "Advertising Coding Selection (Host Support)"), HCICodeName(47, "Channel Sounding (Host Support)"),
    ])
}
