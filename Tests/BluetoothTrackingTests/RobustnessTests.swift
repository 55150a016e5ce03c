import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

/// Malformed packets inside good records become diagnostics; the stream goes on (DESIGN.md, "Bad input").
struct RobustnessTests {
    @Test func `a malformed ATT PDU is a diagnostic with its bytes and the next record is read`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "08 01 00 FF FF 03 28")
        // Read By Type Response with an entry length of 1 (Vol 3, Part F, §3.4.4.2 needs at least 2).
        let bad = trace.att(0x0040, .received, "09 01 02 03")
        let next = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace)
        #expect(events.diagnostics == ["\(bad):att.malformed_pdu"])
        let diagnostic = try #require(events.first { $0.frame == bad }?.diagnostic)
        // The offset counts in the ACL packet: 4 bytes ACL header, 4 L2CAP header, the opcode, then the length.
        #expect(diagnostic.reason == "att.read_by_type.length at offset 9: entry length 1 is below 2")
        #expect(diagnostic.offset == 9)
        #expect(diagnostic.connection == 0x0040)
        let raw = try #require(events.att(frame: bad, op: "read_by_type_rsp"))
        #expect(raw.value == [0x02, 0x03])
        #expect(events.att(frame: next, op: "notify")?.value == [0x06, 0x52])
    }

    @Test func `a malformed HCI event is a diagnostic and the next record is read`() throws {
        var trace = HCITrace()
        // LE Connection Complete cut after the peer address type (its parameter length agrees: 6).
        let bad = trace.leMeta(0x01, hex("00 40 00 00 00"))
        let next = trace.disconnect(0x0040, reason: 0x08)
        let events = track(trace)
        #expect(events.diagnostics == ["\(bad):hci.malformed_event"])
        #expect(events.first?.diagnostic?.reason == "peer_address at offset 8: truncated: needs 6 bytes, 0 left")
        #expect(events.last?.type == .disconnect)
        #expect(events.last?.frame == next)
    }

    @Test func `an event whose parameter length overruns the record is a diagnostic`() throws {
        var trace = HCITrace()
        let bad = trace.record(.event, .received, hex("3E 13 01 00"))
        let events = track(trace)
        #expect(events.diagnostics == ["\(bad):hci.short_event"])
        #expect(events.first?.diagnostic?.offset == 1)
    }

    @Test func `an ACL packet shorter than its header says is a diagnostic`() throws {
        var trace = HCITrace()
        let bad = trace.record(.acl, .received, hex("40 20 09 00 05 00 04 00 1B"))
        let next = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace)
        #expect(events.diagnostics == ["\(bad):acl.malformed"])
        #expect(events.att(frame: next, op: "notify") != nil)
    }

    @Test func `an empty ATT PDU and an empty record are diagnostics, never a crash`() throws {
        var trace = HCITrace()
        let empty = trace.l2cap(0x0040, .received, channel: 4, [])
        let nothing = trace.record(.event, .received, [])
        let events = track(trace)
        #expect(events.diagnostics == ["\(empty):att.empty_pdu", "\(nothing):hci.short_event"])
    }

    @Test func `a connection handle reused without a disconnection is reported and starts afresh`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        trace.att(0x0040, .sent, "08 0C 00 0F 00 03 28")
        let taught = trace.att(0x0040, .received, "09 07 0D 00 10 0E 00 37 2A")
        trace.att(0x0040, .sent, "0A 03 00")
        let reused = trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        let response = trace.att(0x0040, .received, "0B 01")
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace)
        #expect(events.diagnostics == ["\(reused):hci.handle_reused", "\(response):att.response_without_request"])
        // What the first connection learned is kept for the same device, as after a disconnection.
        #expect(events.att(frame: notify, op: "notify")?.resolution == "2a37 cache \(taught)")
    }

    @Test func `every prefix of a good trace's records is tolerated`() throws {
        // A capture cut anywhere: each record truncated to every length still gives events or diagnostics.
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        trace.att(0x0040, .sent, "08 0C 00 0F 00 03 28")
        trace.att(0x0040, .received, "09 15 11 00 0C 12 00 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 02 00 40 6E")
        trace.leMeta(0x02, hex("01 00 01 C7 0E F9 30 6B C2 03 02 01 06 C1"))
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 1, data: hex("02 01 06")))
        for record in trace.records {
            for length in 0..<record.payload.count {
                var cut = record
                cut.payload = Array(record.payload.prefix(length))
                let events = track([cut])
                #expect(!events.isEmpty, "frame \(record.frame) cut to \(length) bytes")
            }
        }
    }
}
