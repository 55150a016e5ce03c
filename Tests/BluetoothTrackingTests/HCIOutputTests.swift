import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import EventOutput
import JSON
import Testing

/// HCI commands and events as text (btmon's indented style) and as JSON (the spec's name, the
/// parameters as keys), on bytes from real captures with what btmon 5.66 prints for them.
struct HCIOutputTests {
    func text(_ events: [Event]) -> [String] {
        var writer = EventText()
        var output = JSONWriter(capacity: 4096)
        for event in events { writer.write(event, to: &output) }
        // Headers from their summary on, details without their eight-space indent.
        return String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map {
            String($0.hasPrefix("#") ? $0.dropFirst(39) : $0.dropFirst(8))
        }
    }

    @Test func `a command with its parameters, and the Command Complete with its return parameters`() {
        var trace = HCITrace()
        // Blue2thprinting__import.snoop #121–#122. btmon: "Own address type: Random (0x01)", "PHYs: 0x01",
        // "Entry 0: LE 1M", "Type: Active (0x01)", "Interval: 22.500 msec (0x0024)", "Window: 11.250 msec (0x0012)".
        trace.record(.command, .sent, hex("41 20 08 01 00 01 01 24 00 12 00"))
        trace.event(0x0E, hex("01 41 20 00"))
        // pongbot-mcp__btsnoop_hci.log #63–#64: Read BD_ADDR answers D4:3A:2C:55:BB:8A.
        trace.record(.command, .sent, hex("09 10 00"))
        trace.event(0x0E, hex("01 09 10 00 8a bb 55 2c 3a d4"))
        #expect(
            text(track(trace)) == [
                "LE Set Extended Scan Parameters (0x08|0x0041) plen 8",
                "Own address type: Random (0x01)",
                "Filter policy: Accept all advertisements (0x00)",
                "PHYs: 0x01",
                "  LE 1M",
                "    Type: Active (0x01)",
                "    Interval: 22.50 msec (0x0024)",
                "    Window: 11.25 msec (0x0012)",
                "Command Complete (0x0e) plen 4",
                "LE Set Extended Scan Parameters (0x08|0x0041) ncmd 1",
                "  Status: Success (0x00)",
                "Read BD_ADDR (0x04|0x0009) plen 0",
                "Command Complete (0x0e) plen 10",
                "Read BD_ADDR (0x04|0x0009) ncmd 1",
                "  Status: Success (0x00)",
                "  Address: D4:3A:2C:55:BB:8A",
            ])
        let json = track(trace).map(jsonLine)
        #expect(
            json[0]
                == #"{"frame":1,"ts":1710495001.151075,"type":"hci","kind":"command","opcode":8257,"name":"LE Set Extended Scan Parameters","own_address_type":1,"own_address_type_name":"Random","scanning_filter_policy":0,"scanning_filter_policy_name":"Accept all advertisements","scanning_phys":[{"phy":"LE 1M","scan_type":1,"scan_type_name":"Active","scan_interval_ms":22.5,"scan_window_ms":11.25}],"data":"0100010124001200"}"#
        )
        #expect(
            json[3]
                == #"{"frame":4,"ts":1710495001.154075,"type":"hci","kind":"event","code":14,"name":"Command Complete","command":"Read BD_ADDR","command_opcode":4105,"num_hci_command_packets":1,"status":0,"status_name":"Success","bd_addr":"D4:3A:2C:55:BB:8A","data":"010910008abb552c3ad4"}"#
        )
    }

    @Test func `vendor commands name the manufacturer that Read Local Version Information gave`() {
        var trace = HCITrace()
        trace.record(.command, .sent, hex("57 FD 01 FF"))  // before: the manufacturer is not known yet
        // pongbot-mcp__btsnoop_hci.log.last #10: Broadcom (15).
        trace.event(0x0E, hex("01 01 10 00 0d 70 e1 0d 0f 00 13 81"))
        trace.record(.command, .sent, hex("57 FD 01 FF"))
        trace.event(0x0E, hex("01 57 FD 00 FF 07 00"))
        let lines = text(track(trace))
        #expect(lines.prefix(2) == ["Vendor (0x3f|0x0157) plen 1", "ff"])
        #expect(
            lines.suffix(8) == [
                "Vendor (0x3f|0x0157) plen 1", "Manufacturer: 0x000f (Broadcom Corporation)", "ff",
                "Command Complete (0x0e) plen 7", "Vendor (0x3f|0x0157) ncmd 1",
                "  Manufacturer: 0x000f (Broadcom Corporation)", "  Status: Success (0x00)", "  ff0700",
            ])
        let json = track(trace).map(jsonLine)
        #expect(json[2].contains(#""name":"Vendor","manufacturer":15,"manufacturer_name":"Broadcom Corporation","data":"ff""#))
        #expect(!json[0].contains("manufacturer"))
    }

    @Test func `an LE Meta subevent under LE Meta, with its parameters`() {
        var trace = HCITrace()
        // LE Long Term Key Request (§7.7.65.5): handle 64, random number, diversifier 0x1234.
        trace.leMeta(0x05, hex("40 00 01 02 03 04 05 06 07 08 34 12"))
        #expect(
            text(track(trace)) == [
                "LE Meta (0x3e) plen 13",
                "LE Long Term Key Request (0x05)",
                "  Handle: 64",
                "  Random number: 0102030405060708",
                "  Encrypted diversifier: 0x1234",
            ])
        #expect(
            jsonLine(track(trace)[0])
                == #"{"frame":1,"ts":1710495001.151075,"type":"hci","kind":"event","code":62,"subevent":5,"name":"LE Long Term Key Request","handle":64,"random_number":"0102030405060708","encrypted_diversifier":4660,"data":"400001020304050607083412"}"#
        )
    }

    @Test func `a failed LE connection shows its named status and no address, role or interval`() {
        var trace = HCITrace()
        // pongbot-mcp__btsnoop_hci.log.last #204: LE Enhanced Connection Complete, status 0x02 after a cancel.
        trace.leMeta(0x0A, hex("02 40 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 0f 00 00 00 f4 01 00"))
        let events = track(trace)
        #expect(text(events) == ["failed: Unknown Connection Identifier (0x02)"])
        #expect(
            jsonLine(events[0])
                == #"{"frame":1,"ts":1710495001.151075,"type":"connect","status":2,"status_name":"Unknown Connection Identifier"}"#
        )
    }

    @Test func `a failed classic Connection Complete names its status and the device it paged, no handle`() {
        var trace = HCITrace()
        // §7.7.3, status 0x04 Page Timeout for 00:1F:82:3A:8F:56, ACL.
        trace.event(0x03, hex("04 0b 00 56 8f 3a 82 1f 00 01 00"))
        #expect(
            text(track(trace)) == [
                "Connection Complete (0x03) plen 11", "Status: Page Timeout (0x04)", "Address: 00:1F:82:3A:8F:56",
                "Link type: ACL (0x01)",
            ])
        #expect(
            jsonLine(track(trace)[0])
                == #"{"frame":1,"ts":1710495001.151075,"type":"hci","kind":"event","code":3,"name":"Connection Complete","status":4,"status_name":"Page Timeout","bd_addr":"00:1F:82:3A:8F:56","link_type":1,"link_type_name":"ACL","data":"040b00568f3a821f000100"}"#
        )
    }

    @Test func `parameter bytes past 16 are shown in rows of 16, as btmon dumps them`() {
        var trace = HCITrace()
        trace.record(.command, .sent, hex("01 FC 14") + Array(0x41...0x54))
        #expect(
            text(track(trace)) == [
                "Vendor (0x3f|0x0001) plen 20", "(20 bytes)",
                "  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP",
                "  51 52 53 54                                      QRST",
            ])
    }
}
