import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// The tracker on real third-party captures, against facts checked with tshark
/// (`tshark -r FILE -n -Y 'frame.number==N' -V`) and the MANIFEST's Wireshark counts.
@Suite(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
struct SharedCaptureEventTests {
    /// HCI captures (btsnoop, pcap/pcapng H4, PacketLogger) where every LE advertising report event
    /// holds one report, no extended report is fragmented, and every ATT frame one PDU (checked with
    /// `tshark -T fields -e bthci_evt.le_num_reports`), so event counts equal Wireshark's frame counts.
    static let hciCaptures = [
        "AndroidPad__btsnoop_hci.cfa", "Blue2thprinting__import.snoop", "MachineSpiritTimetable__btsnoop_bbcc.log",
        "OPPO-Earbuds__BT_HCI_2026_0719_110549.cfa", "airbily_smartwatch_reverse__bluethoot_logs.pcapng",
        "batteread__capture.btsnoop", "ble-pcap-analyzer__hci.pcap", "blefun__btsnoop_hci.log",
        "bluethooth_light_controll__btsnoop_hci.log", "bluetooth-pcap-test__bluetooth.pcap",
        "bluetooth_sample__btsnoop_hci.log", "darkelf__btsnoop_hci.log", "darkelf__test1.pcapng",
        "ec521__btsnoop_hci.log", "pongbot-mcp__btsnoop_hci.log.last", "revcar-cli__btsnoop_hci.log",
        "yeelock__btsnoop_hci.log",
    ]
    static let packetLoggerCaptures = [
        "btstack__pairing.pklg", "even-g2-smart-classroom__bt2.pklg", "iSAP__hci_dump.pklg",
        "peripage-tool__peripage_capture.pklg",
    ]

    @Test(arguments: hciCaptures + packetLoggerCaptures)
    func `adv and att events number as many as Wireshark's frames`(name: String) throws {
        let path = try #require(SharedCapture.path(name))
        let events = try events(inCapture: path)
        let adverts = events.filter { $0.type == .adv }.count
        let pdus = events.atts.filter { $0.att.kind == .pdu }.count
        if name.hasSuffix(".pklg") {
            #expect(adverts == Manifest.count(name, column: "adv (0x02/0x0d)"))
        } else {
            let legacy = try #require(Manifest.count(name, column: "adv"))
            let extended = try #require(Manifest.count(name, column: "extadv"))
            #expect(adverts == legacy + extended)
        }
        #expect(pdus == Manifest.count(name, column: "att"))
    }

    @Test func `a write response takes its handle from its own connection's request`() throws {
        // pongbot-mcp frames 718 (0x42 writes handle 0x002a), 725 (0x43 writes 0x0013), 726 (0x42's
        // Write Response), 730 (0x43's). tshark gives 726 "Request in Frame: 725" and 730 "728".
        let events = SharedCapture.pongbot
        try #require(!events.isEmpty)
        let first = try #require(events.att(frame: 726, op: "write_rsp"))
        #expect(first.connection == 0x42)
        #expect(first.handle == 42)
        #expect(first.requestFrame == 718)
        #expect(first.attribute?.uuid.description == "089822ce-ef89-11e9-81b4-2a2ae2dbcce4")
        let second = try #require(events.att(frame: 730, op: "write_rsp"))
        #expect(second.connection == 0x43)
        #expect(second.handle == 0x13)
        #expect(second.requestFrame == 725)
        #expect(second.attribute?.uuid.description == "2902")
    }

    @Test func `the light's writes to handle 17 resolve to its control characteristic`() throws {
        // bluethooth_light_controll frame 47881 (connection 0x03f3): characteristic 0x0010, value handle
        // 0x0011, UUID 8667556c-…; tshark resolves frame 48419's write to it in service d0611e78-….
        // The Write Requests to 0x0011 on 0x03f3: `-Y 'btatt.handle==0x0011 && btatt.opcode==0x12'`.
        let events = SharedCapture.lightControl
        try #require(!events.isEmpty)
        let writes = events.atts.filter { $0.att.connection == 1011 && $0.att.handle == 17 && $0.att.op == "write_req" }
        #expect(writes.map(\.frame) == [48419, 49247, 50170, 50187, 50662, 50666, 50706])
        for (frame, write) in writes {
            #expect(write.resolution == "8667556c-9a37-4c91-84ed-54ee27d90049 discovery 47881", "frame \(frame)")
            #expect(write.attribute?.service?.description == "d0611e78-bbb4-4591-a5f8-487910ae4366")
        }
        #expect(writes.first?.att.value == hex("20003a26a30d62fa01021032f811ffffff0504580d0a"))
    }

    @Test func `prepared writes in a real capture come together at the execute write response`() throws {
        // pongbot-mcp: Prepare Write Requests on connection 0x41, handle 0x0008, at offsets 0 (frame 352,
        // 110 bytes) and 110 (frame 357); Execute Write (flags 0x01) in 363, its response in 365.
        let events = SharedCapture.pongbot
        try #require(!events.isEmpty)
        let part1 = try #require(events.att(frame: 352, op: "prepare_write_req")?.value)
        let part2 = try #require(events.att(frame: 357, op: "prepare_write_req")?.value)
        #expect(part1.count == 110)
        #expect(part1.prefix(6) == hex("008f32020802")[...])
        #expect(part2 == hex("720baae9ec8c2ce3a46a186625ea4e01002a10f842211bf5b0973474f31d38c51f6e60"))
        let long = try #require(events.att(frame: 365, op: "write_long"))
        #expect(long.connection == 0x41)
        #expect(long.handle == 8)
        #expect(long.value == part1 + part2)
    }

    /// Events made where the consumer wants them (`read(makingIn:taking:)`, what `events` and
    /// `decode` use) are the ones `read` passes by value, every one, in order, damage reports and
    /// held events included; each slot is asked for once per event.
    @Test(arguments: ["pongbot-mcp__btsnoop_hci.log.last", "btstack__pairing.pklg", "darkelf__test1.pcapng"])
    func `events made in the consumer's slots are the events read by value`(name: String) throws {
        let path = try #require(SharedCapture.path(name))
        let byValue = try events(inCapture: path).map(jsonLine)
        let slots = UnsafeMutablePointer<Event>.allocate(capacity: 2)
        defer { slots.deallocate() }
        var asked = 0
        var taken: [String] = []
        EventStream.read(
            try CaptureReader(path: path, formats: testFormats),
            makingIn: {
                asked += 1
                return slots + asked % 2
            },
            taking: { event in
                #expect(event == slots + asked % 2)
                taken.append(jsonLine(event.move()))
            })
        #expect(asked == taken.count)
        #expect(byValue.count > 100)
        #expect(taken == byValue)
    }

    /// `EventJSON` writes an event's type from its own switch on the body: on every shared
    /// capture each line's `type` is the one `Event.type` names.
    @Test func `every event's JSON names the type the event has`() throws {
        var seen: Set<String> = []
        for path in TestPaths.sharedCaptureFiles {
            guard let reader = try? CaptureReader(path: path, formats: testFormats) else { continue }
            EventStream.read(reader) { event in
                let line = jsonLine(event)
                let type = event.type.rawValue
                #expect(line.contains(#""type":"\#(type)""#), "\(path) frame \(event.frame)")
                seen.insert(type)
            }
        }
        // Every type occurs in the shared captures.
        #expect(seen == Set(EventType.allCases.map(\.rawValue)))
    }
}
