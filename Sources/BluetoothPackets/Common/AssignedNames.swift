/// Names of common SIG-assigned numbers, for text output. Unknown values have no name.
public enum AssignedNames {
    public static func uuid(_ uuid: BluetoothUUID) -> String? {
        if let short = uuid.shortValue { return sigUUIDs[short] }
        switch uuid.description {
        case "6e400001-b5a3-f393-e0a9-e50e24dcca9e": return "Nordic UART Service"
        case "6e400002-b5a3-f393-e0a9-e50e24dcca9e": return "Nordic UART RX"
        case "6e400003-b5a3-f393-e0a9-e50e24dcca9e": return "Nordic UART TX"
        case "00000100-caab-3792-3d44-97ae51c1407a": return "Combustion Probe Status Service"
        case "00000101-caab-3792-3d44-97ae51c1407a": return "Combustion Probe Status"
        default: return nil
        }
    }

    public static func company(_ id: UInt16) -> String? { companies[id] }

    static let sigUUIDs: [UInt32: String] = [
        0x1800: "Generic Access", 0x1801: "Generic Attribute", 0x1802: "Immediate Alert", 0x1803: "Link Loss",
        0x1804: "Tx Power", 0x1805: "Current Time", 0x1809: "Health Thermometer", 0x180A: "Device Information",
        0x180D: "Heart Rate", 0x180F: "Battery", 0x1810: "Blood Pressure", 0x1812: "Human Interface Device",
        0x1816: "Cycling Speed and Cadence", 0x1818: "Cycling Power", 0x1819: "Location and Navigation",
        0x181A: "Environmental Sensing", 0x181C: "User Data", 0x181D: "Weight Scale", 0x1826: "Fitness Machine",
        0x2800: "Primary Service", 0x2801: "Secondary Service", 0x2802: "Include", 0x2803: "Characteristic",
        0x2900: "Characteristic Extended Properties", 0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration", 0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format", 0x2A00: "Device Name", 0x2A01: "Appearance",
        0x2A04: "Peripheral Preferred Connection Parameters", 0x2A05: "Service Changed", 0x2A19: "Battery Level",
        0x2A1C: "Temperature Measurement", 0x2A1D: "Temperature Type", 0x2A1E: "Intermediate Temperature",
        0x2A23: "System ID", 0x2A24: "Model Number String", 0x2A25: "Serial Number String",
        0x2A26: "Firmware Revision String", 0x2A27: "Hardware Revision String", 0x2A28: "Software Revision String",
        0x2A29: "Manufacturer Name String", 0x2A2B: "Current Time", 0x2A37: "Heart Rate Measurement",
        0x2A38: "Body Sensor Location", 0x2A39: "Heart Rate Control Point", 0x2A50: "PnP ID",
        0x2A6D: "Pressure", 0x2A6E: "Temperature", 0x2A6F: "Humidity", 0x2AA6: "Central Address Resolution",
        0x2B29: "Client Supported Features", 0x2B2A: "Database Hash", 0xFCD2: "BTHome", 0xFE59: "Nordic DFU",
        0xFEAA: "Eddystone", 0xFE9F: "Google", 0xFD6F: "Exposure Notification",
    ]

    static let companies: [UInt16: String] = [
        0x0006: "Microsoft", 0x004C: "Apple", 0x0059: "Nordic Semiconductor", 0x0075: "Samsung",
        0x00E0: "Google", 0x027D: "Huawei", 0x0157: "Anhui Huami", 0x038F: "Xiaomi", 0x09C7: "Combustion",
        0xFFFF: "internal use",
    ]
}
