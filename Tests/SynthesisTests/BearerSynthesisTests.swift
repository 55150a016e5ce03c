import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Synthesis
import Testing
import TestSupport

extension Event {
    fileprivate var attEvent: ATTEvent? {
        if case .att(let value) = body { return value }
        return nil
    }

    fileprivate var diagnosticID: String? {
        if case .diagnostic(let value) = body { return "\(value.id)" }
        return nil
    }

    fileprivate var signalCode: UInt8? {
        if case .signal(let value) = body { return value.code }
        return nil
    }
}

/// One connection's ATT carried three ways by the synthesizer (scripts/bearers.scenario.json, the
/// scenario of scripts/test-bearers, which also checks the captures with Wireshark).
struct BearerSynthesisTests {
    static let scenario = TestPaths.readText(TestPaths.packageRoot + "/scripts/bearers.scenario.json") ?? ""

    /// The scenario with its connection's bearer keys set.
    func variant(_ keys: String) -> String {
        Self.scenario.replacing(#""at_s": 0.5, "duration_s": 18,"#, with: #""at_s": 0.5, "duration_s": 18, \#(keys)"#)
    }

    /// What an att event says, without where it was on the link: frames, times and the bearer.
    func meaning(_ e: ATTEvent, address: Bool = true) -> String {
        var parts = ["\(e.op) \(e.direction.name)"]
        if address, let peer = e.peer { parts.append("\(peer)") }
        if let handle = e.handle { parts.append("handle \(handle)") }
        if let attribute = e.attribute {
            parts.append("\(attribute.uuid) in \(attribute.service.map { "\($0)" } ?? "-") from \(attribute.source.rawValue)")
        }
        if let range = e.range { parts.append("range \(range)") }
        if let type = e.attributeType { parts.append("type \(type)") }
        if let handles = e.handles { parts.append("handles \(handles)") }
        if let offset = e.offset { parts.append("offset \(offset)") }
        if let code = e.errorCode { parts.append("error \(code) for \(e.requestOpcode ?? 0)") }
        for d in e.discovered ?? [] { parts.append("found \(d.handle) \(d.uuid) \(d.endOrValueHandle ?? 0) \(d.properties ?? 0)") }
        if let value = e.value { parts.append("value \(Hex.string(value))") }
        if let mtu = e.exchangedMTU { parts.append("mtu \(mtu)") }
        if e.partial { parts.append("part") }
        return parts.joined(separator: " ")
    }

    func events(_ json: String) throws -> [Event] {
        var events: [Event] = []
        EventStream.read(try CaptureReader(bytes: try synthesize(json), formats: testFormats)) { events.append($0) }
        return events
    }

    @Test(arguments: [
        #""bearer": "eatt", "channels": 2, "credits": 4,"#,
        #""bearer": "eatt", "channels": 3, "mps": 80, "credits": 1, "signaling": "le_credit","#,
    ])
    func `EATT carries the same att events as the LE fixed channel`(keys: String) throws {
        let reference = try events(Self.scenario).compactMap(\.attEvent)
        let all = try events(variant(keys))
        let eatt = all.compactMap(\.attEvent)
        #expect(all.compactMap(\.diagnosticID) == [])
        #expect(eatt.map { meaning($0) }.sorted() == reference.map { meaning($0) }.sorted())
        // Set-up on the fixed channel, the actions over the EATT channels.
        #expect(eatt.first?.bearer == .fixed)
        #expect(eatt.last?.bearer == .eatt)
        let channels = Set(eatt.filter { $0.bearer == .eatt }.map(\.channel))
        #expect(channels.count == (keys.contains("\"channels\": 3") ? 3 : 2))
    }

    @Test func `a BR/EDR channel for PSM 0x001F carries the same att events, without Exchange MTU`() throws {
        let reference = try events(Self.scenario).compactMap(\.attEvent).filter { $0.op != "mtu_req" && $0.op != "mtu_rsp" }
        let all = try events(variant(#""bearer": "bredr","#))
        let bredr = all.compactMap(\.attEvent)
        #expect(all.compactMap(\.diagnosticID) == [])
        #expect(bredr.allSatisfy { $0.bearer == .bredr && $0.channel == 0x0040 })
        // The classic Connection Complete does not name the peer in att events yet: compare without it.
        #expect(bredr.map { meaning($0, address: false) }.sorted() == reference.map { meaning($0, address: false) }.sorted())
        #expect(all.compactMap(\.signalCode) == [0x02, 0x03, 0x04, 0x05, 0x04, 0x05, 0x06, 0x07])
    }

    @Test func `EATT signalling: one request for the channels, credits as they run out, and closing`() throws {
        let all = try events(variant(#""bearer": "eatt", "channels": 2, "credits": 2,"#))
        let codes = all.compactMap(\.signalCode)
        #expect(codes.first == 0x17)
        #expect(codes[1] == 0x18)
        #expect(codes.filter { $0 == 0x16 }.count > 10)
        #expect(codes.suffix(4) == [0x06, 0x07, 0x06, 0x07])
        #expect(all.compactMap(\.diagnosticID) == [])
    }

    @Test func `bearer keys are checked`() {
        /// The error's path and message, without the file and line.
        func error(_ json: String) -> String {
            do {
                _ = try synthesize(json)
                return "no error"
            } catch {
                return String("\(error)".drop { $0 != "$" })
            }
        }
        let path = "$.devices[0].connections[0]"
        #expect(error(variant(#""bearer": "usb","#)) == #"\#(path).bearer: expected "le", "bredr" or "eatt""#)
        #expect(error(variant(#""bearer": "le", "channels": 2,"#)) == #"\#(path).channels: only an "eatt" bearer has channels"#)
        #expect(error(variant(#""bearer": "eatt", "channels": 6,"#)) == "\(path).channels: expected an integer in 1…5")
        #expect(error(variant(#""bearer": "eatt", "mps": 23,"#)) == "\(path).mps: expected an integer in 64…65533")
        #expect(
            error(variant(#""bearer": "eatt", "signaling": "x","#)) == #"\#(path).signaling: expected "enhanced" or "le_credit""#)
        let lowMTU = variant(#""bearer": "bredr","#).replacing(#""mtu": 100"#, with: #""mtu": 40"#)
        #expect(error(lowMTU) == "\(path).mtu: ATT over BR/EDR needs an MTU of at least 48")
        let eattMTU = variant(#""bearer": "eatt","#).replacing(#""mtu": 100"#, with: #""mtu": 40"#)
        #expect(error(eattMTU) == "\(path).mtu: EATT needs an MTU of at least 64")
    }
}
