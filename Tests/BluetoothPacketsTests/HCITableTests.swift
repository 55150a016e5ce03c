import BluetoothPackets
import Testing

/// The HCI name tables: whole, sorted, one entry per code, and named as the Core Specification v6.0
/// names them (Vol 4, Part E, §7; Vol 1, Part F, §1.3).
struct HCITableTests {
    @Test func `every command has one entry, in a specified group, and no vendor command is in the table`() {
        let opcodes = HCICommands.all.map(\.opcode)
        #expect(opcodes == opcodes.sorted())
        #expect(Set(opcodes).count == opcodes.count)
        for command in HCICommands.all {
            #expect([1, 2, 3, 4, 5, 6, 8].contains(command.group), "\(command.name) is in OGF \(command.group)")
            #expect(HCICommands.command(command.opcode)?.name.description == command.name.description)
        }
        #expect(HCICommands.command(0xFC57) == nil)
    }

    @Test func `event, subevent and error tables have one entry per code`() {
        for codes in [HCIEventTable.events.map(\.code), HCIEventTable.leSubevents.map(\.code)] {
            #expect(Set(codes).count == codes.count)
            #expect(codes == codes.sorted())
        }
        let errors = HCIErrorCodes.table.map(\.code)
        #expect(Set(errors).count == errors.count)
        // v6.0 ends the LE subevents at 0x35 (LE Frame Space Update Complete) and the errors at 0x48.
        #expect(HCIEventTable.leSubevents.map(\.code) == Array(0x01...0x35))
        #expect(errors.last == 0x48)
    }

    /// Names checked against the specification's command tables; the btmon spellings that differ
    /// are listed in scripts/btmon-names.
    @Test(arguments: [
        (0x0C03, "Reset (0x03|0x0003)"),
        (0x1009, "Read BD_ADDR (0x04|0x0009)"),
        (0x2042, "LE Set Extended Scan Enable (0x08|0x0042)"),
        (0x207F, "LE Set Extended Advertising Parameters [v2] (0x08|0x007f)"),
        (0x2016, "LE Read Remote Features Page 0 (0x08|0x0016)"),
        (0x2089, "LE CS Read Local Supported Capabilities (0x08|0x0089)"),
        (0x209D, "LE Frame Space Update (0x08|0x009d)"),
        (0x0C6D, "Write LE Host Support (0x03|0x006d)"),
        (0xFC57, "Vendor (0x3f|0x0057)"),
        (0xF422, "Unknown (0x3d|0x0022)"),
        (0x0000, "No Operation (0x00|0x0000)"),
    ] as [(UInt16, String)])
    func `commands print their name, OGF and OCF as btmon does`(opcode: UInt16, label: String) {
        #expect(HCINames.commandLabel(opcode) == label)
    }

    @Test func `events and LE subevents print their name and code`() {
        #expect(HCINames.eventLabel(0x0E) == "Command Complete (0x0e)")
        #expect(HCINames.eventLabel(0x03) == "Connection Complete (0x03)")
        #expect(HCINames.eventLabel(0x59) == "Encryption Change [v2] (0x59)")
        #expect(HCINames.eventLabel(0x3E) == "LE Meta (0x3e)")
        #expect(HCINames.eventLabel(0x60) == "Unknown (0x60)")
        #expect(HCINames.leSubeventLabel(0x0D) == "LE Extended Advertising Report (0x0d)")
        #expect(HCINames.leSubeventLabel(0x29) == "LE Enhanced Connection Complete [v2] (0x29)")
        #expect(HCINames.leSubeventLabel(0x35) == "LE Frame Space Update Complete (0x35)")
    }

    @Test func `error codes have the specification's names`() {
        #expect(HCINames.errorLabel(0x00) == "Success (0x00)")
        #expect(HCINames.errorLabel(0x3E) == "Connection Failed to be Established / Synchronization Timeout (0x3e)")
        #expect(HCINames.errorLabel(0x48) == "Insufficient Channels (0x48)")
        #expect(HCINames.errorLabel(0x2B) == "Unknown (0x2b)")
    }

    /// Keys an `hci` event writes itself: a parameter with one of these keys would write it twice.
    static let fixedKeys: Set<String> = [
        "frame", "ts", "type", "adapter", "kind", "opcode", "name", "code", "subevent", "command",
        "command_opcode", "num_hci_command_packets", "status_name", "manufacturer", "manufacturer_name",
        "data", "phy",
    ]

    static func keys(_ layout: [HCIField]) -> [String] {
        layout.flatMap { field -> [String] in
            switch field.kind {
            case .list(let fields), .perPHY(let fields): [field.key.description] + keys(fields)
            default: [field.key.description]
            }
        }
    }

    static var layouts: [(String, [HCIField])] {
        HCICommands.all.flatMap { command in
            [command.parameters, command.returns].compactMap { $0 }.map { ("\(command.name)", $0) }
        } + (HCIEventTable.events + HCIEventTable.leSubevents).compactMap { event in
            event.parameters.map { ("\(event.name)", $0) }
        }
    }

    @Test func `parameter keys are snake_case, unique in their layout and never one of the event's own keys`() {
        for (name, layout) in Self.layouts {
            let keys = Self.keys(layout)
            for key in keys {
                #expect(key.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(name): \(key)")
                #expect(!Self.fixedKeys.contains(key), "\(name): \(key)")
            }
            // Entries of a list are objects of their own: compare the top level only.
            let top = layout.map(\.key.description)
            #expect(Set(top).count == top.count, "\(name) repeats a key")
        }
    }
}
