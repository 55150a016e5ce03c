/// Names for the HCI codes in events and text output, from the tables (`HCICommands`,
/// `HCIEventTable`, `HCIErrorCodes`), printed as btmon prints them: "LE Set Scan Enable (0x08|0x000c)",
/// "Command Complete (0x0e)".
public enum HCINames {
    /// The specification's name of a command; "Vendor" for OGF 0x3F, "Unknown" for an opcode no
    /// specification assigns.
    public static func commandName(_ opcode: UInt16) -> StaticString {
        if let command = HCICommands.command(opcode) { return command.name }
        if opcode == 0x0000 { return "No Operation" }
        return opcode >> 10 == HCICommands.vendorGroup ? "Vendor" : "Unknown"
    }

    public static func command(_ opcode: UInt16) -> String { commandName(opcode).description }

    /// "LE Set Extended Scan Enable (0x08|0x0042)": the name, then OGF and OCF.
    public static func commandLabel(_ opcode: UInt16) -> String {
        "\(commandName(opcode)) (\(hex(UInt64(opcode >> 10), 2))|\(hex(UInt64(opcode & 0x3FF), 4)))"
    }

    public static func eventName(_ code: UInt8) -> StaticString { HCIEventTable.event(code)?.name ?? "Unknown" }

    public static func event(_ code: UInt8) -> String { eventName(code).description }

    /// "Command Complete (0x0e)".
    public static func eventLabel(_ code: UInt8) -> String { "\(eventName(code)) (\(hex(UInt64(code), 2)))" }

    public static func leSubeventName(_ code: UInt8) -> StaticString {
        HCIEventTable.leSubevent(code)?.name ?? "Unknown"
    }

    public static func leSubevent(_ code: UInt8) -> String { leSubeventName(code).description }

    /// "LE Read Remote Features Page 0 Complete (0x04)".
    public static func leSubeventLabel(_ code: UInt8) -> String {
        "\(leSubeventName(code)) (\(hex(UInt64(code), 2)))"
    }

    /// A status or error code's name (Core v6.0, Vol 1, Part F); "Unknown" for an unassigned code.
    public static func error(_ code: UInt8) -> String { HCIErrorCodes.name(code)?.description ?? "Unknown" }

    /// "Connection Timeout (0x08)".
    public static func errorLabel(_ code: UInt8) -> String { "\(error(code)) (\(hex(UInt64(code), 2)))" }

    /// An LE PHY (Vol 4, Part E, §7.7.65.12): "LE 1M", "LE 2M", "LE Coded".
    public static func phy(_ code: UInt8) -> String {
        HCIValues.phy.name(UInt64(code))?.description ?? "PHY \(code)"
    }

    /// "0x0c": lower-case hex with at least `digits` digits.
    public static func hex(_ value: UInt64, _ digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
