import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureModel
import JSON

extension EventJSON {
    /// An `hci` event: `name` is the specification's name; the decoded parameters follow as their
    /// snake_case keys (codes with a `_name`, bit fields with `_names`, times as `_ms`), before the
    /// raw `data`. Through `cache`, a packet already written lately is copied: its key is every
    /// field the JSON is made from.
    static func writeHCI(_ h: HCIPacket, _ w: inout JSONWriter, _ cache: EventJSONCache?) {
        let header = 10
        guard let cache, h.parameters.count <= EventJSONCache.keyCapacity - header else { return writeHCI(h, &w) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: header + h.parameters.count) { key in
            key[0] = h.kind.rawValue
            key[1] = UInt8(truncatingIfNeeded: h.code)
            key[2] = UInt8(truncatingIfNeeded: h.code >> 8)
            key[3] = (h.subevent == nil ? 0 : 1) | (h.status == nil ? 0 : 2) | (h.commandOpcode == nil ? 0 : 4)
                | (h.manufacturer == nil ? 0 : 8)
            key[4] = h.subevent ?? 0
            key[5] = h.status ?? 0
            key[6] = UInt8(truncatingIfNeeded: h.commandOpcode ?? 0)
            key[7] = UInt8(truncatingIfNeeded: (h.commandOpcode ?? 0) >> 8)
            key[8] = UInt8(truncatingIfNeeded: h.manufacturer ?? 0)
            key[9] = UInt8(truncatingIfNeeded: (h.manufacturer ?? 0) >> 8)
            _ = UnsafeMutableBufferPointer(rebasing: key[header...]).initialize(from: h.parameters)
            cache.write(UnsafeRawBufferPointer(key), as: .hciPacket, to: &w) { _, w in writeHCI(h, &w) }
        }
    }

    private static func writeHCI(_ h: HCIPacket, _ w: inout JSONWriter) {
        w.key("kind")
        w.string(h.kind.name)
        if h.kind == .command {
            w.key("opcode")
            w.int(h.code)
            w.key("name")
            w.literal(HCINames.commandName(h.code))
            manufacturer(h, &w)
            parameters(HCICommands.command(h.code)?.parameters, h.parameters, skipStatus: false, &w)
            w.key("data")
            w.hex(h.parameters)
            return
        }
        let code = UInt8(truncatingIfNeeded: h.code)
        w.key("code")
        w.int(h.code)
        if let sub = h.subevent {
            w.key("subevent")
            w.int(sub)
            w.key("name")
            w.literal(HCINames.leSubeventName(sub))
        } else {
            w.key("name")
            w.literal(HCINames.eventName(code))
        }
        if let opcode = h.commandOpcode {
            w.key("command")
            w.literal(HCINames.commandName(opcode))
            w.key("command_opcode")
            w.int(opcode)
            if let ncmd = h.parameters.first {
                w.key("num_hci_command_packets")
                w.int(ncmd)
            }
        }
        if let s = h.status {
            w.key("status")
            w.int(s)
            w.key("status_name")
            w.string(HCINames.error(s))
        }
        manufacturer(h, &w)
        if let opcode = h.commandOpcode {
            // Return parameters mean something only after a success (the status is written above).
            if code == HCIEventCode.commandComplete, h.status == 0 {
                parameters(HCICommands.command(opcode)?.returns, Array(h.parameters.dropFirst(3)), skipStatus: true, &w)
            }
        } else if let sub = h.subevent {
            parameters(HCIEventTable.leSubevent(sub)?.parameters, h.parameters, skipStatus: false, &w)
        } else {
            parameters(HCIEventTable.event(code)?.parameters, h.parameters, skipStatus: false, &w)
        }
        w.key("data")
        w.hex(h.parameters)
    }

    private static func manufacturer(_ h: HCIPacket, _ w: inout JSONWriter) {
        guard let company = h.manufacturer else { return }
        w.key("manufacturer")
        w.int(company)
        companyName(company, key: "manufacturer", suffix: "_name", &w)
    }

    private static func companyName(_ company: UInt16, key: StaticString, suffix: StaticString, _ w: inout JSONWriter) {
        _ = AssignedNames.withCompanyName(company) { name in
            w.key(key, suffix: suffix)
            w.string(utf8: name)
        }
    }

    /// The parameters the layout reads, as keys of the event; nothing without a layout.
    private static func parameters(_ layout: [HCIField]?, _ bytes: [UInt8], skipStatus: Bool, _ w: inout JSONWriter) {
        guard let layout, !bytes.isEmpty else { return }
        let decoded = bytes.withUnsafeBytes { HCIParameters.decode(layout, $0) }
        for parameter in decoded.parameters {
            if skipStatus, parameter.isStatus { continue }
            write(parameter, &w)
        }
    }

    private static func write(_ p: HCIParameter, _ w: inout JSONWriter) {
        let key = p.key
        switch p.value {
        case .number(let value, let digits):
            w.key(key)
            // Masks of more than 48 bits go as a hex string: a JSON reader's doubles would round them.
            if digits > 12 { w.string(HCINames.hex(value, digits)) } else { w.int(value) }
        case .signed(let value):
            w.key(key)
            w.int(value)
        case .dbm(let value):
            guard value != 127 else { return }
            w.key(key)
            w.int(value)
        case .code(let value, let name, _):
            w.key(key)
            w.int(value)
            if let name {
                w.key(key, suffix: "_name")
                w.literal(name)
            }
        case .error(let code):
            w.key(key)
            w.int(code)
            w.key(key, suffix: "_name")
            if let name = HCIErrorCodes.name(code) { w.literal(name) } else { w.literal("Unknown") }
        case .bits(let value, let names, _, _):
            w.key(key)
            w.int(value)
            w.key(key, suffix: "_names")
            w.beginArray()
            for name in names { w.literal(name) }
            w.endArray()
        case .duration(let value, let unit, _):
            w.key(key, suffix: "_ms")
            w.double(Double(value) * Double(unit) / 1000)
        case .handle(let handle):
            w.key(key)
            w.int(handle)
        case .address(let address):
            w.key(key)
            w.quoted(upTo: BluetoothAddress.textLength) { address.writeText(to: $0) }
        case .bytes(let bytes), .advertisingData(let bytes):
            w.key(key)
            w.hex(bytes)
        case .text(let bytes):
            w.key(key)
            bytes.withUnsafeBytes { w.string(utf8: $0) }
        case .company(let company):
            w.key(key)
            w.int(company)
            companyName(company, key: key, suffix: "_name", &w)
        case .entries(let entries, let mask):
            w.key(key)
            w.beginArray()
            for entry in entries {
                w.beginObject()
                if let title = entry.title, mask != nil {
                    w.key("phy")
                    w.literal(title)
                }
                for parameter in entry.parameters { write(parameter, &w) }
                w.endObject()
            }
            w.endArray()
        }
    }
}
