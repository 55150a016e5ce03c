import ByteReading

/// What an air sniffer tells about a link-layer packet besides its bytes.
public struct SnifferMetadata: Sendable, Hashable {
    public var channel: UInt8?
    public var rssi: Int8?
    /// nil when the sniffer did not check the CRC.
    public var crcValid: Bool?
    /// nil when the packet was not encrypted or the MIC was not checked.
    public var micValid: Bool?
    /// The sniffer says the packet is encrypted on air; nil when it does not say. (With a valid
    /// MIC the sniffer has decrypted it.)
    public var encrypted: Bool?
    /// For data packets: true central to peripheral, false the other way, nil unknown.
    public var fromCentral: Bool?
    /// The sniffer decrypted the packet (LE LL pseudo-header flag); nil when it does not say.
    public var decrypted: Bool?
}

/// A link-layer packet: access address, PDU header and payload, CRC (Core v5.4, Vol 6, Part B, §2.1).
public struct LinkLayerPacket {
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    public var accessAddress: UInt32
    public var header0: UInt8
    public var length: Int
    public var payload: ByteReader
    public var crc: UInt32?
    public var metadata: SnifferMetadata
    /// The bytes the CRC covers (header and payload), for checking it.
    public var pdu: UnsafeRawBufferPointer

    public var isAdvertising: Bool { accessAddress == Self.advertisingAccessAddress }

    /// Reads a sniffer record of the given framing: nRF Sniffer (272), LE LL with pseudo-header (256)
    /// or a bare link-layer packet (251, and USER0 as Ubertooth-style tools write).
    public init(linkType: UInt32, parsing r: inout ByteReader) throws(DecodeError) {
        var metadata = SnifferMetadata()
        switch linkType {
        case 272:
            _ = try r.u8("nordic.board")
            // Protocol 2/3 header: payload length (2), protocol version, packet counter (2), packet id.
            _ = try r.u16le("nordic.payload_length")
            _ = try r.u8("nordic.protocol_version")
            _ = try r.u16le("nordic.packet_counter")
            _ = try r.u8("nordic.packet_id")
            let headerLength = Int(try r.u8("nordic.header_length"))
            guard headerLength >= 10 else {
                throw DecodeError(.badValue("header length \(headerLength)"), at: r.offset - 1, field: "nordic.header_length")
            }
            let flags = try r.u8("nordic.flags")
            metadata.channel = try r.u8("nordic.channel")
            metadata.rssi = Int8(truncatingIfNeeded: -Int(try r.u8("nordic.rssi")))
            _ = try r.u16le("nordic.event_counter")
            _ = try r.u32le("nordic.timestamp")
            try r.skip(headerLength - 10, "nordic.header")
            metadata.crcValid = flags & 0x01 != 0
            metadata.fromCentral = flags & 0x02 != 0
            metadata.encrypted = flags & 0x04 != 0
            if flags & 0x04 != 0 { metadata.micValid = flags & 0x08 != 0 }
        case 256:
            metadata.channel = try r.u8("le_ll.rf_channel")
            let signal = try r.i8("le_ll.signal_power")
            _ = try r.u8("le_ll.noise_power")
            _ = try r.u8("le_ll.access_address_offenses")
            _ = try r.u32le("le_ll.reference_access_address")
            let flags = try r.u16le("le_ll.flags")
            if flags & 0x0002 != 0 { metadata.rssi = signal }
            metadata.decrypted = flags & 0x0008 != 0
            // PDU type 2: data central to peripheral; 3: peripheral to central.
            switch (flags >> 7) & 0x7 {
            case 2: metadata.fromCentral = true
            case 3: metadata.fromCentral = false
            default: break
            }
            if flags & 0x0400 != 0 { metadata.crcValid = flags & 0x0800 != 0 }
            if flags & 0x1000 != 0 { metadata.micValid = flags & 0x2000 != 0 }
        default:
            break
        }
        accessAddress = try r.u32le("ll.access_address")
        let start = r.offset
        let pduReader = r
        header0 = try r.u8("ll.header")
        length = Int(try r.u8("ll.length"))
        // Data PDUs with the CP bit carry a CTEInfo byte before the payload.
        if accessAddress != Self.advertisingAccessAddress, header0 & 0x20 != 0 { _ = try r.u8("ll.cte_info") }
        payload = try r.sub(length, "ll.payload")
        var pduBytes = pduReader
        pdu = try pduBytes.bytes(r.offset - start)
        crc = r.remaining >= 3 ? UInt32(try r.u24le("ll.crc")) : nil
        self.metadata = metadata
    }

    /// Checks the CRC with the initial value of its channel (0x555555 on advertising channels).
    public func crcMatches(initial: UInt32) -> Bool? {
        guard let crc else { return nil }
        return LinkLayerCRC.compute(pdu, initial: initial) == Self.reverse24(crc)
    }

    static func reverse24(_ value: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for i in 0..<24 where value & (1 << UInt32(i)) != 0 { out |= 1 << UInt32(23 - i) }
        return out
    }
}

/// The link-layer CRC-24 (polynomial x²⁴+x¹⁰+x⁹+x⁶+x⁴+x³+x+1), LSB first over the PDU.
public enum LinkLayerCRC {
    public static func compute(_ bytes: UnsafeRawBufferPointer, initial: UInt32) -> UInt32 {
        // Shift register kept in transmission order: bit 23 is the first bit out.
        var state = initial
        for byte in bytes {
            var b = byte
            for _ in 0..<8 {
                let feedback = ((state >> 23) ^ UInt32(b & 1)) & 1
                state = (state << 1) & 0xFF_FFFF
                if feedback != 0 { state ^= 0x00_065B }
                b >>= 1
            }
        }
        return state
    }
}

/// Advertising-channel PDU types (Vol 6, Part B, §2.3).
public enum AdvertisingPDUType {
    public static func name(_ type: UInt8) -> String {
        switch type {
        case 0: "adv_ind"
        case 1: "adv_direct_ind"
        case 2: "adv_nonconn_ind"
        case 3: "scan_req"
        case 4: "scan_rsp"
        case 5: "connect_ind"
        case 6: "adv_scan_ind"
        case 7: "ext"
        case 8: "aux_connect_rsp"
        default: "type_\(type)"
        }
    }
}

/// CONNECT_IND's LLData (§2.3.3.1): what a sniffer needs to follow the connection.
public struct ConnectIndication {
    public var initiator: BluetoothAddress
    public var initiatorRandom: Bool
    public var advertiser: BluetoothAddress
    public var advertiserRandom: Bool
    public var accessAddress: UInt32
    public var crcInit: UInt32
    public var interval: UInt16
    public var latency: UInt16
    public var timeout: UInt16

    public init(header0: UInt8, parsing r: inout ByteReader) throws(DecodeError) {
        initiatorRandom = header0 & 0x40 != 0
        advertiserRandom = header0 & 0x80 != 0
        initiator = try BluetoothAddress(reading: &r, "ll.init_a")
        advertiser = try BluetoothAddress(reading: &r, "ll.adv_a")
        accessAddress = try r.u32le("ll.access_address")
        crcInit = try r.u24le("ll.crc_init")
        _ = try r.u8("ll.win_size")
        _ = try r.u16le("ll.win_offset")
        interval = try r.u16le("ll.interval")
        latency = try r.u16le("ll.latency")
        timeout = try r.u16le("ll.timeout")
        try r.skip(5, "ll.channel_map")
        _ = try r.u8("ll.hop")
    }
}

/// The extended header of ADV_EXT_IND / AUX_ADV_IND and friends (§2.3.4).
public struct ExtendedAdvertisingHeader {
    public var advertiser: BluetoothAddress?
    public var target: BluetoothAddress?
    public var sid: UInt8?
    public var txPower: Int8?
    public var hasAuxPointer: Bool
    public var data: UnsafeRawBufferPointer

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        let first = try r.u8("ll.ext.header_length")
        let headerLength = Int(first & 0x3F)
        var header = try r.sub(headerLength, "ll.ext.header")
        var advertiser: BluetoothAddress?
        var target: BluetoothAddress?
        var sid: UInt8?
        var txPower: Int8?
        var aux = false
        if headerLength > 0 {
            let flags = try header.u8("ll.ext.flags")
            if flags & 0x01 != 0 { advertiser = try BluetoothAddress(reading: &header, "ll.ext.adv_a") }
            if flags & 0x02 != 0 { target = try BluetoothAddress(reading: &header, "ll.ext.target_a") }
            if flags & 0x04 != 0 { _ = try header.u8("ll.ext.cte_info") }
            if flags & 0x08 != 0 { sid = UInt8((try header.u16le("ll.ext.adi") >> 12) & 0xF) }
            if flags & 0x10 != 0 {
                try header.skip(3, "ll.ext.aux_ptr")
                aux = true
            }
            if flags & 0x20 != 0 { try header.skip(18, "ll.ext.sync_info") }
            if flags & 0x40 != 0 { txPower = try header.i8("ll.ext.tx_power") }
        }
        self.advertiser = advertiser
        self.target = target
        self.sid = sid
        self.txPower = txPower
        hasAuxPointer = aux
        data = r.rest()
    }
}

/// LL Control PDU opcodes (§2.4.2).
public enum LLControl {
    public static let encryptionRequest: UInt8 = 0x03
    public static let startEncryptionRequest: UInt8 = 0x05
    public static let startEncryptionResponse: UInt8 = 0x06
    public static let terminateIndication: UInt8 = 0x02
    public static let pauseEncryptionResponse: UInt8 = 0x0B

    public static func name(_ opcode: UInt8) -> String {
        switch opcode {
        case 0x00: "connection_update_ind"
        case 0x01: "channel_map_ind"
        case 0x02: "terminate_ind"
        case 0x03: "enc_req"
        case 0x04: "enc_rsp"
        case 0x05: "start_enc_req"
        case 0x06: "start_enc_rsp"
        case 0x07: "unknown_rsp"
        case 0x08: "feature_req"
        case 0x09: "feature_rsp"
        case 0x0A: "pause_enc_req"
        case 0x0B: "pause_enc_rsp"
        case 0x0C: "version_ind"
        case 0x0D: "reject_ind"
        case 0x0E: "peripheral_feature_req"
        case 0x0F: "connection_param_req"
        case 0x10: "connection_param_rsp"
        case 0x11: "reject_ext_ind"
        case 0x12: "ping_req"
        case 0x13: "ping_rsp"
        case 0x14: "length_req"
        case 0x15: "length_rsp"
        case 0x16: "phy_req"
        case 0x17: "phy_rsp"
        case 0x18: "phy_update_ind"
        case 0x19: "min_used_channels_ind"
        default: "opcode_0x\(String(opcode, radix: 16))"
        }
    }
}
