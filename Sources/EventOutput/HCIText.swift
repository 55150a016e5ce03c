import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureModel

/// HCI commands and events in btmon's indented style: the name and code on the header line, the
/// parameters below it ("Status: Success (0x00)"), Command Complete and LE Meta subevents one level in.
enum HCIText {
    static func describe(_ h: HCIPacket, _ d: inout [String]) -> String {
        if h.kind == .command {
            let layout = HCICommands.command(h.code)?.parameters
            manufacturer(h, &d)
            parameters(layout, h.parameters, indent: "", &d)
            return "\(HCINames.commandLabel(h.code)) plen \(h.parameters.count)"
        }
        let code = UInt8(truncatingIfNeeded: h.code)
        let plen = h.parameters.count + (h.subevent == nil ? 0 : 1)
        let summary = "\(HCINames.eventLabel(code)) plen \(plen)"
        if let opcode = h.commandOpcode {
            let ncmd = h.parameters.first.map { " ncmd \($0)" } ?? ""
            d.append("\(HCINames.commandLabel(opcode))\(ncmd)")
            manufacturer(h, &d, indent: "  ")
            if code == HCIEventCode.commandStatus {
                if let status = h.status { d.append("  Status: \(HCINames.errorLabel(status))") }
            } else {
                commandReturn(opcode, h, &d)
            }
            return summary
        }
        if let subevent = h.subevent {
            d.append(HCINames.leSubeventLabel(subevent))
            parameters(HCIEventTable.leSubevent(subevent)?.parameters, h.parameters, indent: "  ", &d)
            return summary
        }
        manufacturer(h, &d)
        parameters(HCIEventTable.event(code)?.parameters, h.parameters, indent: "", &d)
        return summary
    }

    /// A Command Complete's return parameters; after a failure only the status, since the others
    /// mean nothing then.
    private static func commandReturn(_ opcode: UInt16, _ h: HCIPacket, _ d: inout [String]) {
        let returned = Array(h.parameters.dropFirst(3))
        guard !returned.isEmpty else { return }
        let layout = HCICommands.command(opcode)?.returns
        if let status = h.status, status != 0 || layout == nil {
            d.append("  Status: \(HCINames.errorLabel(status))")
            if status == 0, returned.count > 1 { EventText.hexLines("", Array(returned.dropFirst()), indent: "  ", &d) }
            return
        }
        parameters(layout, returned, indent: "  ", &d)
    }

    private static func manufacturer(_ h: HCIPacket, _ d: inout [String], indent: String = "") {
        if let company = h.manufacturer { d.append(indent + "Manufacturer: \(AssignedNames.companyText(company))") }
    }

    /// The parameters as the layout reads them; without a layout, the bytes.
    static func parameters(_ layout: [HCIField]?, _ bytes: [UInt8], indent: String, _ d: inout [String]) {
        guard let layout else {
            if !bytes.isEmpty { EventText.hexLines("", bytes, indent: indent, &d) }
            return
        }
        let decoded = bytes.withUnsafeBytes { HCIParameters.decode(layout, $0) }
        for parameter in decoded.parameters { lines(parameter, indent: indent, &d) }
        if !decoded.remainder.isEmpty { EventText.hexLines("More:", decoded.remainder, indent: indent, &d) }
        if let error = decoded.error { d.append(indent + "malformed: \(error)") }
    }

    private static func lines(_ p: HCIParameter, indent: String, _ d: inout [String]) {
        let label = indent + "\(p.label): "
        switch p.value {
        case .number(let value, let digits):
            d.append(label + (digits == 0 ? "\(value)" : HCINames.hex(value, digits)))
        case .signed(let value):
            d.append(label + "\(value)")
        case .dbm(let value):
            d.append(label + (value == 127 ? "not available (0x7f)" : "\(value) dBm (\(HCINames.hex(UInt64(UInt8(bitPattern: value)), 2)))"))
        case .code(let value, let name, let digits):
            d.append(label + "\(name.map { "\($0)" } ?? "Reserved") (\(HCINames.hex(value, digits)))")
        case .error(let code):
            d.append(label + HCINames.errorLabel(code))
        case .bits(let value, let names, let unknown, let digits):
            d.append(label + HCINames.hex(value, digits))
            for name in names { d.append(indent + "  \(name)") }
            if unknown != 0 { d.append(indent + "  Reserved (\(HCINames.hex(unknown, digits)))") }
        case .duration(let value, let unit, let digits):
            d.append(label + "\(duration(value, unit: unit)) (\(HCINames.hex(value, digits)))")
        case .handle(let handle):
            d.append(label + "\(handle)")
        case .address(let address):
            d.append(label + "\(address)")
        case .bytes(let bytes):
            EventText.hexLines("\(p.label):", bytes, indent: indent, &d)
        case .text(let bytes):
            d.append(label + PrintableText.escape(utf8: bytes))
        case .advertisingData(let bytes):
            d.append(label + "\(bytes.count) bytes")
            var ad: [String] = []
            bytes.withUnsafeBytes { EventText.adDetails($0, &ad) }
            d.append(contentsOf: ad.map { indent + "  " + $0 })
        case .company(let company):
            d.append(label + AssignedNames.companyText(company))
        case .entries(let entries, let mask):
            if let mask {
                d.append(label + HCINames.hex(mask, 2))
            } else {
                d.append(label + "\(entries.count)")
            }
            for (index, entry) in entries.enumerated() {
                var inner = indent + "  "
                if let title = entry.title {
                    d.append(inner + "\(title)")
                    inner += "  "
                } else if entries.count > 1 {
                    d.append(inner + "Entry \(index)")
                    inner += "  "
                }
                for parameter in entry.parameters { lines(parameter, indent: inner, &d) }
            }
        }
    }

    /// "30.00 msec", "0.625 msec", "10.24 sec": milliseconds with two decimals (three when needed),
    /// seconds for the parameters counted in seconds.
    static func duration(_ value: UInt64, unit: UInt64) -> String {
        let (total, overflow) = value.multipliedReportingOverflow(by: unit)
        guard !overflow else { return "\(value) × \(unit) µs" }
        if unit >= 1_000_000 { return decimal(total, scale: 1_000_000) + " sec" }
        return decimal(total, scale: 1000) + " msec"
    }

    /// `value / scale` with two decimals, or three when the third is not zero (scale 1000 or 10⁶).
    private static func decimal(_ value: UInt64, scale: UInt64) -> String {
        let thousandths = value % scale * 1000 / scale
        let text = String(thousandths)
        let padded = String(repeating: "0", count: 3 - text.count) + text
        return "\(value / scale)." + (padded.hasSuffix("0") ? String(padded.dropLast()) : padded)
    }
}
