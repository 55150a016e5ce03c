import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

extension HCITrace {
    /// A signalling command (Core v5.4, Vol 3, Part A, §4): code, identifier, length, parameters.
    /// Channel 0x0005 on LE, 0x0001 on BR/EDR.
    @discardableResult
    mutating func signal(
        _ handle: UInt16, _ direction: Direction, _ code: UInt8, id: UInt8, _ parameters: String, channel: UInt16 = 0x0005
    ) -> Int {
        let bytes = hex(parameters)
        return l2cap(handle, direction, channel: channel, [code, id] + le16(UInt16(bytes.count)) + bytes)
    }

    /// An SDU as K-frames (§3.4.3) of at most `mps` payload bytes, the first led by the SDU length,
    /// one ACL packet each. Returns the frame of each K-frame.
    @discardableResult
    mutating func sdu(_ handle: UInt16, _ direction: Direction, cid: UInt16, mps: Int, _ sdu: [UInt8]) -> [Int] {
        let bytes = le16(UInt16(sdu.count)) + sdu
        return stride(from: 0, to: bytes.count, by: mps).map {
            l2cap(handle, direction, channel: cid, Array(bytes[$0..<min($0 + mps, bytes.count)]))
        }
    }
}

extension Array where Element == Event {
    var l2capFrames: [(frame: Int, data: L2CAPData)] {
        compactMap { e in
            if case .l2cap(let data) = e.body { return (e.frame, data) }
            return nil
        }
    }

    var mtuChanges: [MTUChange] {
        compactMap { e in
            if case .mtu(let change) = e.body { return change }
            return nil
        }
    }
}

/// Dynamic L2CAP channels: opened, configured, credited and closed by signalling; B-frames and
/// K-frames with SDU reassembly (Core v5.4, Vol 3, Part A, §3 and §4).
struct ChannelTests {
    static let peer = "00:1B:DC:07:31:4E"

    @Test func `ATT on a BR/EDR channel for PSM 0x001F, with the MTU its configuration sets`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        // Connection Request for PSM 0x001F from our CID 0x0040; the peer's end is 0x0041.
        trace.signal(0x0040, .sent, 0x02, id: 1, "1F 00 40 00", channel: 1)
        trace.signal(0x0040, .received, 0x03, id: 1, "41 00 40 00 00 00 00 00", channel: 1)
        // We take SDUs of 517 bytes, the peer 48 (the BR/EDR minimum for ATT).
        trace.signal(0x0040, .sent, 0x04, id: 2, "41 00 00 00 01 02 05 02", channel: 1)
        trace.signal(0x0040, .received, 0x05, id: 2, "40 00 00 00 00 00", channel: 1)
        trace.signal(0x0040, .received, 0x04, id: 3, "40 00 00 00 01 02 30 00", channel: 1)
        trace.signal(0x0040, .sent, 0x05, id: 3, "41 00 00 00 00 00", channel: 1)
        // Frames to the peer carry its CID, frames to us ours.
        let read = trace.l2cap(0x0040, .sent, channel: 0x0041, hex("0A 03 00"))
        let full = [UInt8](repeating: 0x61, count: 47)  // ATT_MTU 48 − 1: a Read Blob may follow
        let response = trace.l2cap(0x0040, .received, channel: 0x0040, [0x0B] + full)
        trace.l2cap(0x0040, .sent, channel: 0x0041, hex("0C 03 00 2F 00"))
        let last = trace.l2cap(0x0040, .received, channel: 0x0040, hex("0D 62 62"))
        let events = track(trace)
        #expect(events.diagnostics == [])
        #expect(events.mtuChanges.map(\.mtu) == [672, 517, 48])
        #expect(events.mtuChanges.allSatisfy { $0.channel == 0x0040 && $0.bearer == .bredr })
        let request = try #require(events.att(frame: read, op: "read_req"))
        #expect(request.channel == 0x0040)
        #expect(request.bearer == .bredr)
        #expect(request.peer?.description == Self.peer)
        let first = try #require(events.att(frame: response, op: "read_rsp"))
        #expect(first.handle == 3)
        #expect(first.partial)  // continued by the Read Blob: the channel's MTU of 48 decided it
        let long = try #require(events.att(frame: last, op: "read_long"))
        #expect(long.value == full + [0x62, 0x62])
        #expect(long.bearer == .bredr)
    }

    @Test func `an LE credit-based channel reassembles SDUs across K-frames and ACL fragments`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        // The peer asks for EATT from its CID 0x0045 (it takes 80-byte SDUs, 30-byte K-frames, and
        // lets us send 3); we answer from 0x0040 (100, 23, and let it send 2).
        trace.signal(0x0040, .received, 0x14, id: 7, "27 00 45 00 50 00 1E 00 03 00")
        trace.signal(0x0040, .sent, 0x15, id: 7, "40 00 64 00 17 00 02 00 00 00")
        // A 43-byte notification: K-frames of 2 + 21 and 22 bytes; the first in two ACL fragments.
        let value = (0..<40).map { UInt8($0) }
        let sdu = [0x1B, 0x0A, 0x00] + value
        let first = trace.le16(43) + Array(sdu[0..<21])
        let header = trace.le16(UInt16(first.count)) + trace.le16(0x0040)
        trace.acl(0x0040, .received, pb: 2, header + Array(first[0..<10]))
        trace.acl(0x0040, .received, pb: 1, Array(first[10...]))
        let second = trace.l2cap(0x0040, .received, channel: 0x0040, Array(sdu[21...]))
        let events = track(trace)
        #expect(events.diagnostics == [])
        let notification = try #require(events.att(frame: second, op: "notify"))
        #expect(notification.handle == 0x000A)
        #expect(notification.value == value)
        #expect(notification.channel == 0x0040)
        #expect(notification.bearer == .eatt)
        #expect(events.mtuChanges.map(\.mtu) == [80])  // ATT_MTU: the smaller of 100 and 80
    }

    @Test func `credits: a K-frame past the last credit is reported once, and a credit indication restores them`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        // We open EATT at 0x0040 and let the peer send 1 K-frame; the peer's end is 0x0050.
        trace.signal(0x0040, .sent, 0x14, id: 1, "27 00 40 00 64 00 40 00 01 00")
        trace.signal(0x0040, .received, 0x15, id: 1, "50 00 64 00 40 00 05 00 00 00")
        let one = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("1B 0A 00 01"))
        let two = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("1B 0A 00 02"))
        let three = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("1B 0A 00 03"))
        trace.signal(0x0040, .sent, 0x16, id: 2, "40 00 02 00")  // two more, from our end 0x0040
        let four = trace.sdu(0x0040, .received, cid: 0x0040, mps: 64, hex("1B 0A 00 04"))
        let events = track(trace)
        #expect(events.diagnostics == ["\(two[0]):l2cap.no_credits"])
        // Nothing is lost: every notification is decoded.
        for (frames, byte) in [(one, 1), (two, 2), (three, 3), (four, 4)] {
            #expect(events.att(frame: frames[0], op: "notify")?.value == [UInt8(byte)])
        }
    }

    @Test func `an SDU longer than the channel MTU is skipped with a diagnostic, not kept`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        trace.signal(0x0040, .sent, 0x14, id: 1, "27 00 40 00 64 00 17 00 20 00")  // we take 100-byte SDUs
        trace.signal(0x0040, .received, 0x15, id: 1, "50 00 64 00 17 00 20 00 00 00")
        // SDU length 120 > 100: the first K-frame and the 99 bytes after it belong to it.
        let bad = trace.l2cap(0x0040, .received, channel: 0x0040, trace.le16(120) + [UInt8](repeating: 0xEE, count: 21))
        for size in [23, 23, 23, 23, 7] {
            trace.l2cap(0x0040, .received, channel: 0x0040, [UInt8](repeating: 0xEE, count: size))
        }
        let good = trace.sdu(0x0040, .received, cid: 0x0040, mps: 23, hex("1B 0A 00 07"))
        // A K-frame that says 5 bytes and carries 8: the first 5 are the SDU.
        let overrun = trace.l2cap(0x0040, .received, channel: 0x0040, hex("05 00 1B 0A 00 08 09 FF FF FF"))
        let short = trace.l2cap(0x0040, .received, channel: 0x0040, [0x05])
        let events = track(trace)
        #expect(events.diagnostics == ["\(bad):l2cap.sdu_too_long", "\(overrun):l2cap.sdu_overrun", "\(short):l2cap.short_kframe"])
        #expect(events.atts.count == 2)
        #expect(events.att(frame: good[0], op: "notify")?.value == [0x07])
        #expect(events.att(frame: overrun, op: "notify")?.value == [0x08, 0x09])
    }

    @Test func `a K-frame on a CID no signalling opened is an l2cap event as it is`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        let frame = trace.l2cap(0x0040, .received, channel: 0x0077, hex("04 00 1B 0A 00 01"))
        let events = track(trace)
        #expect(events.diagnostics == [])
        #expect(events.atts.isEmpty)
        let l2cap = try #require(events.l2capFrames.first)
        #expect(l2cap.frame == frame)
        #expect(l2cap.data.channel == 0x0077)
        #expect(l2cap.data.psm == nil)
        #expect(l2cap.data.data == hex("04 00 1B 0A 00 01"))
    }

    @Test func `another credit-based channel gives its SDUs as l2cap events with its PSM named`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        // IPSP (PSM 0x0023, RFC 7668): 1280-byte SDUs.
        trace.signal(0x0040, .sent, 0x14, id: 1, "23 00 42 00 00 05 20 00 08 00")
        trace.signal(0x0040, .received, 0x15, id: 1, "52 00 00 05 20 00 08 00 00 00")
        let packet = (0..<50).map { UInt8(0x60 + $0 % 16) }
        let frames = trace.sdu(0x0040, .sent, cid: 0x0052, mps: 32, packet)
        let events = track(trace)
        #expect(events.diagnostics == [])
        let sdu = try #require(events.l2capFrames.first)
        #expect(sdu.frame == frames.last)
        #expect(sdu.data.channel == 0x0052)
        #expect(sdu.data.psm == 0x0023)
        #expect(sdu.data.sdu)
        #expect(sdu.data.data == packet)
        #expect(jsonLine(events.first { $0.frame == sdu.frame }!).contains(#""cid":82,"psm":35,"psm_name":"ipsp","sdu":true"#))
    }

    @Test func `a Disconnection Response closes the channel, and the link going down closes the rest`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        trace.signal(0x0040, .sent, 0x17, id: 1, "27 00 64 00 40 00 05 00 40 00 41 00")
        trace.signal(0x0040, .received, 0x18, id: 1, "64 00 40 00 05 00 00 00 50 00 51 00")
        // We close 0x0040 (the peer's end 0x0050): DCID is the receiver's end, SCID the sender's.
        trace.signal(0x0040, .sent, 0x06, id: 2, "50 00 40 00")
        trace.signal(0x0040, .received, 0x07, id: 2, "50 00 40 00")
        let after = trace.l2cap(0x0040, .received, channel: 0x0040, hex("04 00 1B 0A 00 01"))
        let open = trace.sdu(0x0040, .received, cid: 0x0041, mps: 64, hex("1B 0A 00 02"))
        // Half an SDU on 0x0041 when the link goes down.
        let half = trace.l2cap(0x0040, .received, channel: 0x0041, hex("20 00 1B 0A 00"))
        let down = trace.disconnect(0x0040)
        let events = track(trace)
        #expect(events.l2capFrames.map(\.frame) == [after])
        #expect(events.att(frame: open[0], op: "notify")?.channel == 0x0041)
        #expect(events.diagnostics == ["\(down):l2cap.incomplete_sdu"])
        _ = half
    }

    @Test func `a response to a connection request nobody saw opens nothing`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        let response = trace.signal(0x0040, .received, 0x15, id: 9, "50 00 64 00 40 00 05 00 00 00")
        let frame = trace.l2cap(0x0040, .received, channel: 0x0040, hex("04 00 1B 0A 00 01"))
        let events = track(trace)
        #expect(events.diagnostics == ["\(response):l2cap.response_without_request"])
        #expect(events.l2capFrames.map(\.frame) == [frame])
    }
}
