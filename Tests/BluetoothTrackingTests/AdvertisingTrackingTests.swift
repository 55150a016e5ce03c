import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureFiles
import CaptureModel
import Testing

/// Advertising reports into `adv` events (Core v5.4, Vol 4, Part E, §7.7.65.2 and §7.7.65.13).
struct AdvertisingTrackingTests {
    @Test func `every report of a multi-report event becomes an adv event`() throws {
        var trace = HCITrace()
        // tshark reference frame 61: two reports in one event.
        let frame = trace.leMeta(
            0x02,
            hex(
                """
                02
                02 00 C1 3F 2B 7D 1A 00 0E 02 01 06 05 16 1A 18 1B 07 04 08 45 6E 76 AF
                03 01 2A 24 10 82 2E DC 1A 02 01 04 13 FF FF FF 01 00 00 00 89 38 5E B0 94 23 55 51 82 56 8B 96 02 0A 04 A0
                """))
        let events = track(trace)
        let adverts = events.compactMap(\.advertisement)
        #expect(events.allSatisfy { $0.frame == frame })
        #expect(adverts.map(\.address.description) == ["00:1A:7D:2B:3F:C1", "DC:2E:82:10:24:2A"])
        #expect(adverts.map(\.pdu) == [.advScanInd, .advNonconnInd])
        #expect(adverts.map(\.rssi) == [-81, -96])
        #expect(adverts.first?.data.localName == "Env")
    }

    @Test func `a report whose data runs past the event still delivers the reports before it`() throws {
        var trace = HCITrace()
        let frame = trace.leMeta(
            0x02,
            hex(
                """
                02
                02 00 C1 3F 2B 7D 1A 00 0E 02 01 06 05 16 1A 18 1B 07 04 08 45 6E 76 AF
                03 01 2A 24 10 82 2E DC 14 02 01 04 02 0A
                """))
        let next = trace.leMeta(0x02, hex("01 00 01 C7 0E F9 30 6B C2 00 C1"))
        let events = track(trace)
        #expect(
            events.compactMap(\.advertisement).map(\.address.description) == ["00:1A:7D:2B:3F:C1", "C2:6B:30:F9:0E:C7"])
        #expect(events.map(\.frame) == [frame, frame, next])
        #expect(events.diagnostics == ["\(frame):adv.malformed_report"])
        // Report 2's data starts at byte 37 of the event packet (34 after the subevent code's 3 bytes).
        #expect(events[1].diagnostic?.offset == 37)
    }

    @Test func `an AD structure overrunning its report is a diagnostic before the advert`() throws {
        var trace = HCITrace()
        // Data "02 01 06 05 09 41 42": the name structure declares 5 bytes and has 3.
        let frame = trace.leMeta(0x02, hex("01 00 01 C7 0E F9 30 6B C2 07 02 01 06 05 09 41 42 C1"))
        let events = track(trace)
        #expect(events.map(\.type) == [.diagnostic, .adv])
        let diagnostic = try #require(events.first?.diagnostic)
        #expect(diagnostic.id.description == "ad.length_overrun")
        // The data starts at byte 13 of the event packet (after code, length, subevent, count, event
        // type, address type, address and data length); the name's length byte is at data offset 3.
        #expect(diagnostic.offset == 16)
        #expect(events.last?.advertisement?.data.bytes == hex("02 01 06 05 09 41 42"))
        #expect(events.allSatisfy { $0.frame == frame })
    }

    @Test func `extended advertising fragments are joined per address and set`() throws {
        var trace = HCITrace()
        // Data status 01 (more to come) for SID 1, a complete report of SID 2 between, then the rest of SID 1.
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 1, data: hex("02 01 06 09 09 4C 6F 6E")))
        let sid2 = trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0000, sid: 2, data: hex("02 01 06")))
        let sid1 = trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0000, sid: 1, data: hex("67 4E 61 6D 65")))
        let events = track(trace)
        let adverts = events.compactMap { e in e.advertisement.map { (e.frame, $0) } }
        #expect(adverts.map(\.0) == [sid2, sid1])
        #expect(adverts.map(\.1.sid) == [2, 1])
        let joined = try #require(adverts.last?.1)
        #expect(joined.data.localName == "LongName")
        #expect(joined.pdu == .ext)
        #expect(joined.primaryPHY == 1)
        #expect(joined.secondaryPHY == 2)
        #expect(joined.advertisedTxPower == nil)
        #expect(joined.rssi == -64)
        #expect(!joined.truncated)
        #expect(events.diagnostics == [])
    }

    @Test func `fragments of different advertisers with the same set id are not mixed`() throws {
        var trace = HCITrace()
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 1, data: [0xAA]))
        trace.leMeta(
            0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 1, data: [0xBB], address: "77 22 33 44 55 66"))
        trace.leMeta(
            0x0D, HCITrace.extendedReport(eventType: 0x0000, sid: 1, data: [0xAB], address: "77 22 33 44 55 66"))
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0000, sid: 1, data: [0xBA]))
        let adverts = track(trace).compactMap(\.advertisement)
        #expect(adverts.map(\.address.description) == ["66:55:44:33:22:77", "66:55:44:33:22:11"])
        #expect(adverts.map(\.data.bytes) == [[0xBB, 0xAB], [0xAA, 0xBA]])
    }

    @Test func `a fragment the controller truncated ends the data and is marked truncated`() throws {
        var trace = HCITrace()
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 1, data: hex("02 01 06")))
        // Data status 10: incomplete, truncated; no more fragments will come.
        let last = trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0040, sid: 1, data: hex("03 FF 59 00")))
        let events = track(trace)
        #expect(events.map(\.frame) == [last])
        let advert = try #require(events.first?.advertisement)
        #expect(advert.truncated)
        #expect(advert.data.bytes == hex("02 01 06 03 FF 59 00"))
        #expect(jsonLine(try #require(events.first)).contains(#""truncated":true,"#))
    }

    @Test func `an AD overrun in joined fragments points at its byte only when that byte is in the last record`() throws
    {
        var trace = HCITrace()
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 1, data: hex("02 01 06")))
        // The joined data is "02 01 06 05 09 41": the length byte 05 (joined offset 3) is this record's first
        // data byte, at offset 28 of the event packet (2 header bytes, the subevent, 25 bytes of report fields).
        let last = trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0000, sid: 1, data: hex("05 09 41")))
        // Here the broken structure starts in the first record and runs on into the second.
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 2, data: hex("02 01 06 09 09")))
        let other = trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0000, sid: 2, data: hex("41 42")))
        let events = track(trace)
        let diagnostics = events.compactMap { e in e.diagnostic.map { (e.frame, $0) } }
        #expect(diagnostics.map(\.0) == [last, other])
        #expect(diagnostics.map(\.1.id.description) == ["ad.length_overrun", "ad.length_overrun"])
        #expect(diagnostics.map(\.1.offset) == [28, nil])
        #expect(
            diagnostics.last?.1.reason
                == "AD structure from 66:55:44:33:22:11 at data offset 3 runs past the data: bad length: declares 9, 3 present"
        )
    }

    @Test func `fragments never completed are reported at the end`() throws {
        var trace = HCITrace()
        let first = trace.leMeta(0x0D, HCITrace.extendedReport(eventType: 0x0020, sid: 3, data: hex("02 01 06")))
        let events = track(trace)
        #expect(events.compactMap(\.advertisement).isEmpty)
        let diagnostic = try #require(events.last?.diagnostic)
        #expect(diagnostic.id.description == "adv.incomplete_fragments")
        #expect(
            diagnostic.reason
                == "extended advertising data from 66:55:44:33:22:11 (SID 3) never completed after frame \(first)")
    }

    @Test(arguments: [
        (0x0013 as UInt16, AdvertisingPDUKind.advInd), (0x0015, .advDirectInd), (0x0012, .advScanInd),
        (0x0010, .advNonconnInd), (0x001B, .scanRsp), (0x001A, .scanRsp),
    ])
    func `legacy PDUs in extended reports keep their legacy kind`(eventType: UInt16, kind: AdvertisingPDUKind) {
        // §7.7.65.13, table of legacy event type values.
        var trace = HCITrace()
        trace.leMeta(0x0D, HCITrace.extendedReport(eventType: eventType, sid: 0xFF, data: hex("02 01 06")))
        let advert = track(trace).compactMap(\.advertisement).first
        #expect(advert?.pdu == kind)
        #expect(advert?.sid == nil)
        #expect(advert?.primaryPHY == nil)
    }
}

/// Advertising PDUs from air captures (Core v5.4, Vol 6, Part B, §2.3).
struct AirAdvertisingTests {
    @Test func `an AD overrun in an extended advertising PDU on air points at its length byte`() throws {
        // LINKTYPE_BLUETOOTH_LE_LL (251), no CRC: access address, header (PDU type 7, length 16), extended
        // header (length 9: flags 0x09 = AdvA and ADI, AdvA, ADI), then the data "02 01 06 05 09 41".
        let packet = hex("D6 BE 89 8E 07 10 09 09 C7 0E F9 30 6B C2 01 10 02 01 06 05 09 41")
        let record = StoredRecord(
            frame: 1, timestamp: 1_700_000_000_000_000, direction: .unknown, kind: .linkLayer, linkType: .leLL,
            payload: packet)
        let events = track([record])
        #expect(events.map(\.type) == [.diagnostic, .adv])
        // The data starts at byte 16; the name structure's length byte is at data offset 3.
        #expect(events.first?.diagnostic?.offset == 19)
        let advert = try #require(events.last?.advertisement)
        #expect(advert.address.description == "C2:6B:30:F9:0E:C7")
        #expect(advert.sid == 1)
        #expect(advert.pdu == .ext)
        #expect(advert.data.bytes == hex("02 01 06 05 09 41"))
    }
}
