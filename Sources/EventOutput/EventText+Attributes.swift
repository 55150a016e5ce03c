import BluetoothPackets
import BluetoothTracking
import ByteReading

extension EventText {
    /// One ATT PDU: what it asks or answers, the attribute it reaches and its value, with CCCD values,
    /// characteristic properties and Appearance in words.
    func attribute(_ a: ATTEvent, _ d: inout [String]) -> String {
        var summary = "\(a.op) conn \(a.connection)"
        if let mtu = a.exchangedMTU {
            summary += a.opcode == ATTOpcode.exchangeMTURequest ? " client mtu \(mtu)" : " server mtu \(mtu)"
        }
        if a.channel != L2CAPChannel.attribute { summary += " \(a.bearer.name) cid \(Self.hex4(a.channel))" }
        if let handle = a.handle {
            summary += " handle \(Self.hex4(handle))"
            if let attribute = a.attribute {
                summary += " \(Self.name(attribute.uuid))"
                var from = "uuid from \(attribute.source.rawValue)"
                if a.localServer { from += ", on our own GATT server" }
                if let frame = attribute.frame { from += " (frame \(frame))" }
                if let service = attribute.service { d.append("service \(Self.name(service))") }
                if let characteristic = attribute.characteristic { d.append("characteristic \(Self.name(characteristic))") }
                d.append(from)
            } else {
                summary += " (unknown)"
            }
        }
        if let range = a.range { summary += " handles \(Self.hex4(range.lowerBound))–\(Self.hex4(range.upperBound))" }
        if let type = a.attributeType { d.append("type \(Self.name(type))") }
        if let code = a.errorCode, let request = a.requestOpcode {
            d.append("\(ATTOpcode.name(request)) failed: \(ATTErrorNames.name(code))")
        }
        if let offset = a.offset { d.append("offset \(offset)") }
        if let frame = a.requestFrame { d.append("answers frame \(frame)") }
        for entry in a.discovered ?? [] {
            var line = "\(Self.hex4(entry.handle)) \(Self.name(entry.uuid))"
            if let other = entry.endOrValueHandle {
                line += entry.properties == nil ? " to \(Self.hex4(other))" : " value \(Self.hex4(other))"
            }
            if let properties = entry.properties {
                line += " (\(GATTWords.properties(properties).map(\.description).joined(separator: ", ")))"
            }
            d.append(line)
        }
        if let value = a.value {
            Self.hexLines("value", value, suffix: (a.partial ? " (part)" : "") + printable(value), &d)
            if let meaning = valueMeaning(a, value) { d.append(meaning) }
        }
        return summary
    }

    /// The value as text too, when it is printable ASCII (nothing to escape) and short enough for a line.
    private func printable(_ value: [UInt8]) -> String {
        guard value.count >= 2, value.count <= 16, value.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "" }
        return " \"\(String(decoding: value, as: UTF8.self))\""
    }

    /// What a CCCD or Appearance value says, when the attribute is one.
    private func valueMeaning(_ a: ATTEvent, _ value: [UInt8]) -> String? {
        guard let uuid = a.attribute?.uuid.shortValue, value.count == 2, !a.partial else { return nil }
        let word = UInt16(value[0]) | UInt16(value[1]) << 8
        switch uuid {
        case 0x2902:
            let names = GATTWords.clientConfiguration(word)
            return "cccd " + (names.isEmpty ? "off" : names.map(\.description).joined(separator: ", "))
        case 0x2A01:
            return "appearance \(AssignedNames.appearanceText(word) ?? "unknown") (\(Self.hex4(word)))"
        default:
            return nil
        }
    }
}

/// GATT bit fields in words: characteristic properties (Core v6.0, Vol 3, Part G, §3.3.1.1) and the
/// Client Characteristic Configuration (§3.3.3.3).
public enum GATTWords {
    static let propertyNames: [StaticString] = [
        "broadcast", "read", "write_without_response", "write", "notify", "indicate",
        "authenticated_signed_writes", "extended_properties",
    ]

    /// The properties set, in bit order: "read", "notify", …
    public static func properties(_ value: UInt8) -> [StaticString] {
        (0..<8).filter { value & (1 << $0) != 0 }.map { propertyNames[$0] }
    }

    /// "notify", "indicate"; bits the specification reserves are left out.
    public static func clientConfiguration(_ value: UInt16) -> [StaticString] {
        var names: [StaticString] = []
        if value & 0x0001 != 0 { names.append("notify") }
        if value & 0x0002 != 0 { names.append("indicate") }
        return names
    }
}
