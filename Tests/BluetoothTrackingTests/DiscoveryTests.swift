import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

/// Handles resolved to UUIDs from discovery, from an earlier connection, and from a GATT map
/// (Core v5.4, Vol 3, Part G, §4.4–4.7).
struct DiscoveryTests {
    static let peer = "C2:6B:30:F9:0E:C7"
    static let nordicUARTService = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    static let nordicUARTRX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"

    /// Frames of the discovery responses that taught each part of the peer's database.
    struct Discovery {
        var services = 0
        var uartService = 0
        var heartRateCharacteristics = 0
        var descriptors = 0
        var uartCharacteristics = 0
    }

    /// A heart-rate sensor's database, discovered as a phone does it:
    /// 0x0001–0x0005 Generic Access; 0x000C–0x000F Heart Rate: 0x000D declares 2A37 at 0x000E, 0x000F its CCCD;
    /// 0x0010–0xFFFF Nordic UART: 0x0011 declares 6E400002 at 0x0012.
    static func discover(_ trace: inout HCITrace, _ handle: UInt16) -> Discovery {
        var found = Discovery()
        // §4.4.1 Discover All Primary Services: Read By Group Type for 0x2800.
        trace.att(handle, .sent, "10 01 00 FF FF 00 28")
        found.services = trace.att(handle, .received, "11 06 01 00 05 00 00 18 0C 00 0F 00 0D 18")
        trace.att(handle, .sent, "10 10 00 FF FF 00 28")
        found.uartService = trace.att(
            handle, .received, "11 14 10 00 FF FF 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 01 00 40 6E")
        // §4.6.1 Discover All Characteristics of a Service: Read By Type for 0x2803.
        trace.att(handle, .sent, "08 0C 00 0F 00 03 28")
        found.heartRateCharacteristics = trace.att(handle, .received, "09 07 0D 00 10 0E 00 37 2A")
        // §4.7.1 Discover All Characteristic Descriptors: Find Information.
        trace.att(handle, .sent, "04 0F 00 0F 00")
        found.descriptors = trace.att(handle, .received, "05 01 0F 00 02 29")
        trace.att(handle, .sent, "08 10 00 FF FF 03 28")
        found.uartCharacteristics = trace.att(
            handle, .received, "09 15 11 00 0C 12 00 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 02 00 40 6E")
        return found
    }

    @Test func `discovery resolves later notifications and writes, naming the frame that taught them`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        let found = Self.discover(&trace, 0x0040)
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let cccd = trace.att(0x0040, .sent, "12 0F 00 01 00")
        let uart = trace.att(0x0040, .sent, "52 12 00 68 69")
        let events = track(trace)

        let heartRate = try #require(events.att(frame: notify, op: "notify"))
        #expect(heartRate.resolution == "2a37 discovery \(found.heartRateCharacteristics)")
        #expect(heartRate.attribute?.service?.description == "180d")
        #expect(heartRate.attribute?.characteristic == nil)

        let descriptor = try #require(events.att(frame: cccd, op: "write_req"))
        #expect(descriptor.resolution == "2902 discovery \(found.descriptors)")
        #expect(descriptor.attribute?.service?.description == "180d")
        #expect(descriptor.attribute?.characteristic?.description == "2a37")

        let rx = try #require(events.att(frame: uart, op: "write_cmd"))
        #expect(rx.resolution == "\(Self.nordicUARTRX) discovery \(found.uartCharacteristics)")
        #expect(rx.attribute?.service?.description == Self.nordicUARTService)
        #expect(events.diagnostics == [])
    }

    @Test func `discovery responses list what they found`() throws {
        var trace = HCITrace()
        let found = Self.discover(&trace, 0x0040)
        let events = track(trace)
        let services = try #require(events.att(frame: found.services, op: "read_by_group_rsp")?.discovered)
        #expect(services.map { "\($0.handle)-\($0.endOrValueHandle ?? 0) \($0.uuid)" } == ["1-5 1800", "12-15 180d"])
        let characteristics = try #require(
            events.att(frame: found.uartCharacteristics, op: "read_by_type_rsp")?.discovered)
        #expect(
            characteristics.map { "\($0.handle)>\($0.endOrValueHandle ?? 0) \($0.uuid) \($0.properties ?? 0)" } == [
                "17>18 \(Self.nordicUARTRX) 12"
            ])
        let descriptors = try #require(events.att(frame: found.descriptors, op: "find_info_rsp")?.discovered)
        #expect(descriptors.map { "\($0.handle) \($0.uuid)" } == ["15 2902"])
    }

    @Test func `find by type value teaches the service it searched for`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        // §4.4.2 Discover Primary Service by Service UUID: Find By Type Value for 0x2800 = 0x180D.
        trace.att(0x0040, .sent, "06 01 00 FF FF 00 28 0D 18")
        let response = trace.att(0x0040, .received, "07 0C 00 0F 00")
        let read = trace.att(0x0040, .sent, "0A 0C 00")
        let events = track(trace)
        let found = try #require(events.att(frame: response, op: "find_by_type_rsp")?.discovered)
        #expect(found.map { "\($0.handle)-\($0.endOrValueHandle ?? 0) \($0.uuid)" } == ["12-15 180d"])
        let declaration = try #require(events.att(frame: read, op: "read_req"))
        #expect(declaration.resolution == "2800 discovery \(response)")
        #expect(declaration.attribute?.service?.description == "180d")
    }

    @Test func `a second connection to the same peer resolves from the first one's discovery`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        let found = Self.discover(&trace, 0x0040)
        trace.disconnect(0x0040)
        trace.connect(0x0041, peer: Self.peer)
        let notify = trace.att(0x0041, .received, "1B 0E 00 06 52")
        let write = trace.att(0x0041, .sent, "52 12 00 68 69")
        let events = track(trace)
        #expect(events.att(frame: notify, op: "notify")?.resolution == "2a37 cache \(found.heartRateCharacteristics)")
        #expect(events.att(frame: notify, op: "notify")?.attribute?.service?.description == "180d")
        #expect(
            events.att(frame: write, op: "write_cmd")?.resolution
                == "\(Self.nordicUARTRX) cache \(found.uartCharacteristics)")
    }

    @Test func `another peer does not inherit a database, even on a reused connection handle`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        _ = Self.discover(&trace, 0x0040)
        trace.disconnect(0x0040)
        trace.connect(0x0040, peer: "00:1A:7D:1A:FD:C9")
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace)
        let other = try #require(events.att(frame: notify, op: "notify"))
        #expect(other.handle == 0x000E)
        #expect(other.attribute == nil)
        #expect(jsonLine(try #require(events.first { $0.frame == notify })).contains(#""handle":14,"uuid":null,"#))
    }

    static func heartRateMap() -> GATTDatabase {
        var database = GATTDatabase()
        database.addService(start: 0x000C, end: 0x000F, uuid: BluetoothUUID(0x180D), frame: nil)
        database.addCharacteristic(
            declaration: 0x000D, valueHandle: 0x000E, uuid: BluetoothUUID(0x2A37), properties: 0x10, frame: nil)
        database.addAttribute(handle: 0x000F, uuid: BluetoothUUID(0x2902), frame: nil)
        return database
    }

    @Test func `a GATT map resolves what nothing else knows`() throws {
        var options = Tracker.Options()
        options.gattMap.devices[try #require(BluetoothAddress(Self.peer))] = Self.heartRateMap()
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let cccd = trace.att(0x0040, .sent, "12 0F 00 01 00")
        let unknown = trace.att(0x0040, .received, "1B 30 00 01")
        let events = track(trace, options: options)
        let heartRate = try #require(events.att(frame: notify, op: "notify"))
        #expect(heartRate.resolution == "2a37 map")
        #expect(heartRate.attribute?.service?.description == "180d")
        #expect(events.att(frame: cccd, op: "write_req")?.attribute?.characteristic?.description == "2a37")
        #expect(events.att(frame: unknown, op: "notify")?.attribute == nil)
    }

    @Test func `discovery in the capture wins over the GATT map`() throws {
        var map = GATTDatabase()
        map.addAttribute(handle: 0x000E, uuid: BluetoothUUID(0x2A19), frame: nil)
        var options = Tracker.Options()
        options.gattMap.anyDevice = map
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        let found = Self.discover(&trace, 0x0040)
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace, options: options)
        #expect(
            events.att(frame: notify, op: "notify")?.resolution == "2a37 discovery \(found.heartRateCharacteristics)")
    }

    @Test func `a map entry for any device applies to a peer first seen mid-connection`() throws {
        // Captures without discovery often start after the connection: the peer's address is not known.
        var options = Tracker.Options()
        options.gattMap.anyDevice = Self.heartRateMap()
        var trace = HCITrace()
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let events = track(trace, options: options)
        #expect(events.att(frame: notify, op: "notify")?.resolution == "2a37 map")
    }

    @Test func `the host's own GATT server keeps a database apart from the peer's`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer, role: 1)
        // We discover the peer: its handle 3 is the Device Name (2A00).
        trace.att(0x0040, .sent, "08 01 00 FF FF 03 28")
        let theirs = trace.att(0x0040, .received, "09 07 02 00 02 03 00 00 2A")
        // The peer discovers us: our handle 3 is Service Changed (2A05), indicate.
        trace.att(0x0040, .received, "08 01 00 FF FF 03 28")
        let ours = trace.att(0x0040, .sent, "09 07 02 00 20 03 00 05 2A")
        let indication = trace.att(0x0040, .sent, "1D 03 00 01 00 FF FF")
        let confirmation = trace.att(0x0040, .received, "1E")
        let read = trace.att(0x0040, .sent, "0A 03 00")
        let name = trace.att(0x0040, .received, "0B 48 52 4D")
        let events = track(trace)

        let changed = try #require(events.att(frame: indication, op: "indicate"))
        #expect(changed.localServer)
        #expect(changed.resolution == "2a05 discovery \(ours)")
        let confirm = try #require(events.att(frame: confirmation, op: "confirm"))
        #expect(confirm.localServer)
        #expect(confirm.resolution == "2a05 discovery \(ours)")
        #expect(events.att(frame: read, op: "read_req")?.resolution == "2a00 discovery \(theirs)")
        let response = try #require(events.att(frame: name, op: "read_rsp"))
        #expect(!response.localServer)
        #expect(response.resolution == "2a00 discovery \(theirs)")
        let line = jsonLine(try #require(events.first { $0.frame == indication }))
        #expect(line.contains(#""handle":3,"server":"local","uuid":"2a05","uuid_from":"discovery","#))
    }

    @Test func `the host's own database carries over to a connection with another peer`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        trace.att(0x0040, .received, "08 01 00 FF FF 03 28")
        let ours = trace.att(0x0040, .sent, "09 07 02 00 20 03 00 05 2A")
        trace.disconnect(0x0040)
        trace.connect(0x0041, peer: "00:1A:7D:1A:FD:C9")
        let indication = trace.att(0x0041, .sent, "1D 03 00 01 00 FF FF")
        let events = track(trace)
        let changed = try #require(events.att(frame: indication, op: "indicate"))
        #expect(changed.localServer)
        #expect(changed.resolution == "2a05 cache \(ours)")
    }

    @Test func `learned databases list every server by address`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: Self.peer)
        _ = Self.discover(&trace, 0x0040)
        let tracker = Tracker()
        for record in trace.records { record.withRecord { tracker.consume($0) { _ in } } }
        let databases = tracker.learnedDatabases
        let address = try #require(BluetoothAddress(Self.peer))
        let database = try #require(databases[.device(address)])
        #expect(
            database.services.map { "\($0.start)-\($0.end) \($0.uuid)" } == [
                "1-5 1800", "12-15 180d", "16-65535 \(Self.nordicUARTService)",
            ])
        #expect(database.characteristics.map(\.valueHandle) == [14, 18])
    }

    /// A handle resolved, then learned more of (its attribute, then its service and the
    /// characteristic it describes): each answer is what the database knows by then.
    @Test func `a remembered resolution is forgotten when the database learns more`() {
        var database = GATTDatabase()
        #expect(database.resolve(remembering: 0x000F, source: .discovery) == nil)
        database.addAttribute(handle: 0x000F, uuid: BluetoothUUID(0x2902), frame: 7)
        #expect(database.resolve(remembering: 0x000F, source: .discovery)?.uuid == BluetoothUUID(0x2902))
        #expect(database.resolve(remembering: 0x000F, source: .discovery)?.service == nil)
        database.addService(start: 0x000C, end: 0x000F, uuid: BluetoothUUID(0x180D), frame: 5)
        #expect(database.resolve(remembering: 0x000F, source: .discovery)?.service == BluetoothUUID(0x180D))
        database.addCharacteristic(
            declaration: 0x000D, valueHandle: 0x000E, uuid: BluetoothUUID(0x2A37), properties: 0x10, frame: 6)
        let resolved = database.resolve(remembering: 0x000F, source: .discovery)
        #expect(resolved == database.resolve(0x000F, source: .discovery))
        #expect(resolved?.characteristic == BluetoothUUID(0x2A37))
        // The same handle asked for from another source is answered for that source.
        #expect(database.resolve(remembering: 0x000F, source: .map)?.frame == nil)
        #expect(database.resolve(remembering: 0x000F, source: .discovery)?.frame == 7)
    }
}
