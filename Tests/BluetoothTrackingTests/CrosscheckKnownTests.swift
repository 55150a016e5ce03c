import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// Bluetape's behaviour on the example frame of each class of difference from Wireshark listed in
/// Tests/Fixtures/reference/crosscheck-known.md.
@Suite(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
struct CrosscheckKnownTests {
    /// The events of one capture that one of its frames completed.
    func completed(by frame: Int, in capture: String) throws -> [Event] {
        let path = try #require(SharedCapture.path(capture))
        return try events(inCapture: path).filter { $0.frame == frame }
    }

    @Test func `1 a handle resolves from its own connection's discovery, not another's`() throws {
        // bluethooth_light_controll frame 49247; Wireshark takes 0x0011 from frame 48482 on connection 0x0001.
        let all = SharedCapture.lightControl
        try #require(!all.isEmpty)
        let write = try #require(all.att(frame: 49247, op: "write_req"))
        #expect(write.connection == 0x03F3)
        #expect(write.handle == 0x0011)
        #expect(write.resolution == "8667556c-9a37-4c91-84ed-54ee27d90049 discovery 47881")
        #expect(write.attribute?.service?.description == "d0611e78-bbb4-4591-a5f8-487910ae4366")
        // Frame 48482 did teach 0x0011 as a declaration, but to connection 0x0001's database.
        let other = try #require(all.att(frame: 48482, op: "read_by_type_rsp"))
        #expect(other.connection == 0x0001)
        #expect(other.discovered?.contains { $0.handle == 0x0011 && $0.endOrValueHandle == 0x0012 } == true)
    }

    @Test func `2 an indication the host sends resolves in the host's own GATT database`() throws {
        // bluethooth_light_controll frame 51226; Wireshark labels 0x0003 as the peer's Device Name.
        let all = SharedCapture.lightControl
        try #require(!all.isEmpty)
        let indication = try #require(all.att(frame: 51226, op: "indicate"))
        #expect(indication.connection == 0x000D)
        #expect(indication.direction == .sent)
        #expect(indication.localServer)
        #expect(indication.handle == 3)
        #expect(indication.resolution == "2a05 cache 47833")
        #expect(indication.attribute?.service?.description == "1801")
        #expect(indication.value == hex("01 00 FF FF"))
        // Frame 47833: the host's server answering the peer's Read By Type for 0x2803 on connection 0x03f3.
        let taught = try #require(all.att(frame: 47833, op: "read_by_type_rsp"))
        #expect(taught.localServer)
        #expect(taught.direction == .sent)
        #expect(taught.discovered?.first { $0.endOrValueHandle == 3 }?.uuid == BluetoothUUID(0x2A05))
    }

    @Test func `3 a response is paired with its own connection's request`() throws {
        // pongbot-mcp frame 726; Wireshark pairs it with frame 725 on connection 0x0043.
        let all = SharedCapture.pongbot
        try #require(!all.isEmpty)
        let response = try #require(all.att(frame: 726, op: "write_rsp"))
        #expect(response.connection == 0x0042)
        #expect(response.requestFrame == 718)
        #expect(response.handle == 0x002A)
        #expect(all.att(frame: 725, op: "write_req")?.connection == 0x0043)
    }

    @Test func `4 a packet with a bad CRC is a diagnostic, not an advertisement`() throws {
        // Tesi_BLE__capture.pcap frame 264: nRF Sniffer "CRC: Error".
        let frame = try completed(by: 264, in: "Tesi_BLE__capture.pcap")
        #expect(frame.map(\.type) == [.diagnostic])
        #expect(frame.first?.diagnostic?.id.description == "ll.bad_crc")
    }

    @Test func `5 a retransmitted data PDU is decoded once`() throws {
        // crackle__le_secure_connections.pcapng frames 59 and 60: one Exchange MTU Request sent twice.
        let capture = "crackle__le_secure_connections.pcapng"
        let first = try completed(by: 59, in: capture)
        #expect(first.map(\.att?.op) == ["mtu_req"])
        #expect(first.first?.att?.direction == .sent)
        #expect(try completed(by: 60, in: capture).isEmpty)
    }

    @Test func `6 an advertising PDU longer than its record is a diagnostic`() throws {
        // sweyntooth__capture_cypress_psoc6_crash_llid.pcapng frame 23.
        let frame = try completed(by: 23, in: "sweyntooth__capture_cypress_psoc6_crash_llid.pcapng")
        #expect(frame.map(\.type) == [.diagnostic])
        let diagnostic = try #require(frame.first?.diagnostic)
        #expect(diagnostic.id.description == "ll.malformed")
        #expect(diagnostic.offset == 23)
        #expect(diagnostic.reason == "ll.payload at offset 23: truncated: needs 21 bytes, 15 left")
    }

    @Test func `7 nothing is decoded from inside a data PDU whose length overruns it`() throws {
        // sweyntooth__capture_nxp_ll_length_crash_capture.pcap frame 19: LL length 114, 7 bytes present.
        let frame = try completed(by: 19, in: "sweyntooth__capture_nxp_ll_length_crash_capture.pcap")
        #expect(frame.map(\.type) == [.diagnostic])
        #expect(frame.first?.diagnostic?.reason == "ll.payload at offset 23: truncated: needs 114 bytes, 10 left")
    }
}
