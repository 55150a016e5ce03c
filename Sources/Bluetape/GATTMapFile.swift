import BluetoothPackets
import BluetoothTracking
import FileAccess
import JSON

/// GATT maps as JSON: what `bluetape gatt` prints and `--gatt` loads.
///
/// ```
/// {"devices": [{"addr": "C2:6B:30:F9:0E:C7",
///   "services": [{"uuid": "180d", "start": 12, "end": 20,
///     "characteristics": [{"uuid": "2a37", "handle": 13, "value_handle": 14, "properties": 16,
///       "descriptors": [{"uuid": "2902", "handle": 15}]}]}]}]}
/// ```
/// A device without "addr" (or with "*") applies to every device; "local" is the capturing host's
/// own GATT server (handles the peer reads, writes or is notified from). A device may also list bare
/// handles instead of services: `"handles": {"14": "2a37", "0x000f": "2902"}`.
public enum GATTMapFile {
    public static func load(path: String) throws(GATTMapError) -> GATTMap {
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path, limit: 64 << 20)
        } catch {
            throw GATTMapError("\(path): cannot be read: \(error.reason)")
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw GATTMapError("\(path): not valid JSON: \(error)")
        }
        return try parse(document, name: path)
    }

    public static func parse(_ document: JSONValue, name: String) throws(GATTMapError) -> GATTMap {
        guard let devices = document["devices"]?.array else {
            throw GATTMapError("\(name): a GATT map needs a \"devices\" list")
        }
        var map = GATTMap()
        for (index, device) in devices.enumerated() {
            let path = "$.devices[\(index)]"
            var db = GATTDatabase()
            for (s, service) in (device["services"]?.array ?? []).enumerated() {
                let here = "\(path).services[\(s)]"
                let uuid = try uuidValue(service["uuid"], "\(here).uuid", name)
                let start = try handleValue(service["start"], "\(here).start", name)
                let end = try service["end"].map { v throws(GATTMapError) in try handleValue(v, "\(here).end", name) } ?? start
                db.addService(start: start, end: end, uuid: uuid, primary: service["primary"]?.bool ?? true, frame: nil)
                for (c, characteristic) in (service["characteristics"]?.array ?? []).enumerated() {
                    let at = "\(here).characteristics[\(c)]"
                    let cuuid = try uuidValue(characteristic["uuid"], "\(at).uuid", name)
                    let valueHandle = try handleValue(characteristic["value_handle"], "\(at).value_handle", name)
                    // Handle 0 is reserved: a value handle of 0 has no declaration before it.
                    guard valueHandle > 0 else {
                        throw GATTMapError("\(name): \(at).value_handle: expected a handle (1–65535)")
                    }
                    let declaration =
                        try characteristic["handle"].map { v throws(GATTMapError) in try handleValue(v, "\(at).handle", name) }
                        ?? valueHandle - 1
                    let properties = characteristic["properties"].map { $0.int64 ?? -1 } ?? 0
                    guard (0...255).contains(properties) else {
                        throw GATTMapError("\(name): \(at).properties: expected the properties byte (0–255)")
                    }
                    db.addCharacteristic(
                        declaration: declaration, valueHandle: valueHandle, uuid: cuuid, properties: UInt8(properties),
                        frame: nil)
                    for (d, descriptor) in (characteristic["descriptors"]?.array ?? []).enumerated() {
                        let dat = "\(at).descriptors[\(d)]"
                        db.addAttribute(
                            handle: try handleValue(descriptor["handle"], "\(dat).handle", name),
                            uuid: try uuidValue(descriptor["uuid"], "\(dat).uuid", name), frame: nil)
                    }
                }
            }
            for entry in device["handles"]?.object?.entries ?? [] {
                let at = "\(path).handles.\(entry.key)"
                guard let handle = parseHandle(entry.key) else {
                    throw GATTMapError("\(name): \(at): '\(entry.key)' is not a handle")
                }
                db.addAttribute(handle: handle, uuid: try uuidValue(entry.value, at, name), frame: nil)
            }
            let addressText = device["addr"]?.string ?? "*"
            if addressText == "*" {
                map.anyDevice = db
            } else if addressText == "local" {
                map.local = db
            } else {
                guard let address = BluetoothAddress(addressText) else {
                    throw GATTMapError("\(name): \(path).addr: '\(addressText)' is not a Bluetooth address")
                }
                map.devices[address] = db
            }
        }
        return map
    }

    private static func uuidValue(_ value: JSONValue?, _ path: String, _ name: String) throws(GATTMapError) -> BluetoothUUID {
        guard let text = value?.string, let uuid = BluetoothUUID(text) else {
            throw GATTMapError("\(name): \(path): expected a UUID string such as \"2a37\"")
        }
        return uuid
    }

    private static func handleValue(_ value: JSONValue?, _ path: String, _ name: String) throws(GATTMapError) -> UInt16 {
        if let number = value?.int64, (0...0xFFFF).contains(number) { return UInt16(number) }
        if let text = value?.string, let handle = parseHandle(text) { return handle }
        throw GATTMapError("\(name): \(path): expected a handle (0–65535)")
    }

    public static func parseHandle(_ text: String) -> UInt16? {
        text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
    }

    /// The map as JSON, indented one device, service and characteristic per line.
    public static func render(_ databases: [GATTServer: GATTDatabase]) -> String {
        var lines: [String] = ["{\"devices\": ["]
        let sorted = databases.sorted { $0.key < $1.key }
        for (d, (server, db)) in sorted.enumerated() {
            switch server {
            case .device(let address): lines.append("  {\"addr\": \"\(address)\", \"services\": [")
            case .localAdapter: lines.append("  {\"addr\": \"local\", \"services\": [")
            }
            let services = db.services
            for (s, service) in services.enumerated() {
                var header = "    {\"uuid\": \"\(service.uuid)\", \"start\": \(service.start), \"end\": \(service.end)"
                if !service.primary { header += ", \"primary\": false" }
                if let name = AssignedNames.uuid(service.uuid) { header += ", \"name\": \(quoted(name))" }
                let characteristics = db.characteristics.filter {
                    $0.declarationHandle >= service.start && $0.declarationHandle <= service.end
                }
                lines.append(header + ", \"characteristics\": [")
                for (c, characteristic) in characteristics.enumerated() {
                    let next = characteristics.dropFirst(c + 1).first?.declarationHandle ?? (service.end &+ 1)
                    let descriptors = db.attributes.filter { $0.key > characteristic.valueHandle && $0.key < next }
                        .sorted { $0.key < $1.key }
                    var line = "      {\"uuid\": \"\(characteristic.uuid)\", \"handle\": \(characteristic.declarationHandle), "
                    line += "\"value_handle\": \(characteristic.valueHandle), \"properties\": \(characteristic.properties)"
                    if let name = AssignedNames.uuid(characteristic.uuid) { line += ", \"name\": \(quoted(name))" }
                    if !descriptors.isEmpty {
                        line += ", \"descriptors\": ["
                        line += descriptors.map { "{\"uuid\": \"\($0.value.uuid)\", \"handle\": \($0.key)}" }
                            .joined(separator: ", ")
                        line += "]"
                    }
                    lines.append(line + "}" + (c < characteristics.count - 1 ? "," : ""))
                }
                lines.append("    ]}" + (s < services.count - 1 ? "," : ""))
            }
            // Attributes known outside any discovered service (Find Information without service discovery).
            let loose = db.attributes.filter { handle, _ in !services.contains { $0.start <= handle && handle <= $0.end } }
            if !loose.isEmpty {
                lines[lines.count - 1] += ""
                let entries = loose.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value.uuid)\"" }
                lines.append("  ], \"handles\": {\(entries.joined(separator: ", "))}}" + (d < sorted.count - 1 ? "," : ""))
            } else {
                lines.append("  ]}" + (d < sorted.count - 1 ? "," : ""))
            }
        }
        lines.append("]}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// A GATT map file that cannot be used: the message says which file, where and why.
public struct GATTMapError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
