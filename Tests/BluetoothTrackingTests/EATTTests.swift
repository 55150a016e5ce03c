import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

/// Enhanced ATT (Core v5.4, Vol 3, Part G, §5.3): several ATT bearers on one connection, each with
/// its own MTU and its own outstanding request, sharing the connection's GATT database.
struct EATTTests {
    /// A connection whose fixed channel discovers a Heart Rate Measurement declaration (value
    /// handle 0x0003) and then opens two EATT channels: ours 0x0040 and 0x0041 (we take 64-byte
    /// SDUs), the peer's 0x0060 and 0x0061 (it takes 100). Returns the discovery response's frame.
    static func connection(_ trace: inout HCITrace) -> Int {
        trace.connect(0x0040, peer: "00:1B:DC:07:31:4E")
        trace.att(0x0040, .sent, "08 01 00 FF FF 03 28")
        let discovery = trace.att(0x0040, .received, "09 07 02 00 10 03 00 37 2A")
        trace.signal(0x0040, .sent, 0x17, id: 5, "27 00 40 00 40 00 05 00 40 00 41 00")
        trace.signal(0x0040, .received, 0x18, id: 5, "64 00 40 00 05 00 00 00 60 00 61 00")
        return discovery
    }

    @Test func `two EATT bearers with interleaved requests pair each response with its own bearer's request`() throws {
        var trace = HCITrace()
        let discovery = Self.connection(&trace)
        let readA = trace.sdu(0x0040, .sent, cid: 0x0060, mps: 64, hex("0A 03 00"))[0]
        let readB = trace.sdu(0x0040, .sent, cid: 0x0061, mps: 64, hex("0A 05 00"))[0]
        let answerB = trace.sdu(0x0040, .received, cid: 0x0041, mps: 64, hex("0B 42"))[0]
        let answerA = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("0B 43"))[0]
        let events = track(trace)
        #expect(events.diagnostics == [])
        let b = try #require(events.att(frame: answerB, op: "read_rsp"))
        #expect(b.handle == 5)
        #expect(b.requestFrame == readB)
        #expect(b.channel == 0x0041)
        #expect(b.bearer == .eatt)
        let a = try #require(events.att(frame: answerA, op: "read_rsp"))
        #expect(a.handle == 3)
        #expect(a.requestFrame == readA)
        #expect(a.channel == 0x0040)
        #expect(a.resolution == "2a37 discovery \(discovery)")
    }

    @Test func `a response on a bearer whose request is elsewhere is reported`() throws {
        var trace = HCITrace()
        _ = Self.connection(&trace)
        trace.sdu(0x0040, .sent, cid: 0x0060, mps: 64, hex("0A 03 00"))
        let stray = trace.sdu(0x0040, .received, cid: 0x0041, mps: 64, hex("0B 42"))[0]
        let events = track(trace)
        #expect(events.diagnostics == ["\(stray):att.response_without_request"])
        #expect(events.att(frame: stray, op: "read_rsp")?.handle == nil)
    }

    @Test func `discovery on the LE fixed channel resolves a notification on an EATT bearer`() throws {
        var trace = HCITrace()
        let discovery = Self.connection(&trace)
        let notification = trace.sdu(0x0040, .received, cid: 0x0041, mps: 64, hex("1B 03 00 06 48"))[0]
        let events = track(trace)
        let notify = try #require(events.att(frame: notification, op: "notify"))
        #expect(notify.resolution == "2a37 discovery \(discovery)")
        #expect(notify.channel == 0x0041)
        #expect(
            jsonLine(events.first { $0.frame == notification }!)
                == #"{"frame":\#(notification),"ts":1710495001.156075,"type":"att","conn":64,"addr":"00:1B:DC:07:31:4E","dir":"recv","opcode":27,"op":"notify","cid":65,"bearer":"eatt","handle":3,"uuid":"2a37","uuid_from":"discovery","uuid_frame":\#(discovery),"value":"0648"}"#
        )
    }

    @Test func `the EATT channel MTU decides whether a Read Response is the first part of a long value`() throws {
        var trace = HCITrace()
        _ = Self.connection(&trace)
        // ATT_MTU on the bearers: the smaller of 64 and 100. On the fixed channel it is still 23.
        trace.sdu(0x0040, .sent, cid: 0x0060, mps: 64, hex("0A 03 00"))
        let part = [UInt8](repeating: 0x31, count: 63)
        let first = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, [0x0B] + part).last!
        trace.sdu(0x0040, .sent, cid: 0x0060, mps: 64, hex("0C 03 00 3F 00"))
        let last = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("0D 32")).last!
        let events = track(trace)
        #expect(events.diagnostics == [])
        #expect(events.att(frame: first, op: "read_rsp")?.partial == true)
        let long = try #require(events.att(frame: last, op: "read_long"))
        #expect(long.value == part + [0x32])
        #expect(long.channel == 0x0040)
        #expect(events.mtuChanges.map { "\($0.channel):\($0.mtu)" } == ["64:64", "65:64"])
    }

    @Test func `Exchange MTU on an EATT bearer is reported and changes no MTU`() throws {
        var trace = HCITrace()
        _ = Self.connection(&trace)
        let request = trace.sdu(0x0040, .sent, cid: 0x0060, mps: 64, hex("02 F7 00"))[0]
        let response = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("03 F7 00"))[0]
        let events = track(trace)
        #expect(events.diagnostics == ["\(request):att.mtu_exchange_off_fixed_channel", "\(response):att.mtu_exchange_off_fixed_channel"])
        #expect(events.att(frame: request, op: "mtu_req")?.exchangedMTU == 247)
        #expect(events.att(frame: response, op: "mtu_rsp")?.requestFrame == request)
        #expect(events.mtuChanges.count == 2)  // the two channels opening, nothing after
    }

    @Test func `indications are confirmed per bearer`() throws {
        var trace = HCITrace()
        _ = Self.connection(&trace)
        let one = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("1D 03 00 01"))[0]
        let two = trace.sdu(0x0040, .received, cid: 0x0041, mps: 64, hex("1D 03 00 02"))[0]
        let confirmTwo = trace.sdu(0x0040, .sent, cid: 0x0061, mps: 64, hex("1E"))[0]
        let confirmOne = trace.sdu(0x0040, .sent, cid: 0x0060, mps: 64, hex("1E"))[0]
        let events = track(trace)
        #expect(events.diagnostics == [])
        #expect(events.att(frame: confirmTwo, op: "confirm")?.requestFrame == two)
        #expect(events.att(frame: confirmOne, op: "confirm")?.requestFrame == one)
    }
}
