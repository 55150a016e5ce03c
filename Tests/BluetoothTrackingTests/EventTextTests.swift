import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import EventOutput
import JSON
import Testing

/// The text writer: one header line per event (frame, seconds since the first event, direction,
/// type, summary), its details indented below, in the spirit of btmon.
struct EventTextTests {
    static func trace() -> HCITrace {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "00:1A:7D:1A:FD:C9")
        // tshark reference frame 9.
        trace.leMeta(
            0x02,
            hex(
                "01 03 01 C7 0E F9 30 6B C2 1A 02 01 04 13 FF FF FF 01 00 00 00 34 A2 0F 0B 0D 04 C3 6E D8 0E 71 E0 02 0A 04 C1"
            ))
        trace.att(0x0040, .sent, "08 0C 00 0F 00 03 28")
        trace.att(0x0040, .received, "09 07 0D 00 10 0E 00 37 2A")
        trace.att(0x0040, .received, "1B 0E 00 06 52")
        trace.att(0x0040, .received, "1B 30 00 48 52 4D")
        trace.att(0x0040, .sent, "02 F7 00")
        trace.att(0x0040, .received, "03 9E 00")
        trace.acl(0x0040, .received, pb: 1, hex("01 02 03"))
        trace.disconnect(0x0040, reason: 0x08)
        return trace
    }

    func text(_ events: [Event]) -> [String] {
        var writer = EventText()
        var output = JSONWriter(capacity: 4096)
        for event in events { writer.write(event, to: &output) }
        return String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func `every event has one header line and its details are indented under it`() {
        let events = track(Self.trace())
        let lines = text(events)
        let headers = lines.filter { $0.hasPrefix("#") }
        #expect(headers.count == events.count)
        #expect(headers.map { Int($0.dropFirst().prefix { $0.isNumber }) } == events.map(\.frame))
        #expect(lines.allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("        ") && $0.dropFirst(8).first != " " })
        #expect(lines.first?.hasPrefix("#") == true)
    }

    @Test func `the text of a small session`() {
        #expect(
            text(track(Self.trace())) == [
                "#1          0.000000  recv  connect    conn 64 00:1A:7D:1A:FD:C9 (public) as central",
                "        interval 30.0 ms, latency 0, timeout 5000 ms",
                "#2          0.001000  recv  adv        C2:6B:30:F9:0E:C7 (random) adv_nonconn_ind rssi -63",
                "        flags 0x04: BR/EDR Not Supported",
                "        company 0xffff (Bluetooth SIG Specification Reserved Default Vendor ID for Remote Devices Without Device ID Service Record.) 0100000034a20f0b0d04c36ed80e71e0",
                "        tx power 4 dBm",
                "#3          0.002000  sent  att        read_by_type_req conn 64 handles 0x000c–0x000f",
                "        type Characteristic (2803)",
                "#4          0.003000  recv  att        read_by_type_rsp conn 64",
                "        answers frame 3",
                "        0x000d Heart Rate Measurement (2a37) value 0x000e (notify)",
                "#5          0.004000  recv  att        notify conn 64 handle 0x000e Heart Rate Measurement (2a37)",
                "        uuid from discovery (frame 4)",
                "        value 0652",
                "#6          0.005000  recv  att        notify conn 64 handle 0x0030 (unknown)",
                "        value 48524d \"HRM\"",
                "#7          0.006000  sent  att        mtu_req conn 64 client mtu 247",
                "#8          0.007000  recv  att        mtu_rsp conn 64 server mtu 158",
                "        answers frame 7",
                "#8          0.007000        mtu        conn 64 mtu 158",
                "#9          0.008000        diagnostic acl.continuation_without_start: a continuation fragment of 3 bytes arrived with no frame started",
                "#10         0.009000  recv  disconnect conn 64 00:1A:7D:1A:FD:C9 reason: Connection Timeout (0x08)",
            ])
    }

    @Test func `times are counted from the first event written`() {
        var trace = HCITrace()
        trace.time = 1_700_000_000_999_999
        trace.att(0x0040, .received, "1B 0E 00 06 52")
        trace.time += 61_000_000  // 61 s after the 1 ms step
        trace.att(0x0040, .received, "1B 0E 00 06 53")
        let headers = text(track(trace)).filter { $0.hasPrefix("#") }
        #expect(headers.map { String($0.dropFirst(8).prefix(12)) } == ["    0.000000", "   61.001000"])
    }
}
