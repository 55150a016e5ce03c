import BluetoothPackets
import ByteReading
import Testing

/// L2CAP signalling commands (Core v5.4, Vol 3, Part A, §4). Expected values are the decodes of
/// Wireshark 4.0.17 (tshark -V) and btmon 5.66 of the same bytes, as cited.
struct SignalCommandTests {
    func command(_ code: UInt8, _ parameters: String) throws(DecodeError) -> SignalCommand {
        try reading(hex(parameters)) { r throws(DecodeError) in try SignalCommand(code: code, parsing: &r) }
    }

    @Test func `connection request and its pending and final responses`() throws {
        // bluetooth_sample__btsnoop_hci.log frames 818, 820, 821; tshark: PSM 0x0001 (SDP), SCID 0x0040,
        // DCID 0x0700, result 1 (pending) status 2, then result 0.
        #expect(try command(0x02, "01 00 40 00") == .connectionRequest(psm: 0x0001, sourceCID: 0x0040))
        #expect(
            try command(0x03, "00 07 40 00 01 00 02 00")
                == .connectionResponse(destinationCID: 0x0700, sourceCID: 0x0040, result: 1, status: 2))
        #expect(
            try command(0x03, "00 07 40 00 00 00 00 00")
                == .connectionResponse(destinationCID: 0x0700, sourceCID: 0x0040, result: 0, status: 0))
    }

    @Test func `configure request options: MTU, and the mode of retransmission and flow control`() throws {
        // iSAP__hci_dump.pklg frame 39; tshark: DCID 0x0040, flags 0, option MTU 250.
        #expect(
            try command(0x04, "40 00 00 00 01 02 FA 00") == .configureRequest(destinationCID: 0x0040, flags: 0, mtu: 250, mode: nil))
        // §5.4: option 0x04 (9 bytes), mode 3 (enhanced retransmission), after an MTU option with the hint bit.
        #expect(
            try command(0x04, "44 00 00 00 81 02 00 04 04 09 03 3F 00 00 00 00 00 00 00")
                == .configureRequest(destinationCID: 0x0044, flags: 0, mtu: 1024, mode: 3))
        // btmon on the BR/EDR bearer capture (frame 19): Source CID 64, flags 0, result success.
        #expect(try command(0x05, "40 00 00 00 00 00") == .configureResponse(sourceCID: 0x0040, flags: 0, result: 0, mtu: nil))
        // An option whose length runs past the command.
        #expect(throws: DecodeError.self) { try command(0x04, "40 00 00 00 01 04 FA 00") }
    }

    @Test func `disconnection request and response`() throws {
        // bluetooth_sample frames 861, 862; tshark: DCID 0x0700, SCID 0x0040.
        #expect(try command(0x06, "00 07 40 00") == .disconnectionRequest(destinationCID: 0x0700, sourceCID: 0x0040))
        #expect(try command(0x07, "00 07 40 00") == .disconnectionResponse(destinationCID: 0x0700, sourceCID: 0x0040))
    }

    @Test func `LE credit based connection request and response`() throws {
        // btmon on the LE-credit EATT capture (frames 67, 69): PSM 39, Source CID 64, MTU 517, MPS 64,
        // Credits 4; Destination CID 80, MTU 100, MPS 64, Credits 4, result success.
        #expect(
            try command(0x14, "27 00 40 00 05 02 40 00 04 00")
                == .leCreditConnectionRequest(psm: 0x0027, sourceCID: 0x0040, mtu: 517, mps: 64, credits: 4))
        #expect(
            try command(0x15, "50 00 64 00 40 00 04 00 00 00")
                == .leCreditConnectionResponse(destinationCID: 0x0050, mtu: 100, mps: 64, credits: 4, result: 0))
    }

    @Test func `flow control credit indication`() throws {
        // btmon: "LE Flow Control Credit (0x16) ident 3 len 4, Source CID: 64, Credits: 4"; tshark:
        // "LE Flow Control Credit (CID: 0040, Credits: 4)".
        #expect(try command(0x16, "40 00 04 00") == .flowControlCredit(cid: 0x0040, credits: 4))
        #expect(throws: DecodeError.self) { try command(0x16, "40 00 04") }
    }

    @Test func `credit based connection request and response open several channels`() throws {
        // btmon on the EATT capture (frames 67, 69): "Enhanced Credit Connection Request (0x17)": PSM 39,
        // MTU 517, MPS 64, Credits 4, Source CID 64, 65; response MTU 100, MPS 64, Credits 4, success,
        // Destination CID 80, 81.
        #expect(
            try command(0x17, "27 00 05 02 40 00 04 00 40 00 41 00")
                == .creditConnectionRequest(psm: 0x0027, mtu: 517, mps: 64, credits: 4, sourceCIDs: [0x0040, 0x0041]))
        #expect(
            try command(0x18, "64 00 40 00 04 00 00 00 50 00 51 00")
                == .creditConnectionResponse(mtu: 100, mps: 64, credits: 4, result: 0, destinationCIDs: [0x0050, 0x0051]))
        // §4.26: result 0x0004 (some refused), the refused one's DCID 0.
        #expect(
            try command(0x18, "64 00 40 00 04 00 04 00 50 00 00 00")
                == .creditConnectionResponse(mtu: 100, mps: 64, credits: 4, result: 4, destinationCIDs: [0x0050, 0]))
    }

    @Test func `a credit based request holds at most five CIDs, two bytes each`() throws {
        let six = parseError(hex("27 00 05 02 40 00 04 00 40 00 41 00 42 00 43 00 44 00 45 00")) {
            r throws(DecodeError) in _ = try SignalCommand(code: 0x17, parsing: &r)
        }
        #expect(six?.field == "l2cap.scid")
        let odd = parseError(hex("64 00 40 00 04 00 00 00 50 00 51")) { r throws(DecodeError) in
            _ = try SignalCommand(code: 0x18, parsing: &r)
        }
        #expect(odd?.field == "l2cap.dcid")
    }

    @Test func `credit based reconfiguration`() throws {
        // §4.27: MTU 200, MPS 100 for the sender's channels 0x0040 and 0x0041; the response's result.
        #expect(
            try command(0x19, "C8 00 64 00 40 00 41 00")
                == .creditReconfigureRequest(mtu: 200, mps: 100, destinationCIDs: [0x0040, 0x0041]))
        #expect(try command(0x1A, "00 00") == .creditReconfigureResponse(result: 0))
    }

    @Test func `other commands keep only their data`() throws {
        #expect(try command(0x12, "06 00 0C 00 00 00 F4 01") == .other)
        #expect(try command(0x0A, "02 00") == .other)
    }

    @Test func `PSM names`() {
        // Bluetooth Assigned Numbers, §5.3 (Wireshark's packet-btl2cap.h has the same values).
        #expect(L2CAPPSM.name(0x0001)?.description == "sdp")
        #expect(L2CAPPSM.name(0x001F)?.description == "att")
        #expect(L2CAPPSM.name(0x0023)?.description == "ipsp")
        #expect(L2CAPPSM.name(0x0025)?.description == "ots")
        #expect(L2CAPPSM.name(0x0027)?.description == "eatt")
        #expect(L2CAPPSM.name(0x0081)?.description == "dynamic")
        #expect(L2CAPPSM.name(0x1001)?.description == "dynamic")
        #expect(L2CAPPSM.name(0x0029) == nil)
    }
}
