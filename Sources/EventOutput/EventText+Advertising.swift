import BluetoothPackets
import BluetoothTracking
import ByteReading

extension EventText {
    /// The AD structures of advertising (or EIR) data, one line each, read through `ADStructure`.
    static func adDetails(_ bytes: UnsafeRawBufferPointer, _ d: inout [String]) {
        var structures = AdvertisingData.structures(in: bytes).makeIterator()
        while let s = structures.next() {
            switch s.kind {
            case .flags(let flags):
                let names = ADFlags.bits.filter { flags & (1 << $0.bit) != 0 }.map { "\($0.name)" }
                d.append("flags \(HCINames.hex(UInt64(flags), 2))" + (names.isEmpty ? "" : ": " + names.joined(separator: ", ")))
            case .localName(let name, let complete):
                d.append("name \"\(PrintableText.escape(utf8: name))\"\(complete ? "" : " (short)")")
            case .txPower(let power):
                d.append("tx power \(power) dBm")
            case .appearance(let value):
                d.append("appearance \(AssignedNames.appearanceText(value) ?? "unknown") (\(hex4(value)))")
            case .manufacturerData(let company, let data):
                hexLines("company \(AssignedNames.companyText(company))", [UInt8](data), &d)
            case .serviceData(let uuid, let data):
                hexLines("service data \(name(uuid))", [UInt8](data), &d)
            case .uuids(let list, _):
                d.append("uuids " + list.map { name($0) }.joined(separator: ", "))
            case .other:
                let type = AssignedNames.adType(s.type).map { "\($0) (\(HCINames.hex(UInt64(s.type), 2)))" }
                hexLines("ad \(type ?? HCINames.hex(UInt64(s.type), 2))", [UInt8](s.data), &d)
            }
        }
        if let error = structures.error { d.append("malformed: \(error)") }
    }
}
