import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

/// ACL fragments into L2CAP frames (Core v5.4, Vol 4, Part E, §5.4.2; Vol 3, Part A, §7.2).
struct ReassemblyTests {
    @Test func `a start and two continuations make one ATT PDU at the last fragment`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "00:1A:7D:1A:FD:C9")
        // L2CAP length 12, CID 4; notification of handle 0x0020 with 9 value bytes, split 6 + 4 + 6.
        trace.acl(0x0040, .received, pb: 2, hex("0C 00 04 00 1B 20"))
        let middle = trace.acl(0x0040, .received, pb: 1, hex("00 01 02 03"))
        let last = trace.acl(0x0040, .received, pb: 1, hex("04 05 06 07 08 09"))
        let events = track(trace)
        #expect(events.atts.map(\.frame) == [last])
        #expect(!events.atts.contains { $0.frame == middle })
        let notify = try #require(events.att(frame: last, op: "notify"))
        #expect(notify.handle == 0x0020)
        #expect(notify.value == hex("01 02 03 04 05 06 07 08 09"))
        #expect(notify.direction == .received)
        #expect(events.diagnostics == [])
    }

    @Test func `fragments of two connections and two directions are kept apart`() throws {
        var trace = HCITrace()
        trace.acl(0x0040, .received, pb: 2, hex("05 00 04 00 1B 0E 00"))
        trace.acl(0x0041, .received, pb: 2, hex("05 00 04 00 1B 0F 00"))
        trace.acl(0x0040, .sent, pb: 0, hex("05 00 04 00 52 12 00"))
        let a = trace.acl(0x0041, .received, pb: 1, hex("BB BB"))
        let b = trace.acl(0x0040, .received, pb: 1, hex("AA AA"))
        let c = trace.acl(0x0040, .sent, pb: 1, hex("CC CC"))
        let events = track(trace)
        #expect(events.att(frame: a, op: "notify")?.value == [0xBB, 0xBB])
        #expect(events.att(frame: a, op: "notify")?.connection == 0x0041)
        #expect(events.att(frame: b, op: "notify")?.value == [0xAA, 0xAA])
        #expect(events.att(frame: c, op: "write_cmd")?.value == [0xCC, 0xCC])
        #expect(events.diagnostics == [])
    }

    @Test func `a continuation with no start is a diagnostic and the stream goes on`() throws {
        var trace = HCITrace()
        let orphan = trace.acl(0x0040, .received, pb: 1, hex("01 02 03"))
        let next = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace)
        #expect(events.diagnostics == ["\(orphan):acl.continuation_without_start"])
        let diagnostic = try #require(events.first { $0.frame == orphan }?.diagnostic)
        #expect(diagnostic.connection == 0x0040)
        #expect(diagnostic.reason == "a continuation fragment of 3 bytes arrived with no frame started")
        #expect(events.att(frame: next, op: "notify")?.value == [0x06, 0x52])
    }

    @Test func `an L2CAP length shorter than the packet is a diagnostic, and the frame is read to its length`() throws {
        var trace = HCITrace()
        // L2CAP says 5 bytes, 7 follow: a notification of 0652 and two stray bytes.
        let frame = trace.acl(0x0040, .received, pb: 2, hex("05 00 04 00 1B 0E 00 06 52 EE EE"))
        let events = track(trace)
        #expect(events.diagnostics == ["\(frame):l2cap.length_mismatch"])
        #expect(events.att(frame: frame, op: "notify")?.value == [0x06, 0x52])
    }

    @Test func `continuations carrying more than the L2CAP length are a diagnostic`() throws {
        var trace = HCITrace()
        trace.acl(0x0040, .received, pb: 2, hex("05 00 04 00 1B 0E"))
        let last = trace.acl(0x0040, .received, pb: 1, hex("00 06 52 EE"))
        let events = track(trace)
        #expect(events.diagnostics == ["\(last):l2cap.length_mismatch"])
        #expect(events.att(frame: last, op: "notify")?.value == [0x06, 0x52])
    }

    @Test func `a new start before the last frame completed reports the incomplete one`() throws {
        var trace = HCITrace()
        trace.acl(0x0040, .received, pb: 2, hex("0A 00 04 00 1B 0E 00 01"))
        let restart = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace)
        #expect(events.diagnostics == ["\(restart):acl.incomplete_frame"])
        #expect(events.atts.map(\.frame) == [restart])
    }

    @Test func `a start fragment shorter than the L2CAP header still reassembles`() throws {
        var trace = HCITrace()
        trace.acl(0x0040, .received, pb: 2, hex("05"))
        let last = trace.acl(0x0040, .received, pb: 1, hex("00 04 00 1B 0E 00 06 52"))
        let events = track(trace)
        #expect(events.att(frame: last, op: "notify")?.value == [0x06, 0x52])
        #expect(events.diagnostics == [])
    }

    @Test func `frames on other channels are passed through as l2cap and signal events`() throws {
        var trace = HCITrace()
        // LE signalling (CID 5), Connection Parameter Update Request (Vol 3, Part A, §4.20).
        let signal = trace.l2cap(0x0040, .received, channel: 0x0005, hex("12 01 08 00 06 00 0C 00 00 00 F4 01"))
        let other = trace.l2cap(0x0040, .received, channel: 0x0080, hex("01 02"))
        let events = track(trace)
        guard case .signal(let s) = try #require(events.first { $0.frame == signal }).body else {
            Issue.record("not a signal event")
            return
        }
        #expect(s.code == 0x12)
        #expect(s.identifier == 1)
        #expect(s.data == hex("06 00 0C 00 00 00 F4 01"))
        guard case .l2cap(let l) = try #require(events.first { $0.frame == other }).body else {
            Issue.record("not an l2cap event")
            return
        }
        #expect(l.channel == 0x0080)
        #expect(l.data == [1, 2])
    }
}
