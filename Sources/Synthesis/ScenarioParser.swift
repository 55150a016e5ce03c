import BluetoothPackets
import ByteReading
import CaptureModel
import FileAccess
import JSON
import PayloadDecoders

extension Scenario {
    /// Parses a scenario file; `directory` resolves layout paths.
    public static func parse(
        bytes: [UInt8], name file: String, directory: String, decoders: [any PayloadDecoder] = Registry.builtIn
    ) throws(ScenarioError) -> Scenario {
        let document: JSONValue
        let lines: [String: Int]
        do {
            (document, lines) = try JSONValue.parseWithLocations(bytes)
        } catch {
            throw ScenarioError(
                file: file, line: error.line, path: "$", message: "not valid JSON: \(error.message)", isUnreadable: true)
        }
        let reader = ScenarioReader(file: file, lines: lines)
        let context = ScenarioContext(directory: directory, decoders: decoders)
        return try ScenarioParser(reader: reader, context: context).scenario(document)
    }

    public static func load(path: String, decoders: [any PayloadDecoder] = Registry.builtIn) throws(ScenarioError) -> Scenario {
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path, limit: 16 << 20)
        } catch {
            throw ScenarioError(file: path, line: nil, path: "$", message: "cannot be read: \(error.reason)", isUnreadable: true)
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return try parse(bytes: bytes, name: path, directory: directory, decoders: decoders)
    }
}

struct ScenarioParser {
    let reader: ScenarioReader
    let context: ScenarioContext
    /// Connection handles 0x040…0xEFF.
    static let maximumConnections = 0xEFF - 0x040 + 1

    func fail(_ path: String, _ message: String) -> ScenarioError { reader.error(path, message) }

    func checkKeys(_ object: JSONObject, _ allowed: Set<String>, at path: String) throws(ScenarioError) {
        for key in object.keys where !allowed.contains(key) {
            throw fail("\(path).\(key)", "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    func object(_ value: JSONValue?, at path: String) throws(ScenarioError) -> JSONObject {
        guard let object = value?.object else { throw fail(path, "expected an object") }
        return object
    }

    func seconds(_ value: JSONValue?, at path: String, default fallback: Double? = nil) throws(ScenarioError) -> Int64 {
        guard let value else {
            if let fallback { return Int64((fallback * 1_000_000).rounded()) }
            throw fail(path, "missing (seconds)")
        }
        guard let x = value.double, x >= 0, x < 1e9 else { throw fail(path, "expected seconds ≥ 0") }
        return Int64((x * 1_000_000).rounded())
    }

    func milliseconds(_ value: JSONValue?, at path: String, default fallback: Double) throws(ScenarioError) -> Int64 {
        guard let value else { return Int64(fallback * 1000) }
        guard let x = value.double, x >= 0, x < 1e9 else { throw fail(path, "expected milliseconds ≥ 0") }
        return Int64((x * 1000).rounded())
    }

    func uuid(_ value: JSONValue?, at path: String) throws(ScenarioError) -> BluetoothUUID {
        guard let text = value?.string, let uuid = BluetoothUUID(text) else {
            throw fail(path, "expected a UUID such as \"2a37\" or \"6e400001-b5a3-f393-e0a9-e50e24dcca9e\"")
        }
        return uuid
    }

    func integer(_ value: JSONValue?, at path: String, _ range: ClosedRange<Int64>) throws(ScenarioError) -> Int64 {
        let parsed: Int64?
        if let text = value?.string {
            parsed = text.lowercased().hasPrefix("0x") ? Int64(text.dropFirst(2), radix: 16) : Int64(text)
        } else {
            parsed = value?.int64
        }
        guard let number = parsed, range.contains(number) else {
            throw fail(path, "expected an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    func scenario(_ document: JSONValue) throws(ScenarioError) -> Scenario {
        let root = try object(document, at: "$")
        try checkKeys(root, ["name", "description", "seed", "start", "duration_s", "controller", "devices"], at: "$")
        var controller = ControllerSpec()
        if let spec = root["controller"] {
            let c = try object(spec, at: "$.controller")
            try checkKeys(c, ["address", "acl_buffer", "extended_reports", "enhanced_connection_complete"], at: "$.controller")
            if let text = c["address"] {
                guard let a = text.string.flatMap(BluetoothAddress.init) else {
                    throw fail("$.controller.address", "expected an address such as \"00:1A:7D:DA:71:13\"")
                }
                controller.address = a
            }
            if let b = c["acl_buffer"] { controller.aclBuffer = Int(try integer(b, at: "$.controller.acl_buffer", 27...251)) }
            controller.extendedReports = c["extended_reports"]?.bool ?? false
            controller.enhancedConnectionComplete = c["enhanced_connection_complete"]?.bool ?? true
        }
        var start = Int64(1_735_725_600) * 1_000_000  // 2025-01-01 10:00:00 UTC
        if let text = root["start"] {
            guard let s = text.string, let parsed = CivilTime.parseISO(s) else {
                throw fail("$.start", "expected an ISO time such as \"2025-06-01T10:00:00Z\"")
            }
            start = parsed
        }
        let duration = try seconds(root["duration_s"], at: "$.duration_s")
        guard duration > 0 else { throw fail("$.duration_s", "must be positive") }
        guard let list = root["devices"]?.array, !list.isEmpty else { throw fail("$.devices", "expected a list of devices") }
        var devices: [DeviceSpec] = []
        for (i, device) in list.enumerated() {
            devices.append(try self.device(device, at: "$.devices[\(i)]", duration: duration, controller: controller))
        }
        // Each connection gets its own HCI handle from 0x040 up; handles end at 0xEFF.
        if devices.reduce(0, { $0 + $1.connections.count }) > Self.maximumConnections {
            throw fail("$.devices", "more than \(Self.maximumConnections) connections: HCI handles run out at 0xEFF")
        }
        return Scenario(
            name: root["name"]?.string ?? reader.file, seed: UInt64(bitPattern: root["seed"]?.int64 ?? 1),
            start: start, duration: duration, controller: controller, devices: devices)
    }

    func device(_ json: JSONValue, at path: String, duration: Int64, controller: ControllerSpec) throws(ScenarioError)
        -> DeviceSpec
    {
        let d = try object(json, at: path)
        try checkKeys(d, ["name", "address", "address_type", "advertising", "gatt", "connections"], at: path)
        guard let addressText = d["address"]?.string, let address = BluetoothAddress(addressText) else {
            throw fail("\(path).address", "expected an address such as \"C2:6B:30:F9:0E:C7\"")
        }
        let typeName = d["address_type"]?.string ?? "random"
        guard typeName == "public" || typeName == "random" else {
            throw fail("\(path).address_type", "expected \"public\" or \"random\"")
        }
        let name = d["name"]?.string ?? addressText
        var device = DeviceSpec(
            name: name, address: address, addressType: typeName == "public" ? .public : .random, advertising: nil,
            services: [], connections: [], path: path)
        if let adv = d["advertising"] {
            device.advertising = try advertising(adv, at: "\(path).advertising", extended: controller.extendedReports)
        }
        if let gatt = d["gatt"] {
            guard let services = gatt.array else { throw fail("\(path).gatt", "expected a list of services") }
            for (i, service) in services.enumerated() {
                device.services.append(try self.service(service, at: "\(path).gatt[\(i)]"))
            }
        }
        if let connections = d["connections"]?.array {
            for (i, connection) in connections.enumerated() {
                device.connections.append(
                    try self.connection(connection, at: "\(path).connections[\(i)]", device: device, duration: duration))
            }
        }
        return device
    }

    static let pduTypes: [String: UInt8] = [
        "adv_ind": 0, "adv_direct_ind": 1, "adv_scan_ind": 2, "adv_nonconn_ind": 3,
    ]

    func advertising(_ json: JSONValue, at path: String, extended: Bool) throws(ScenarioError) -> AdvertisingSpec {
        let a = try object(json, at: path)
        try checkKeys(
            a, ["interval_ms", "jitter_ms", "times_s", "start_s", "end_s", "pdu", "data", "scan_response", "repeat", "rssi",
                "pause_when_connected"], at: path)
        let pduName = a["pdu"]?.string ?? "adv_ind"
        guard let pdu = Self.pduTypes[pduName] else {
            throw fail("\(path).pdu", "expected one of \(Self.pduTypes.keys.sorted().joined(separator: ", "))")
        }
        var times: [Int64]?
        if let list = a["times_s"] {
            guard let values = list.array else { throw fail("\(path).times_s", "expected a list of seconds") }
            var parsed: [Int64] = []
            for (i, v) in values.enumerated() { parsed.append(try seconds(v, at: "\(path).times_s[\(i)]")) }
            times = parsed.sorted()
        }
        let interval = try milliseconds(a["interval_ms"], at: "\(path).interval_ms", default: 100)
        guard interval >= 20_000 || times != nil else {
            throw fail("\(path).interval_ms", "advertising intervals are at least 20 ms")
        }
        var spec = AdvertisingSpec(
            interval: interval, jitter: try milliseconds(a["jitter_ms"], at: "\(path).jitter_ms", default: 10),
            times: times, start: try seconds(a["start_s"], at: "\(path).start_s", default: 0),
            end: try a["end_s"].map { v throws(ScenarioError) in try seconds(v, at: "\(path).end_s") }, pdu: pdu,
            data: try adEntries(a["data"], at: "\(path).data"), scanResponse: nil,
            repeatCount: Int(try integer(a["repeat"] ?? .number("1"), at: "\(path).repeat", 1...1_000_000)),
            rssi: try ValueSeries.parse(a["rssi"] ?? .number("-60"), at: "\(path).rssi", reader),
            pauseWhenConnected: a["pause_when_connected"]?.bool ?? true, path: path)
        if let response = a["scan_response"] {
            guard pdu == 0 || pdu == 2 else {
                throw fail("\(path).scan_response", "only scannable advertising (adv_ind, adv_scan_ind) has scan responses")
            }
            spec.scanResponse = try adEntries(response, at: "\(path).scan_response")
        }
        return spec
    }

    func adEntries(_ json: JSONValue?, at path: String) throws(ScenarioError) -> [ADEntrySpec] {
        guard let list = json?.array else { throw fail(path, "expected a list of AD structures") }
        var entries: [ADEntrySpec] = []
        for (i, item) in list.enumerated() {
            let here = "\(path)[\(i)]"
            let e = try object(item, at: here)
            let value = e["value"]
            switch e["type"] {
            case .string("flags"):
                entries.append(ADEntrySpec(kind: .fixed(type: 0x01, data: [UInt8(try integer(value, at: "\(here).value", 0...255))])))
            case .string("name"), .string("short_name"):
                guard let text = value?.string else { throw fail("\(here).value", "expected the name") }
                entries.append(ADEntrySpec(kind: .fixed(type: e["type"] == .string("name") ? 0x09 : 0x08, data: Array(text.utf8))))
            case .string("tx_power"):
                let power = try integer(value, at: "\(here).value", -127...127)
                entries.append(ADEntrySpec(kind: .fixed(type: 0x0A, data: [UInt8(bitPattern: Int8(power))])))
            case .string("uuids"):
                guard let texts = value?.array, !texts.isEmpty else { throw fail("\(here).value", "expected a list of UUIDs") }
                var uuids: [BluetoothUUID] = []
                for (j, t) in texts.enumerated() { uuids.append(try uuid(t, at: "\(here).value[\(j)]")) }
                let short = uuids.allSatisfy { ($0.shortValue ?? 0x1_0000) <= 0xFFFF }
                let long = uuids.allSatisfy { $0.shortValue == nil }
                guard short || long else { throw fail("\(here).value", "list 16-bit and 128-bit UUIDs in separate entries") }
                entries.append(
                    ADEntrySpec(kind: .fixed(type: short ? 0x03 : 0x07, data: uuids.flatMap { $0.wireBytes(size: short ? 2 : 16) })))
            case .string("manufacturer"):
                let company = UInt16(try integer(e["company"], at: "\(here).company", 0...0xFFFF))
                guard let payload = try PayloadSpec.parse(item, at: here, reader, context: context) else {
                    throw fail(here, "give the data as hex, text, decoder + fields or layout + fields")
                }
                entries.append(ADEntrySpec(kind: .manufacturer(company: company, payload)))
            case .string("service_data"):
                let service = try uuid(e["uuid"], at: "\(here).uuid")
                guard let payload = try PayloadSpec.parse(item, at: here, reader, context: context) else {
                    throw fail(here, "give the data as hex, text, decoder + fields or layout + fields")
                }
                entries.append(ADEntrySpec(kind: .serviceData(uuid: service, payload)))
            case .number:
                let type = UInt8(try integer(e["type"], at: "\(here).type", 0...255))
                guard let hex = e["hex"]?.string, let bytes = Hex.decode(hex) else {
                    throw fail("\(here).hex", "a numeric AD type takes its data as hex")
                }
                entries.append(ADEntrySpec(kind: .fixed(type: type, data: bytes)))
            default:
                throw fail(
                    "\(here).type",
                    "expected flags, name, short_name, tx_power, uuids, manufacturer, service_data or a number")
            }
        }
        return entries
    }

    static let propertyBits: [String: UInt8] = [
        "broadcast": 0x01, "read": 0x02, "write_without_response": 0x04, "write": 0x08, "notify": 0x10,
        "indicate": 0x20, "signed_write": 0x40,
    ]

    func service(_ json: JSONValue, at path: String) throws(ScenarioError) -> ServiceSpec {
        let s = try object(json, at: path)
        try checkKeys(s, ["service", "characteristics"], at: path)
        var service = ServiceSpec(uuid: try uuid(s["service"], at: "\(path).service"), characteristics: [])
        for (i, item) in (s["characteristics"]?.array ?? []).enumerated() {
            let here = "\(path).characteristics[\(i)]"
            let c = try object(item, at: here)
            try checkKeys(c, ["uuid", "properties", "value", "descriptors"], at: here)
            var properties: UInt8 = 0
            for (j, name) in (c["properties"]?.array ?? [.string("read")]).enumerated() {
                guard let text = name.string, let bit = Self.propertyBits[text] else {
                    throw fail(
                        "\(here).properties[\(j)]", "expected one of \(Self.propertyBits.keys.sorted().joined(separator: ", "))")
                }
                properties |= bit
            }
            var value: [UInt8] = []
            if let v = c["value"] {
                guard let text = v.string, let bytes = Hex.decode(text) else {
                    throw fail("\(here).value", "expected the initial value as hex")
                }
                value = bytes
            }
            var descriptors: [BluetoothUUID] = []
            for (j, d) in (c["descriptors"]?.array ?? []).enumerated() { descriptors.append(try uuid(d, at: "\(here).descriptors[\(j)]")) }
            service.characteristics.append(
                CharacteristicSpec(uuid: try uuid(c["uuid"], at: "\(here).uuid"), properties: properties, value: value, descriptors: descriptors))
        }
        return service
    }

    func connection(_ json: JSONValue, at path: String, device: DeviceSpec, duration: Int64) throws(ScenarioError)
        -> ConnectionSpec
    {
        let c = try object(json, at: path)
        try checkKeys(
            c, ["at_s", "duration_s", "interval_ms", "mtu", "discover", "subscribe", "actions", "disconnect", "reason",
                "bearer", "channels", "mps", "credits", "signaling"],
            at: path)
        let at = try seconds(c["at_s"], at: "\(path).at_s")
        var spec = ConnectionSpec(
            at: at, duration: try seconds(c["duration_s"], at: "\(path).duration_s", default: Double(duration - at) / 1e6),
            interval: try milliseconds(c["interval_ms"], at: "\(path).interval_ms", default: 30),
            deviceMTU: Int(try integer(c["mtu"] ?? .number("23"), at: "\(path).mtu", 23...517)),
            discover: c["discover"]?.bool ?? true, subscribe: [], actions: [],
            localDisconnect: (c["disconnect"]?.string ?? "local") == "local",
            reason: UInt8(try integer(c["reason"] ?? .number("19"), at: "\(path).reason", 0...255)), path: path)
        guard spec.interval >= 7_500 else { throw fail("\(path).interval_ms", "connection intervals are at least 7.5 ms") }
        try bearer(c, at: path, into: &spec)
        let characteristics = device.services.flatMap(\.characteristics)
        for (i, item) in (c["subscribe"]?.array ?? []).enumerated() {
            let here = "\(path).subscribe[\(i)]"
            let target = try uuid(item, at: here)
            guard let characteristic = characteristics.first(where: { $0.uuid == target }) else {
                throw fail(here, "\(target) is not in this device's gatt")
            }
            guard characteristic.notifies || characteristic.indicates else {
                throw fail(here, "\(target) can neither notify nor indicate")
            }
            spec.subscribe.append(target)
        }
        for (i, item) in (c["actions"]?.array ?? []).enumerated() {
            spec.actions.append(try action(item, at: "\(path).actions[\(i)]", characteristics: characteristics))
        }
        return spec
    }

    /// `bearer` ("le", "bredr" or "eatt") and, for EATT, `channels`, `mps` and `credits`.
    func bearer(_ c: JSONObject, at path: String, into spec: inout ConnectionSpec) throws(ScenarioError) {
        let name = c["bearer"].map { $0.string ?? "" } ?? "le"
        switch name {
        case "le":
            spec.bearer = .le
        case "bredr":
            spec.bearer = .bredr
            // Core v5.4, Vol 3, Part F, §3.2.8: ATT_MTU on BR/EDR is at least 48.
            guard spec.deviceMTU >= 48 else { throw fail("\(path).mtu", "ATT over BR/EDR needs an MTU of at least 48") }
        case "eatt":
            let channels = Int(try integer(c["channels"] ?? .number("2"), at: "\(path).channels", 1...5))
            spec.bearer = .eatt(channels: channels)
            // Vol 3, Part G, §5.3.1: EATT channels have an MTU and MPS of at least 64.
            guard spec.deviceMTU >= 64 else { throw fail("\(path).mtu", "EATT needs an MTU of at least 64") }
            spec.mps = Int(try integer(c["mps"] ?? .number("64"), at: "\(path).mps", 64...65533))
            spec.credits = Int(try integer(c["credits"] ?? .number("10"), at: "\(path).credits", 1...65535))
            switch c["signaling"]?.string ?? "enhanced" {
            case "enhanced": spec.leCreditRequests = false
            case "le_credit": spec.leCreditRequests = true
            default: throw fail("\(path).signaling", "expected \"enhanced\" or \"le_credit\"")
            }
        default:
            throw fail("\(path).bearer", "expected \"le\", \"bredr\" or \"eatt\"")
        }
        if case .eatt = spec.bearer { return }
        for key in ["channels", "mps", "credits", "signaling"] where c[key] != nil {
            throw fail("\(path).\(key)", "only an \"eatt\" bearer has \(key)")
        }
    }

    func action(_ json: JSONValue, at path: String, characteristics: [CharacteristicSpec]) throws(ScenarioError)
        -> ActionSpec
    {
        let a = try object(json, at: path)
        try checkKeys(
            a, ["notify", "indicate", "write", "read", "subscribe", "with_response", "at_s", "every_ms", "count", "hex",
                "text", "decoder", "layout", "fields", "vectors"], at: path)
        let kinds: [(String, ActionSpec.Kind, UInt8)] = [
            ("notify", .notify, 0x10), ("indicate", .indicate, 0x20),
            ("write", .write(withResponse: a["with_response"]?.bool ?? true), 0x0C), ("read", .read, 0x02),
            ("subscribe", .subscribe, 0x30),
        ]
        guard let (key, kind, needed) = kinds.first(where: { a[$0.0] != nil }) else {
            throw fail(path, "an action needs one of notify, indicate, write, read or subscribe with a characteristic UUID")
        }
        let target = try uuid(a[key], at: "\(path).\(key)")
        guard let characteristic = characteristics.first(where: { $0.uuid == target }) else {
            throw fail("\(path).\(key)", "\(target) is not in this device's gatt")
        }
        guard characteristic.properties & needed != 0 else {
            throw fail("\(path).\(key)", "\(target) does not have the property for \(key)")
        }
        var every: Int64?
        if a["every_ms"] != nil { every = try milliseconds(a["every_ms"], at: "\(path).every_ms", default: 0) }
        if let every, every < 1000 { throw fail("\(path).every_ms", "at least 1 ms between repeated actions") }
        let count = try a["count"].map { v throws(ScenarioError) in Int(try integer(v, at: "\(path).count", 1...100_000_000)) }
        let payload = try PayloadSpec.parse(json, at: path, reader, context: context)
        switch kind {
        case .read, .subscribe: break
        default: if payload == nil {
            throw fail(path, "give the value as hex, text, decoder + fields or layout + fields")
        }
        }
        return ActionSpec(
            kind: kind, uuid: target, start: try seconds(a["at_s"], at: "\(path).at_s", default: 1), every: every,
            count: count ?? (every == nil ? 1 : nil), payload: payload, path: path)
    }
}
