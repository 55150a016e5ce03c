/// Where HCI commands and events hold addresses, keys and names (Core v5.4, Vol 4, Part E, §7).
/// Parameters are listed from their start; what is not listed is left alone.
enum HCITables {
    private static let address: [Field] = [.address]

    /// Commands, by opcode.
    static let commands: [UInt16: [Field]] = [
        0x0405: address,  // Create Connection
        0x0408: address,  // Create Connection Cancel
        0x0409: address,  // Accept Connection Request
        0x040A: address,  // Reject Connection Request
        0x040B: [.address, .key(16)],  // Link Key Request Reply
        0x040C: address,  // Link Key Request Negative Reply
        0x040D: [.address, .skip(1), .key(16)],  // PIN Code Request Reply: length kept, PIN zeroed
        0x040E: address,  // PIN Code Request Negative Reply
        0x0419: address,  // Remote Name Request
        0x041A: address,  // Remote Name Request Cancel
        0x0429: address,  // Accept Synchronous Connection Request
        0x042A: address,  // Reject Synchronous Connection Request
        0x042B: address,  // IO Capability Request Reply
        0x042C: address,  // User Confirmation Request Reply
        0x042D: address,  // User Confirmation Request Negative Reply
        0x042E: [.address, .key(4)],  // User Passkey Request Reply
        0x042F: address,  // User Passkey Request Negative Reply
        0x0430: [.address, .key(16), .key(16)],  // Remote OOB Data Request Reply: C, R
        0x0433: address,  // Remote OOB Data Request Negative Reply
        0x0434: address,  // IO Capability Request Negative Reply
        0x043E: address,  // Enhanced Accept Synchronous Connection Request
        0x0445: [.address, .key(16), .key(16), .key(16), .key(16)],  // Remote OOB Extended Data Request Reply
        0x080B: address,  // Switch Role
        0x0C0D: address,  // Read Stored Link Key
        0x0C11: [.repeated(countSize: 1, [.address, .key(16)])],  // Write Stored Link Key
        0x0C12: address,  // Delete Stored Link Key
        0x0C13: [.name(248)],  // Write Local Name
        0x0C52: [.skip(1), .advertisingData(240)],  // Write Extended Inquiry Response
        0x2005: address,  // LE Set Random Address
        0x2006: [.skip(7), .address],  // LE Set Advertising Parameters: the directed peer
        0x2008: [.sizedAdvertisingData(lengthSize: 1, field: 31)],  // LE Set Advertising Data
        0x2009: [.sizedAdvertisingData(lengthSize: 1, field: 31)],  // LE Set Scan Response Data
        0x200D: [.skip(6), .address],  // LE Create Connection
        0x2011: [.skip(1), .address],  // LE Add Device To Filter Accept List
        0x2012: [.skip(1), .address],  // LE Remove Device From Filter Accept List
        0x2017: [.key(16), .key(16)],  // LE Encrypt: key and plaintext (hosts compute confirm values and STKs with it)
        0x2019: [.skip(2), .key(8), .key(2), .key(16)],  // LE Enable Encryption: Rand, EDIV, LTK
        0x201A: [.skip(2), .key(16)],  // LE Long Term Key Request Reply
        0x2026: [.key(64)],  // LE Generate DHKey: the remote public key
        0x2027: [.skip(1), .address, .key(16), .key(16)],  // LE Add Device To Resolving List: peer and local IRK
        0x2028: [.skip(1), .address],  // LE Remove Device From Resolving List
        0x202B: [.skip(1), .address],  // LE Read Peer Resolvable Address
        0x202C: [.skip(1), .address],  // LE Read Local Resolvable Address
        0x2035: [.skip(1), .address],  // LE Set Advertising Set Random Address
        0x2036: [.skip(12), .address],  // LE Set Extended Advertising Parameters: the directed peer
        0x2037: [.skip(3), .sizedAdvertisingData(lengthSize: 1, field: 251)],  // LE Set Extended Advertising Data
        0x2038: [.skip(3), .sizedAdvertisingData(lengthSize: 1, field: 251)],  // LE Set Extended Scan Response Data
        0x203F: [.skip(2), .sizedAdvertisingData(lengthSize: 1, field: 252)],  // LE Set Periodic Advertising Data
        0x2043: [.skip(3), .address],  // LE Extended Create Connection
        0x2044: [.skip(3), .address],  // LE Periodic Advertising Create Sync
        0x2047: [.skip(1), .address],  // LE Add Device To Periodic Advertiser List
        0x2048: [.skip(1), .address],  // LE Remove Device From Periodic Advertiser List
        0x204E: [.skip(1), .address],  // LE Set Privacy Mode
        0x205E: [.key(64)],  // LE Generate DHKey v2
    ]

    /// Command Complete return parameters after the status byte, by the opcode they answer.
    static let returnParameters: [UInt16: [Field]] = {
        var table: [UInt16: [Field]] = [
            0x1009: address,  // Read BD_ADDR
            0x0C14: [.name(248)],  // Read Local Name
            0x0C51: [.skip(1), .advertisingData(240)],  // Read Extended Inquiry Response
            0x0C57: [.key(16), .key(16)],  // Read Local OOB Data
            0x0C7D: [.key(16), .key(16), .key(16), .key(16)],  // Read Local OOB Extended Data
            0x2017: [.key(16)],  // LE Encrypt: the encrypted block (an STK, a confirm value)
            0x2018: [.key(8)],  // LE Rand: random numbers hosts use for pairing and keys
            0x202B: address,  // LE Read Peer Resolvable Address
            0x202C: address,  // LE Read Local Resolvable Address
        ]
        // Replies about one device answer with its address.
        for opcode: UInt16 in [
            0x0408, 0x040B, 0x040C, 0x040D, 0x040E, 0x041A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F, 0x0430, 0x0433,
            0x0434, 0x0445,
        ] {
            table[opcode] = address
        }
        return table
    }()

    /// Events, by event code (LE Meta and Command Complete are handled apart).
    static let events: [UInt8: [Field]] = [
        0x02: [.repeated(countSize: 1, [.address, .skip(8)])],  // Inquiry Result
        0x03: [.skip(3), .address],  // Connection Complete
        0x04: address,  // Connection Request
        0x07: [.skip(1), .address, .name(248)],  // Remote Name Request Complete
        0x12: [.skip(1), .address],  // Role Change
        0x15: [.repeated(countSize: 1, [.address, .key(16)])],  // Return Link Keys
        0x16: address,  // PIN Code Request
        0x17: address,  // Link Key Request
        0x18: [.address, .key(16)],  // Link Key Notification
        0x20: address,  // Page Scan Repetition Mode Change
        0x22: [.repeated(countSize: 1, [.address, .skip(8)])],  // Inquiry Result with RSSI
        0x2C: [.skip(3), .address],  // Synchronous Connection Complete
        0x2F: [.skip(1), .address, .skip(8), .advertisingData(240)],  // Extended Inquiry Result
        0x31: address,  // IO Capability Request
        0x32: address,  // IO Capability Response
        0x33: [.address, .key(4)],  // User Confirmation Request: the numeric comparison value
        0x34: address,  // User Passkey Request
        0x35: address,  // Remote OOB Data Request
        0x36: [.skip(1), .address],  // Simple Pairing Complete
        0x3B: [.address, .key(4)],  // User Passkey Notification
        0x3C: address,  // Keypress Notification
        0x3D: address,  // Remote Host Supported Features Notification
    ]

    /// LE Meta subevents, after the subevent code (advertising reports are handled apart).
    static let leSubevents: [UInt8: [Field]] = [
        0x01: [.skip(5), .address],  // LE Connection Complete
        0x05: [.skip(2), .key(8), .key(2)],  // LE Long Term Key Request: Rand, EDIV
        0x08: [.skip(1), .key(64)],  // LE Read Local P-256 Public Key Complete
        0x09: [.skip(1), .key(32)],  // LE Generate DHKey Complete
        0x0A: [.skip(5), .address, .address, .address],  // LE Enhanced Connection Complete
        0x0B: [.repeated(countSize: 1, [.skip(2), .address, .skip(1), .address, .skip(1)])],  // Directed Advertising Report
        0x0E: [.skip(5), .address],  // LE Periodic Advertising Sync Established
        0x13: [.skip(2), .address],  // LE Scan Request Received
        0x18: [.skip(9), .address],  // LE Periodic Advertising Sync Transfer Received
        0x24: [.skip(5), .address],  // LE Periodic Advertising Sync Established v2
        0x26: [.skip(9), .address],  // LE Periodic Advertising Sync Transfer Received v2
        0x29: [.skip(5), .address, .address, .address],  // LE Enhanced Connection Complete v2
    ]

    /// Linux monitor records that carry an adapter's address (btsnoop 2001, pcap 254), by opcode.
    static let monitorRecords: [UInt16: [Field]] = [
        0: [.skip(2), .address],  // New Index: type, bus, address, name
        10: address,  // Index Info: address, manufacturer
    ]
}

/// The BlueZ management interface as the Linux monitor records it (control command and control
/// event records, opcodes 16 and 17: cookie, then the opcode or event code, then parameters), from
/// BlueZ's doc/mgmt-api.txt. Keys the kernel hands to bluetoothd are here in the clear.
enum ManagementTables {
    private static let address: [Field] = [.address]
    private static let eir: Field = .sizedAdvertisingData(lengthSize: 2, field: nil)
    private static let names: [Field] = [.name(249), .name(11)]

    /// Commands, by opcode.
    static let commands: [UInt16: [Field]] = {
        var table: [UInt16: [Field]] = [
            0x000F: names,  // Set Local Name
            0x0012: [.skip(1), .repeated(countSize: 2, [.address, .skip(2), .key(16), .skip(1)])],  // Load Link Keys
            0x0013: [.repeated(countSize: 2, [.address, .skip(4), .key(2), .key(8), .key(16)])],  // Load Long Term Keys
            0x0016: [.address, .skip(2), .key(16)],  // PIN Code Reply
            0x001E: [.address, .skip(1), .key(4)],  // User Passkey Reply
            0x0021: [.address, .skip(1), .key(16), .key(16), .key(16), .key(16)],  // Add Remote OOB Data
            0x0030: [.repeated(countSize: 2, [.address, .skip(1), .key(16)])],  // Load IRKs
            0x0035: [.repeated(countSize: 2, [.address, .skip(9)])],  // Load Connection Parameters
        ]
        // Commands about one device start with its address.
        for opcode: UInt16 in [0x0014, 0x0017, 0x0019, 0x001A, 0x001B, 0x001C, 0x001D, 0x001F, 0x0022, 0x0026, 0x0027, 0x0031, 0x0032, 0x0033, 0x0034, 0x0039] {
            table[opcode] = address
        }
        return table
    }()

    /// Command Complete replies after the status byte, by the command they answer.
    static let replies: [UInt16: [Field]] = {
        var table: [UInt16: [Field]] = [
            0x0004: [.address, .skip(14)] + names,  // Read Controller Information
            0x000F: names,  // Set Local Name
            0x0020: [.key(16), .key(16), .key(16), .key(16)],  // Read Local OOB Data
            0x003B: [.skip(1), eir],  // Read Local Out Of Band Extended Data
        ]
        for opcode: UInt16 in [0x0014, 0x0016, 0x0017, 0x0019, 0x001A, 0x001B, 0x001C, 0x001D, 0x001E, 0x001F, 0x0031, 0x0032, 0x0033, 0x0034] {
            table[opcode] = address
        }
        return table
    }()

    /// Events, by event code (Command Complete apart).
    static let events: [UInt16: [Field]] = {
        var table: [UInt16: [Field]] = [
            0x0008: names,  // Local Name Changed
            0x0009: [.skip(1), .address, .skip(2), .key(16), .skip(1)],  // New Link Key
            0x000A: [.skip(1), .address, .skip(4), .key(2), .key(8), .key(16)],  // New Long Term Key
            0x000B: [.address, .skip(5), eir],  // Device Connected
            0x000F: [.address, .skip(2), .key(4)],  // User Confirmation Request
            0x0012: [.address, .skip(6), eir],  // Device Found
            0x0017: [.address, .skip(1), .key(4)],  // Passkey Notify
            0x0018: [.skip(1), .address, .address, .skip(1), .key(16)],  // New Identity Resolving Key
            0x0019: [.skip(1), .address, .skip(2), .key(16)],  // New Signature Resolving Key
        ]
        for code: UInt16 in [0x000C, 0x000D, 0x000E, 0x0010, 0x0011, 0x0014, 0x0015, 0x0016, 0x001A, 0x001B, 0x001C] {
            table[code] = address
        }
        return table
    }()
}
