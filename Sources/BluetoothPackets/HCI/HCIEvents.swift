import ByteReading

/// HCI event codes Bluetape decodes (Core v5.4, Vol 4, Part E, §7.7).
public enum HCIEventCode {
    public static let disconnectionComplete: UInt8 = 0x05
    public static let encryptionChange: UInt8 = 0x08
    public static let commandComplete: UInt8 = 0x0E
    public static let commandStatus: UInt8 = 0x0F
    public static let numberOfCompletedPackets: UInt8 = 0x13
    public static let encryptionKeyRefreshComplete: UInt8 = 0x30
    public static let leMeta: UInt8 = 0x3E
    public static let encryptionChangeV2: UInt8 = 0x59
    public static let vendor: UInt8 = 0xFF
}

/// LE Meta subevent codes (Core v5.4, Vol 4, Part E, §7.7.65).
public enum LESubevent {
    public static let connectionComplete: UInt8 = 0x01
    public static let advertisingReport: UInt8 = 0x02
    public static let connectionUpdateComplete: UInt8 = 0x03
    public static let readRemoteFeaturesComplete: UInt8 = 0x04
    public static let longTermKeyRequest: UInt8 = 0x05
    public static let dataLengthChange: UInt8 = 0x07
    public static let enhancedConnectionComplete: UInt8 = 0x0A
    public static let directedAdvertisingReport: UInt8 = 0x0B
    public static let phyUpdateComplete: UInt8 = 0x0C
    public static let extendedAdvertisingReport: UInt8 = 0x0D
    public static let enhancedConnectionCompleteV2: UInt8 = 0x29
}

/// The event header: code and parameter length; the parameters must be all there.
public struct HCIEventHeader {
    public var code: UInt8
    public var parameters: ByteReader

    /// Reads an HCI event packet (without H4 byte). A parameter length that disagrees with the
    /// bytes present is an error; extra bytes after the declared length are ignored, as btmon does.
    public init(parsing reader: inout ByteReader) throws(DecodeError) {
        code = try reader.u8("hci.event.code")
        let length = Int(try reader.u8("hci.event.length"))
        guard length <= reader.remaining else {
            throw DecodeError(
                .badLength(declared: length, available: reader.remaining), at: reader.offset - 1,
                field: "hci.event.length")
        }
        parameters = try reader.sub(length, "hci.event.parameters")
    }
}

/// Disconnection Complete (§7.7.5).
public struct DisconnectionComplete {
    public var status: UInt8
    public var handle: UInt16
    public var reason: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = try r.u8("status")
        handle = try r.u16le("connection_handle") & 0x0FFF
        reason = try r.u8("reason")
    }
}

/// Encryption Change v1 and v2 (§7.7.8, §7.7.8.2).
public struct EncryptionChange {
    public var status: UInt8
    public var handle: UInt16
    public var enabled: UInt8
    public var keySize: UInt8?

    public init(parsing r: inout ByteReader, v2: Bool) throws(DecodeError) {
        status = try r.u8("status")
        handle = try r.u16le("connection_handle") & 0x0FFF
        enabled = try r.u8("encryption_enabled")
        keySize = v2 ? try r.u8("key_size") : nil
    }
}

/// Command Complete (§7.7.14): which command, and its status when it returns one.
public struct CommandComplete {
    public var opcode: UInt16
    public var status: UInt8?
    public var returnParameters: UnsafeRawBufferPointer

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        _ = try r.u8("num_hci_command_packets")
        opcode = try r.u16le("command_opcode")
        returnParameters = r.unread
        status = r.peekU8()
    }
}

/// Command Status (§7.7.15).
public struct CommandStatus {
    public var status: UInt8
    public var opcode: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = try r.u8("status")
        _ = try r.u8("num_hci_command_packets")
        opcode = try r.u16le("command_opcode")
    }
}

/// LE Connection Complete (§7.7.65.1) and Enhanced Connection Complete v1/v2 (§7.7.65.10).
public struct LEConnectionComplete {
    public var status: UInt8
    public var handle: UInt16
    /// 0 central, 1 peripheral.
    public var role: UInt8
    public var peerAddressType: AddressType
    public var peerAddress: BluetoothAddress
    public var localResolvableAddress: BluetoothAddress?
    public var peerResolvableAddress: BluetoothAddress?
    /// In units of 1.25 ms.
    public var interval: UInt16
    public var latency: UInt16
    /// In units of 10 ms.
    public var supervisionTimeout: UInt16

    public init(parsing r: inout ByteReader, subevent: UInt8) throws(DecodeError) {
        status = try r.u8("status")
        handle = try r.u16le("connection_handle") & 0x0FFF
        role = try r.u8("role")
        peerAddressType = AddressType(rawValue: try r.u8("peer_address_type"))
        peerAddress = try BluetoothAddress(reading: &r, "peer_address")
        if subevent != LESubevent.connectionComplete {
            localResolvableAddress = try BluetoothAddress(reading: &r, "local_resolvable_private_address")
            peerResolvableAddress = try BluetoothAddress(reading: &r, "peer_resolvable_private_address")
        }
        interval = try r.u16le("connection_interval")
        latency = try r.u16le("peripheral_latency")
        supervisionTimeout = try r.u16le("supervision_timeout")
        _ = try r.u8("central_clock_accuracy")
    }
}

/// LE Connection Update Complete (§7.7.65.3).
public struct LEConnectionUpdateComplete {
    public var status: UInt8
    public var handle: UInt16
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = try r.u8("status")
        handle = try r.u16le("connection_handle") & 0x0FFF
        interval = try r.u16le("connection_interval")
        latency = try r.u16le("peripheral_latency")
        supervisionTimeout = try r.u16le("supervision_timeout")
    }
}

/// LE Data Length Change (§7.7.65.7).
public struct LEDataLengthChange {
    public var handle: UInt16
    public var maxTxOctets: UInt16
    public var maxTxTime: UInt16
    public var maxRxOctets: UInt16
    public var maxRxTime: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        handle = try r.u16le("connection_handle") & 0x0FFF
        maxTxOctets = try r.u16le("max_tx_octets")
        maxTxTime = try r.u16le("max_tx_time")
        maxRxOctets = try r.u16le("max_rx_octets")
        maxRxTime = try r.u16le("max_rx_time")
    }
}

/// LE PHY Update Complete (§7.7.65.12).
public struct LEPHYUpdateComplete {
    public var status: UInt8
    public var handle: UInt16
    public var txPHY: UInt8
    public var rxPHY: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = try r.u8("status")
        handle = try r.u16le("connection_handle") & 0x0FFF
        txPHY = try r.u8("tx_phy")
        rxPHY = try r.u8("rx_phy")
    }
}

/// One report of an LE Advertising Report (§7.7.65.2). `data` is borrowed from the packet.
public struct LegacyAdvertisingReport {
    /// 0 ADV_IND, 1 ADV_DIRECT_IND, 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP.
    public var eventType: UInt8
    public var addressType: AddressType
    public var address: BluetoothAddress
    public var data: UnsafeRawBufferPointer
    /// Offset of `data` in the packet, for diagnostics.
    public var dataOffset: Int
    public var rssi: Int8

    /// Calls `body` for each report, in order; an error stops at the first broken report, after
    /// the good ones before it have been delivered.
    public static func forEach(
        in r: inout ByteReader, _ body: (LegacyAdvertisingReport) -> Void
    ) throws(DecodeError) {
        let count = Int(try r.u8("num_reports"))
        for _ in 0..<count {
            let eventType = try r.u8("event_type")
            let addressType = AddressType(rawValue: try r.u8("address_type"))
            let address = try BluetoothAddress(reading: &r)
            let length = Int(try r.u8("data_length"))
            guard length <= 31 else {
                throw DecodeError(.badValue("data length \(length) exceeds 31"), at: r.offset - 1, field: "data_length")
            }
            let dataOffset = r.offset
            let data = try r.bytes(length, "data")
            let rssi = try r.i8("rssi")
            body(
                LegacyAdvertisingReport(
                    eventType: eventType, addressType: addressType, address: address, data: data,
                    dataOffset: dataOffset, rssi: rssi))
        }
    }
}

/// One report of an LE Extended Advertising Report (§7.7.65.13).
public struct ExtendedAdvertisingReport {
    /// Bit 0 connectable, 1 scannable, 2 directed, 3 scan response, 4 legacy, 5–6 data status.
    public var eventType: UInt16
    public var addressType: AddressType
    public var address: BluetoothAddress
    public var primaryPHY: UInt8
    public var secondaryPHY: UInt8
    /// 0xFF: no ADI field.
    public var sid: UInt8
    /// 127: not available.
    public var txPower: Int8
    public var rssi: Int8
    public var periodicInterval: UInt16
    public var directAddressType: AddressType
    public var directAddress: BluetoothAddress
    public var data: UnsafeRawBufferPointer
    public var dataOffset: Int

    /// 0 complete, 1 incomplete with more to come, 2 incomplete and truncated.
    public var dataStatus: UInt8 { UInt8((eventType >> 5) & 0x3) }
    public var isLegacy: Bool { eventType & 0x10 != 0 }

    public static func forEach(
        in r: inout ByteReader, _ body: (ExtendedAdvertisingReport) -> Void
    ) throws(DecodeError) {
        let count = Int(try r.u8("num_reports"))
        for _ in 0..<count {
            let eventType = try r.u16le("event_type")
            let addressType = AddressType(rawValue: try r.u8("address_type"))
            let address = try BluetoothAddress(reading: &r)
            let primary = try r.u8("primary_phy")
            let secondary = try r.u8("secondary_phy")
            let sid = try r.u8("advertising_sid")
            let txPower = try r.i8("tx_power")
            let rssi = try r.i8("rssi")
            let periodic = try r.u16le("periodic_advertising_interval")
            let directType = AddressType(rawValue: try r.u8("direct_address_type"))
            let direct = try BluetoothAddress(reading: &r, "direct_address")
            let length = Int(try r.u8("data_length"))
            let dataOffset = r.offset
            let data = try r.bytes(length, "data")
            body(
                ExtendedAdvertisingReport(
                    eventType: eventType, addressType: addressType, address: address, primaryPHY: primary,
                    secondaryPHY: secondary, sid: sid, txPower: txPower, rssi: rssi, periodicInterval: periodic,
                    directAddressType: directType, directAddress: direct, data: data, dataOffset: dataOffset))
        }
    }
}

/// One report of an LE Directed Advertising Report (§7.7.65.11).
public struct DirectedAdvertisingReport {
    public var eventType: UInt8
    public var addressType: AddressType
    public var address: BluetoothAddress
    public var directAddressType: AddressType
    public var directAddress: BluetoothAddress
    public var rssi: Int8

    public static func forEach(
        in r: inout ByteReader, _ body: (DirectedAdvertisingReport) -> Void
    ) throws(DecodeError) {
        let count = Int(try r.u8("num_reports"))
        for _ in 0..<count {
            body(
                DirectedAdvertisingReport(
                    eventType: try r.u8("event_type"), addressType: AddressType(rawValue: try r.u8("address_type")),
                    address: try BluetoothAddress(reading: &r),
                    directAddressType: AddressType(rawValue: try r.u8("direct_address_type")),
                    directAddress: try BluetoothAddress(reading: &r, "direct_address"), rssi: try r.i8("rssi")))
        }
    }
}

/// The ACL data packet header (§5.4.2): handle, packet-boundary and broadcast flags, length.
public struct ACLHeader {
    public var handle: UInt16
    /// 0 first non-flushable (host to controller), 1 continuing fragment, 2 first flushable, 3 complete.
    public var packetBoundary: UInt8
    public var data: ByteReader

    public var isContinuation: Bool { packetBoundary == 1 }

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        let word = try r.u16le("acl.handle")
        handle = word & 0x0FFF
        packetBoundary = UInt8((word >> 12) & 0x3)
        let length = Int(try r.u16le("acl.length"))
        guard length <= r.remaining else {
            throw DecodeError(.badLength(declared: length, available: r.remaining), at: r.offset - 2, field: "acl.length")
        }
        data = try r.sub(length, "acl.data")
    }
}
