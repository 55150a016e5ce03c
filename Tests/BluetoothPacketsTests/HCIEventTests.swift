import BluetoothPackets
import ByteReading
import Testing

/// HCI events and the ACL header, as Core v5.4, Vol 4, Part E lays them out.
struct HCIEventTests {
    // MARK: Event header (§5.4.4)

    @Test func `the event header gives the code and exactly the declared parameters`() throws {
        // Command Complete for LE Set Scan Enable (0x200C), status 0, and two stray bytes after it.
        try reading(hex("0E 04 01 0C 20 00 AA BB")) { r throws(DecodeError) in
            let header = try HCIEventHeader(parsing: &r)
            #expect(header.code == 0x0E)
            #expect(header.parameters.remaining == 4)
            #expect(header.parameters.offset == 2)
            #expect(r.remaining == 2)
        }
    }

    @Test func `a parameter length longer than the packet is a bad length at the length byte`() {
        // LE Meta declaring 19 parameter bytes (an LE Connection Complete) with only 2 present.
        let error = parseError(hex("3E 13 01 00")) { r throws(DecodeError) in _ = try HCIEventHeader(parsing: &r) }
        #expect(error == DecodeError(.badLength(declared: 19, available: 2), at: 1, field: "hci.event.length"))
    }

    @Test func `an event without its length byte is truncated`() {
        let error = parseError(hex("3E")) { r throws(DecodeError) in _ = try HCIEventHeader(parsing: &r) }
        #expect(error == DecodeError(.truncated(needed: 1, available: 0), at: 1, field: "hci.event.length"))
    }

    // MARK: Connections

    @Test func `LE Connection Complete gives handle, role, peer and parameters`() throws {
        // §7.7.65.1, after the subevent code: btmon #513 (handle 64, central, 00:1A:7D:1A:FD:C9, 30 ms).
        let bytes = hex("00 40 00 00 00 C9 FD 1A 7D 1A 00 18 00 00 00 F4 01 01")
        try reading(bytes) { r throws(DecodeError) in
            let event = try LEConnectionComplete(parsing: &r, subevent: LESubevent.connectionComplete)
            #expect(event.status == 0)
            #expect(event.handle == 0x0040)
            #expect(event.role == 0)
            #expect(event.peerAddressType == .public)
            #expect(event.peerAddress.description == "00:1A:7D:1A:FD:C9")
            #expect(event.localResolvableAddress == nil)
            #expect(event.interval == 24)
            #expect(event.latency == 0)
            #expect(event.supervisionTimeout == 500)
            #expect(r.isAtEnd)
        }
    }

    @Test func `LE Enhanced Connection Complete v1 reads the two resolvable addresses`() throws {
        // §7.7.65.10: btmon #3290 (handle 65, 00:1A:7D:2E:82:33, 7.5 ms), with made-up resolvable addresses.
        let bytes = hex(
            "00 41 00 01 01 33 82 2E 7D 1A 00  11 22 33 44 55 66  A1 A2 A3 A4 A5 46  06 00 00 00 F4 01 01")
        try reading(bytes) { r throws(DecodeError) in
            let event = try LEConnectionComplete(parsing: &r, subevent: LESubevent.enhancedConnectionComplete)
            #expect(event.handle == 0x0041)
            #expect(event.role == 1)
            #expect(event.peerAddressType == .random)
            #expect(event.peerAddress.description == "00:1A:7D:2E:82:33")
            #expect(event.localResolvableAddress?.description == "66:55:44:33:22:11")
            #expect(event.peerResolvableAddress?.description == "46:A5:A4:A3:A2:A1")
            #expect(event.interval == 6)
            #expect(event.supervisionTimeout == 500)
            #expect(r.isAtEnd)
        }
    }

    @Test func `LE Enhanced Connection Complete v2 reads the same fields before its advertising handle`() throws {
        // §7.7.65.10 (v2, subevent 0x29): Advertising_Handle and Sync_Handle follow Central_Clock_Accuracy.
        let bytes = hex(
            "00 42 00 00 02 01 02 03 04 05 06  00 00 00 00 00 00  00 00 00 00 00 00  28 00 04 00 C8 00 05  01 FF FF")
        try reading(bytes) { r throws(DecodeError) in
            let event = try LEConnectionComplete(parsing: &r, subevent: LESubevent.enhancedConnectionCompleteV2)
            #expect(event.handle == 0x0042)
            #expect(event.peerAddressType == .publicIdentity)
            #expect(event.peerAddress.description == "06:05:04:03:02:01")
            #expect(event.interval == 40)
            #expect(event.latency == 4)
            #expect(event.supervisionTimeout == 200)
            #expect(r.remaining == 3)
        }
    }

    @Test func `a connection handle keeps only its 12 bits`() throws {
        // §5.4.2: the top four bits of the handle word are not part of the handle.
        try reading(hex("00 40 F0 08")) { r throws(DecodeError) in
            let event = try DisconnectionComplete(parsing: &r)
            #expect(event.handle == 0x0040)
        }
    }

    @Test func `Disconnection Complete gives status, handle and reason`() throws {
        // §7.7.5: btmon #3094 (handle 64, connection timeout 0x08).
        try reading(hex("00 40 00 08")) { r throws(DecodeError) in
            let event = try DisconnectionComplete(parsing: &r)
            #expect(event.status == 0)
            #expect(event.handle == 64)
            #expect(event.reason == 0x08)
        }
        // Vol 1, Part F, §1.3 (btmon prints the same words).
        #expect(HCINames.error(0x08) == "Connection Timeout")
        #expect(HCINames.error(0x13) == "Remote User Terminated Connection")
    }

    @Test func `a short Disconnection Complete is truncated at the reason`() {
        let error = parseError(hex("00 40 00")) { r throws(DecodeError) in _ = try DisconnectionComplete(parsing: &r) }
        #expect(error == DecodeError(.truncated(needed: 1, available: 0), at: 3, field: "reason"))
    }

    // MARK: Advertising reports

    /// tshark reference frame 61 (after the subevent code): two reports in one LE Advertising Report.
    static let twoReports = hex(
        """
        02
        02 00 C1 3F 2B 7D 1A 00 0E 02 01 06 05 16 1A 18 1B 07 04 08 45 6E 76 AF
        03 01 2A 24 10 82 2E DC 1A 02 01 04 13 FF FF FF 01 00 00 00 89 38 5E B0 94 23 55 51 82 56 8B 96 02 0A 04 A0
        """)

    @Test func `an LE Advertising Report with two reports gives both, in order`() throws {
        // §7.7.65.2; each report's fields follow one another, as btmon and Wireshark read them.
        var reports: [String] = []
        try reading(Self.twoReports) { r throws(DecodeError) in
            try LegacyAdvertisingReport.forEach(in: &r) { report in
                reports.append(
                    "\(report.eventType) \(report.addressType.name) \(report.address) rssi \(report.rssi) "
                        + "data@\(report.dataOffset) \(Hex.encode(report.data))")
            }
            #expect(r.isAtEnd)
        }
        #expect(
            reports == [
                "2 public 00:1A:7D:2B:3F:C1 rssi -81 data@10 02010605161a181b070408456e76",
                "3 random DC:2E:82:10:24:2A rssi -96 data@34 02010413ffffff0100000089385eb09423555182568b96020a04",
            ])
    }

    @Test func `a report whose data runs past the event stops parsing after the good reports`() {
        // The first report of frame 61, then a second that declares 20 data bytes and has 5.
        let bytes = hex(
            """
            02
            02 00 C1 3F 2B 7D 1A 00 0E 02 01 06 05 16 1A 18 1B 07 04 08 45 6E 76 AF
            03 01 2A 24 10 82 2E DC 14 02 01 04 02 0A
            """)
        var delivered: [String] = []
        let error = parseError(bytes) { r throws(DecodeError) in
            try LegacyAdvertisingReport.forEach(in: &r) { delivered.append($0.address.description) }
        }
        #expect(delivered == ["00:1A:7D:2B:3F:C1"])
        #expect(error == DecodeError(.truncated(needed: 20, available: 5), at: 34, field: "data"))
    }

    @Test func `a legacy report data length above 31 is rejected`() {
        // §7.7.65.2: Data_Length is 0 to 31.
        let error = parseError(hex("01 00 00 C1 3F 2B 7D 1A 00 20")) { r throws(DecodeError) in
            try LegacyAdvertisingReport.forEach(in: &r) { _ in }
        }
        #expect(error == DecodeError(.badValue("data length 32 exceeds 31"), at: 9, field: "data_length"))
    }

    @Test func `an Extended Advertising Report gives every field`() throws {
        // §7.7.65.13: tshark reference frame 3104 (legacy ADV_IND through the extended report).
        let bytes = hex(
            """
            01 13 00 01 07 06 97 17 37 CD 01 00 FF 7F AB 00 00 00 00 00 00 00 00 00 13
            02 01 06 0B FF C7 09 D3 3A 14 60 7A D7 06 33 03 03 5A FD
            """)
        var seen = 0
        try reading(bytes) { r throws(DecodeError) in
            try ExtendedAdvertisingReport.forEach(in: &r) { report in
                seen += 1
                #expect(report.eventType == 0x0013)
                #expect(report.isLegacy)
                #expect(report.dataStatus == 0)
                #expect(report.addressType == .random)
                #expect(report.address.description == "CD:37:17:97:06:07")
                #expect(report.primaryPHY == 1)
                #expect(report.secondaryPHY == 0)
                #expect(report.sid == 0xFF)
                #expect(report.txPower == 127)
                #expect(report.rssi == -85)
                #expect(report.periodicInterval == 0)
                #expect(report.directAddressType == .public)
                #expect(report.directAddress.value == 0)
                #expect(report.dataOffset == 25)
                #expect(Hex.encode(report.data) == "0201060bffc709d33a14607ad7063303035afd")
            }
        }
        #expect(seen == 1)
    }

    @Test(arguments: [(0x0000 as UInt16, 0 as UInt8), (0x0020, 1), (0x0040, 2), (0x0025, 1)])
    func `the data status is bits 5 and 6 of the extended event type`(eventType: UInt16, status: UInt8) throws {
        // §7.7.65.13: 00 complete, 01 incomplete with more to come, 10 incomplete and truncated.
        var bytes: [UInt8] = [0x01, UInt8(eventType & 0xFF), UInt8(eventType >> 8)]
        bytes += hex("00 01 02 03 04 05 06 01 02 03 7F C0 00 00 00 00 00 00 00 00 00 00")
        try reading(bytes) { r throws(DecodeError) in
            try ExtendedAdvertisingReport.forEach(in: &r) { report in
                #expect(report.dataStatus == status)
                #expect(!report.isLegacy)
                #expect(report.sid == 3)
                #expect(report.secondaryPHY == 2)
                #expect(report.data.isEmpty)
            }
        }
    }

    // MARK: ACL header (§5.4.2)

    @Test(arguments: [
        ("40 00 01 00 AA", 0x0040 as UInt16, 0 as UInt8),  // first non-flushable (host to controller)
        ("41 10 01 00 AA", 0x0041, 1),  // continuing fragment
        ("40 20 01 00 AA", 0x0040, 2),  // first automatically flushable (controller to host)
        ("FF 3F 01 00 AA", 0x0FFF, 3),  // complete L2CAP PDU
        ("40 E0 01 00 AA", 0x0040, 2),  // broadcast flags (bits 14–15) are not part of PB
    ])
    func `the ACL header splits handle and packet boundary flags`(bytes: String, handle: UInt16, pb: UInt8) throws {
        try reading(hex(bytes)) { r throws(DecodeError) in
            let header = try ACLHeader(parsing: &r)
            #expect(header.handle == handle)
            #expect(header.packetBoundary == pb)
            #expect(header.isContinuation == (pb == 1))
            #expect(header.data.remaining == 1)
        }
    }

    @Test func `an ACL length longer than the data is a bad length`() {
        let error = parseError(hex("40 20 09 00 05 00 04 00 1B")) { r throws(DecodeError) in
            _ = try ACLHeader(parsing: &r)
        }
        #expect(error == DecodeError(.badLength(declared: 9, available: 5), at: 2, field: "acl.length"))
    }
}
