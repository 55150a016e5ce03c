import BluetoothPackets
import ByteReading
import Testing

/// The layout interpreter, on parameter bytes from real captures with the values btmon 5.66 prints
/// for them (../shared/captures, run as in ../shared/reference/tshark-and-btmon.md §6).
struct HCIParameterTests {
    func decode(_ layout: [HCIField]?, _ bytes: [UInt8]) throws -> HCIParameters.Decoded {
        let layout = try #require(layout)
        return bytes.withUnsafeBytes { HCIParameters.decode(layout, $0) }
    }

    func value(_ decoded: HCIParameters.Decoded, _ key: String) -> HCIValue? {
        decoded.parameters.first { $0.key.description == key }?.value
    }

    @Test func `Read Local Version Information's return parameters`() throws {
        // pongbot-mcp__btsnoop_hci.log.last #10, after ncmd and opcode: btmon "HCI version: (0x0d) -
        // Revision 57712 (0xe170)", "LMP version: (0x0d) - Subversion 33043 (0x8113)", "Manufacturer:
        // Broadcom Corporation (15)".
        let decoded = try decode(HCICommands.command(0x1001)?.returns, hex("00 0d 70 e1 0d 0f 00 13 81"))
        #expect(decoded.error == nil && decoded.remainder.isEmpty)
        guard case .code(13, let version?, _) = value(decoded, "hci_version"),
            case .number(0xE170, _) = value(decoded, "hci_subversion"),
            case .company(15) = value(decoded, "company_identifier"),
            case .number(0x8113, _) = value(decoded, "lmp_subversion")
        else {
            Issue.record("unexpected \(decoded.parameters)")
            return
        }
        #expect(version.description == "Bluetooth 5.4")
    }

    @Test func `LE Extended Create Connection: one entry per initiating PHY`() throws {
        // pongbot-mcp__btsnoop_hci.log.last #208: btmon "Initiating PHYs: 0x07", "Entry 0: LE 1M, Scan
        // interval: 60.000 msec (0x0060), Scan window: 30.000 msec (0x0030), Min connection interval:
        // 10.00 msec (0x0008), …, Supervision timeout: 5000 msec (0x01f4)", then LE 2M and LE Coded with
        // a 15 ms window.
        let bytes = hex(
            "01 01 00 00 00 00 00 00 00 07 60 00 30 00 08 00 10 00 00 00 f4 01 00 00 00 00 60 00"
                + " 18 00 08 00 10 00 00 00 f4 01 00 00 00 00 60 00 18 00 08 00 10 00 00 00 f4 01 00 00 00 00")
        let decoded = try decode(HCICommands.command(0x2043)?.parameters, bytes)
        #expect(decoded.error == nil && decoded.remainder.isEmpty)
        guard case .entries(let entries, 0x07) = value(decoded, "initiating_phys") else {
            Issue.record("no PHY entries in \(decoded.parameters)")
            return
        }
        #expect(entries.map { $0.title?.description } == ["LE 1M", "LE 2M", "LE Coded"])
        let windows = entries.map { entry -> UInt64? in
            guard case .duration(let raw, 625, _) = entry.parameters.first(where: { $0.key.description == "scan_window" })?.value
            else { return nil }
            return raw * 625
        }
        #expect(windows == [30_000, 15_000, 15_000])
        guard case .duration(0x01F4, 10_000, _) = entries[0].parameters.first(where: {
            $0.key.description == "supervision_timeout"
        })?.value else {
            Issue.record("no supervision timeout")
            return
        }
    }

    @Test func `a failed Connection Complete leaves out the handle and encryption it does not have`() throws {
        // §7.7.3 with status 0x04 (Page Timeout): the handle is not valid; the address is the device paged.
        let decoded = try decode(HCIEventTable.event(0x03)?.parameters, hex("04 0b 00 56 8f 3a 82 1f 00 01 00"))
        #expect(decoded.parameters.map(\.key.description) == ["status", "bd_addr", "link_type"])
        let ok = try decode(HCIEventTable.event(0x03)?.parameters, hex("00 0b 00 56 8f 3a 82 1f 00 01 00"))
        #expect(ok.parameters.map(\.key.description) == ["status", "handle", "bd_addr", "link_type", "encryption_enabled"])
    }

    @Test func `bytes that end early are an error after the fields read; after a failed status they are not`() throws {
        let layout = HCICommands.command(0x1009)?.returns
        let short = try decode(layout, hex("00 8a bb 55"))
        #expect(short.parameters.map(\.key.description) == ["status"])
        #expect(short.error == DecodeError(.truncated(needed: 6, available: 3), at: 1, field: "bd_addr"))
        let failed = try decode(layout, hex("0c"))
        #expect(failed.error == nil)
        #expect(failed.parameters.count == 1)
    }

    @Test func `bytes after the layout are kept`() throws {
        let decoded = try decode(HCICommands.command(0x200C)?.parameters, hex("01 00 ff"))
        #expect(decoded.remainder == [0xFF])
    }

    @Test func `Number Of Completed Packets lists handle and count per handle`() throws {
        let decoded = try decode(HCIEventTable.event(0x13)?.parameters, hex("02 40 00 01 00 41 00 03 00"))
        guard case .entries(let entries, nil) = value(decoded, "handles") else {
            Issue.record("no entries")
            return
        }
        let pairs = entries.map { entry in
            entry.parameters.compactMap { p -> UInt64? in
                switch p.value {
                case .handle(let h): UInt64(h)
                case .number(let n, _): n
                default: nil
                }
            }
        }
        #expect(pairs == [[0x40, 1], [0x41, 3]])
    }

    @Test func `a list count past the bytes is an error, not a long loop`() throws {
        let decoded = try decode(HCIEventTable.event(0x13)?.parameters, hex("ff 40 00 01 00"))
        #expect(decoded.error != nil)
    }

    @Test func `Read Local Name keeps the text before the NUL padding`() throws {
        // bluetooth_sample__btsnoop_hci.log: btmon "Name: Nighthawk X Remote PTT v1.26" (a remote name,
        // same 248-byte field).
        let name = Array("Nighthawk X Remote PTT v1.26".utf8)
        let bytes = [0x00] + hex("56 8f 3a 82 1f 00") + name + [UInt8](repeating: 0, count: 248 - name.count)
        let decoded = try decode(HCIEventTable.event(0x07)?.parameters, bytes)
        guard case .text(let text) = value(decoded, "remote_name") else {
            Issue.record("no name")
            return
        }
        #expect(text == name)
    }
}
