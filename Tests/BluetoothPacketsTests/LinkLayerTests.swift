import BluetoothPackets
import ByteReading
import TestSupport
import Testing

/// Link-layer packets from an nRF Sniffer capture (Core v5.4, Vol 6, Part B, §2 and §3.1.1).
struct LinkLayerTests {
    @Test func `the nRF Sniffer header gives channel, RSSI and the sniffer's CRC verdict`() throws {
        try reading(LinkLayerSamples.advertisement) { r throws(DecodeError) in
            let packet = try LinkLayerPacket(linkType: 272, parsing: &r)
            #expect(packet.accessAddress == 0x8E89_BED6)
            #expect(packet.isAdvertising)
            #expect(packet.header0 == 0x42)
            #expect(packet.length == 37)
            #expect(packet.payload.remaining == 37)
            #expect(packet.pdu.count == 39)
            #expect(packet.crc == 0x32_7D57)
            #expect(packet.metadata.channel == 37)
            #expect(packet.metadata.rssi == -24)
            #expect(packet.metadata.crcValid == true)
            #expect(packet.metadata.encrypted == false)
        }
    }

    @Test func `the CRC of a good advertising packet is the one Wireshark shows`() throws {
        try reading(LinkLayerSamples.advertisement) { r throws(DecodeError) in
            let packet = try LinkLayerPacket(linkType: 272, parsing: &r)
            // §3.1.1: advertising channels start the CRC shift register at 0x555555.
            #expect(LinkLayerCRC.compute(packet.pdu, initial: 0x55_5555) == 0xEA_BE4C)
            #expect(packet.crcMatches(initial: 0x55_5555) == true)
        }
    }

    @Test func `a corrupted byte or CRC no longer matches`() throws {
        var payloadFlipped = LinkLayerSamples.advertisement
        payloadFlipped[40] ^= 0x01  // one bit of the manufacturer data
        var crcFlipped = LinkLayerSamples.advertisement
        crcFlipped[crcFlipped.count - 1] ^= 0x80
        for bytes in [payloadFlipped, crcFlipped] {
            try reading(bytes) { r throws(DecodeError) in
                let packet = try LinkLayerPacket(linkType: 272, parsing: &r)
                #expect(packet.crcMatches(initial: 0x55_5555) == false)
            }
        }
    }

    @Test func `a data packet's CRC starts from the CRC init of its CONNECT_IND`() throws {
        try reading(LinkLayerSamples.versionIndication) { r throws(DecodeError) in
            let packet = try LinkLayerPacket(linkType: 272, parsing: &r)
            #expect(packet.accessAddress == 0xAF9A_84A1)
            #expect(!packet.isAdvertising)
            #expect(packet.header0 & 0x03 == 3)  // LLID 3: control PDU
            #expect(packet.payload.peekU8() == 0x0C)  // LL_VERSION_IND
            #expect(packet.metadata.fromCentral == true)
            #expect(LinkLayerCRC.compute(packet.pdu, initial: 0x58_65DD) == 0x07_9429)
            #expect(packet.crcMatches(initial: 0x58_65DD) == true)
            #expect(packet.crcMatches(initial: 0x55_5555) == false)
        }
    }

    @Test func `CONNECT_IND gives both addresses and the connection's parameters`() throws {
        try reading(LinkLayerSamples.connectIndication) { r throws(DecodeError) in
            let packet = try LinkLayerPacket(linkType: 272, parsing: &r)
            #expect(packet.header0 & 0x0F == 5)
            #expect(packet.length == 34)
            #expect(packet.crcMatches(initial: 0x55_5555) == true)
            var payload = packet.payload
            let indication = try ConnectIndication(header0: packet.header0, parsing: &payload)
            #expect(indication.initiator.description == "40:F1:98:B9:D1:03")
            #expect(indication.initiatorRandom)
            #expect(indication.advertiser.description == "C0:48:FF:F5:9D:B8")
            #expect(indication.advertiserRandom)
            #expect(indication.accessAddress == 0xAF9A_84A1)
            #expect(indication.crcInit == 0x58_65DD)
            #expect(indication.interval == 24)
            #expect(indication.latency == 0)
            #expect(indication.timeout == 72)
            #expect(payload.isAtEnd)
        }
    }

    @Test func `a CONNECT_IND cut before its hop byte is truncated`() {
        // §2.3.3.1: LLData is 22 bytes; the last one (hop and SCA) is missing here.
        let llData = Array(LinkLayerSamples.connectIndication[23..<56])
        let error = parseError(llData) { r throws(DecodeError) in
            _ = try ConnectIndication(header0: 0xC5, parsing: &r)
        }
        #expect(error == DecodeError(.truncated(needed: 1, available: 0), at: 33, field: "ll.hop"))
    }

    @Test func `a packet whose length runs past the record is truncated at the payload`() {
        // sweyntooth__capture_nxp_ll_length_crash_capture.pcap frame 19: length 114 with 7 bytes after it.
        let record = hex(
            """
            4b 1a 00 02 00 00 00 0a 03 00 00 06 00 00 00 00
            00 70 83 32 9a 02 72 03 00 04 00 02 f7 00 c5 40 54
            """)
        let error = parseError(record) { r throws(DecodeError) in _ = try LinkLayerPacket(linkType: 272, parsing: &r) }
        #expect(error == DecodeError(.truncated(needed: 114, available: 10), at: 23, field: "ll.payload"))
    }

    @Test func `advertising PDU types and control opcodes have their spec names`() {
        #expect(
            (0...8).map { AdvertisingPDUType.name($0) } == [
                "adv_ind", "adv_direct_ind", "adv_nonconn_ind", "scan_req", "scan_rsp", "connect_ind", "adv_scan_ind",
                "ext", "aux_connect_rsp",
            ])
        #expect(LLControl.name(0x0C) == "version_ind")
        #expect(LLControl.name(0x02) == "terminate_ind")
    }
}
