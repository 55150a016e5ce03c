import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

/// ATT requests and responses paired per connection and per client (Core v5.4, Vol 3, Part F, §3.3.2).
struct TransactionTests {
    @Test func `a response takes its handle from its own connection's request`() throws {
        // The order of pongbot-mcp frames 718, 725, 726, 730: two connections, writes interleaved.
        var trace = HCITrace()
        trace.connect(0x0042, peer: "74:B8:39:DF:CE:4A")
        trace.connect(0x0043, peer: "74:B8:39:DF:CE:4B")
        let write42 = trace.att(0x0042, .sent, "12 2A 00 00 00 41 5C")
        let write43 = trace.att(0x0043, .sent, "12 13 00 01 00")
        let response42 = trace.att(0x0042, .received, "13")
        let response43 = trace.att(0x0043, .received, "13")
        let events = track(trace)
        let first = try #require(events.att(frame: response42, op: "write_rsp"))
        #expect(first.connection == 0x0042)
        #expect(first.handle == 0x002A)
        #expect(first.requestFrame == write42)
        let second = try #require(events.att(frame: response43, op: "write_rsp"))
        #expect(second.connection == 0x0043)
        #expect(second.handle == 0x0013)
        #expect(second.requestFrame == write43)
        #expect(events.diagnostics == [])
    }

    @Test func `requests each way on one connection are paired with their own responses`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        let ourRead = trace.att(0x0040, .sent, "0A 03 00")  // we read the peer's handle 3
        let theirRead = trace.att(0x0040, .received, "0A 05 00")  // the peer reads our handle 5
        let ourAnswer = trace.att(0x0040, .sent, "0B 42 59 45")  // our server answers the peer
        let theirAnswer = trace.att(0x0040, .received, "0B 48 52 4D")  // the peer's server answers us
        let events = track(trace)
        let toThem = try #require(events.att(frame: ourAnswer, op: "read_rsp"))
        #expect(toThem.handle == 5)
        #expect(toThem.localServer)
        #expect(toThem.requestFrame == theirRead)
        let toUs = try #require(events.att(frame: theirAnswer, op: "read_rsp"))
        #expect(toUs.handle == 3)
        #expect(!toUs.localServer)
        #expect(toUs.requestFrame == ourRead)
        #expect(toUs.value == hex("48 52 4D"))
        #expect(events.diagnostics == [])
    }

    @Test func `an error response names the failed request and its handle`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        let request = trace.att(0x0040, .sent, "12 11 00 26 A2")
        // §3.4.1.1: Write Request 0x12 on handle 0x0011 failed with Insufficient Authentication 0x05.
        let error = trace.att(0x0040, .received, "01 12 11 00 05")
        let events = track(trace)
        let failed = try #require(events.att(frame: error, op: "error_rsp"))
        #expect(failed.requestOpcode == 0x12)
        #expect(failed.errorCode == 0x05)
        #expect(failed.handle == 0x0011)
        #expect(failed.requestFrame == request)
        let line = jsonLine(try #require(events.first { $0.frame == error }))
        #expect(
            line.hasSuffix(
                #""request":"write_req","error":5,"error_name":"insufficient_authentication","request_frame":\#(request)}"#
            ))
    }

    @Test func `an error response for another request than the pending one is a diagnostic`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        let error = trace.att(0x0040, .received, "01 12 03 00 03")
        let events = track(trace)
        #expect(events.diagnostics == ["\(error):att.unexpected_response"])
        #expect(events.att(frame: error, op: "error_rsp")?.requestOpcode == 0x12)
    }

    @Test func `a response with no request is a diagnostic and is still emitted`() throws {
        var trace = HCITrace()
        let response = trace.att(0x0040, .received, "13")
        let events = track(trace)
        #expect(events.diagnostics == ["\(response):att.response_without_request"])
        let write = try #require(events.att(frame: response, op: "write_rsp"))
        #expect(write.handle == nil)
        #expect(write.requestFrame == nil)
    }

    @Test func `a request left without response is reported when the next one comes`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        let second = trace.att(0x0040, .sent, "0A 05 00")
        let response = trace.att(0x0040, .received, "0B 01")
        let events = track(trace)
        #expect(events.diagnostics == ["\(second):att.request_without_response"])
        #expect(events.att(frame: response, op: "read_rsp")?.handle == 5)
    }

    @Test(arguments: [(247 as UInt16, 158 as UInt16, 158 as UInt16), (100, 517, 100), (517, 517, 517), (23, 23, 23)])
    func `the MTU is the smaller of the two MTUs exchanged`(client: UInt16, server: UInt16, mtu: UInt16) throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        // §3.4.2: Client Rx MTU in the request, Server Rx MTU in the response.
        let request = trace.l2cap(0x0040, .sent, channel: 4, [0x02] + trace.le16(client))
        let response = trace.l2cap(0x0040, .received, channel: 4, [0x03] + trace.le16(server))
        let events = track(trace)
        let changes = events.compactMap { e -> (Int, MTUChange)? in
            if case .mtu(let m) = e.body { return (e.frame, m) }
            return nil
        }
        #expect(changes.map(\.0) == [response])
        #expect(changes.first?.1.mtu == mtu)
        #expect(changes.first?.1.connection == 0x0040)
        #expect(events.att(frame: response, op: "mtu_rsp")?.requestFrame == request)
    }

    @Test func `an indication is paired with its confirmation`() throws {
        var trace = HCITrace()
        let indication = trace.att(0x0040, .received, "1D 23 00 73 34")
        let confirmation = trace.att(0x0040, .sent, "1E")
        let events = track(trace)
        let confirm = try #require(events.att(frame: confirmation, op: "confirm"))
        #expect(confirm.handle == 0x0023)
        #expect(confirm.requestFrame == indication)
        #expect(events.diagnostics == [])
    }

    @Test func `read multiple responses carry the handles asked for`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0E 03 00 0E 00")
        let plain = trace.att(0x0040, .received, "0F 48 52 4D 06 52")
        trace.att(0x0040, .sent, "20 03 00 0E 00")
        let variable = trace.att(0x0040, .received, "21 03 00 48 52 4D 02 00 06 52")
        let events = track(trace)
        #expect(events.att(frame: plain, op: "read_multi_rsp")?.handles == [3, 14])
        let values = events.atts.filter { $0.frame == variable }.map(\.att)
        #expect(values.map(\.handle) == [3, 14])
        #expect(values.map(\.value) == [hex("48 52 4D"), hex("06 52")])
    }

    @Test func `a multiple handle value notification becomes one event per value`() throws {
        var trace = HCITrace()
        let frame = trace.att(0x0040, .received, "23 0E 00 02 00 06 52 20 00 01 00 FF")
        let events = track(trace)
        let values = events.atts.filter { $0.frame == frame }.map(\.att)
        #expect(values.map(\.op) == ["multi_notify", "multi_notify"])
        #expect(values.map(\.handle) == [0x0E, 0x20])
        #expect(values.map(\.value) == [hex("06 52"), hex("FF")])
    }
}
