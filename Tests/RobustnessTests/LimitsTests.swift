import BluetoothTracking
import ByteReading
import CaptureFiles
import CaptureModel
import JSON
import Layouts
import PayloadDecoders
import Readings
import TestSupport
import Testing

/// The diagnostic ids among `events`, in order.
func diagnosticIDs(_ events: [Event]) -> [String] {
    events.compactMap { if case .diagnostic(let d) = $0.body { "\(d.id)" } else { nil } }
}

func attEvents(_ events: [Event]) -> [ATTEvent] {
    events.compactMap { if case .att(let a) = $0.body { a } else { nil } }
}

/// Records for the tracker, numbered and a millisecond apart.
func numbered(_ records: [(Direction, RecordKind, [UInt8])], adapter: (Int) -> UInt16 = { _ in 0 }) -> [StoredRecord] {
    records.enumerated().map { index, entry in
        StoredRecord(
            frame: index + 1, timestamp: 1_700_000_000_000_000 + Int64(index) * 1000, direction: entry.0,
            kind: entry.1, adapter: adapter(index), payload: entry.2)
    }
}

/// Length fields that claim more than any real record: each is refused where it is read, before
/// anything is allocated for it, and what came before it is kept.
struct ReaderLimitTests {
    @Test func `a btsnoop record claiming 4 GiB is damage at its offset, and reading resumes after it`() throws {
        var bytes = try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 4))
        // The second record starts after the 16-byte header and the first record (24 + 6 bytes).
        let second = 16 + 30
        for i in 0..<8 { bytes[second + i] = 0xFF }  // original and included length: 2^32 - 1
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1, 3, 4])
        #expect(outcome.problems.count == 1)
        #expect(outcome.problems.first?.offset == Int64(second))
        #expect(outcome.problems.first?.reason == "record length 4294967295 exceeds the 64 KiB maximum")
    }

    @Test func `a PacketLogger record claiming 4 GiB is damage at its offset`() throws {
        let good = PacketLoggerFile.sample(count: 6)
        let damaged = [0xFF, 0xFF, 0xFF, 0xFF] + Array(PacketLoggerFile.sample(count: 1).dropFirst(4))
        let outcome = try #require(readCapture(good + damaged + PacketLoggerFile.sample(count: 2)))
        #expect(outcome.records.prefix(6).map(\.frame) == [1, 2, 3, 4, 5, 6])
        #expect(outcome.problems.first?.frame == 7)
        #expect(outcome.problems.first?.offset == Int64(good.count))
        #expect(outcome.problems.first?.reason == "record length 4294967295 exceeds the 64 KiB maximum")
    }

    @Test func `a pcap record claiming 4 GiB stops reading with every record before it`() throws {
        var bytes = try CaptureFactory.capture(.pcap(.h4WithPHDR), CaptureFactory.sampleRecords(count: 4))
        // The second record starts after the 24-byte header and the first (16 + 4 + 6 bytes);
        // its captured length is at +8.
        let second = 24 + 26
        for i in 8..<16 { bytes[second + i] = 0xFF }
        let outcome = try #require(readCapture(bytes))
        #expect(outcome.records.map(\.frame) == [1])
        #expect(outcome.problems.count == 1)
        #expect(outcome.problems.first?.kind == .badRecord)
        #expect(outcome.problems.first?.frame == 2)
        #expect(outcome.problems.first?.offset == Int64(second))
    }

    @Test func `a pcapng block claiming 4 GiB stops reading with every record before it`() throws {
        let packet: [UInt8] = [0, 0, 0, 1, 0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]
        let first = PcapNGFile.packet(packet, timestamp: 1_700_000_000_000_000)
        var second = PcapNGFile.packet(packet, timestamp: 1_700_000_000_001_000)
        second.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])  // block total length
        let header = PcapNGFile.sectionHeader + PcapNGFile.interface(linkType: 201)
        let outcome = try #require(readCapture(header + first + second))
        #expect(outcome.records.map(\.frame) == [1])
        #expect(outcome.problems.count == 1)
        #expect(outcome.problems.first?.frame == 2)
        #expect(outcome.problems.first?.offset == Int64(header.count + first.count))
    }
}

/// What the tracker keeps per connection is capped, whatever the records claim.
struct TrackerLimitTests {
    /// An L2CAP frame claiming 65,535 bytes is collected to exactly that; continuations after it
    /// find no frame to join.
    @Test func `L2CAP reassembly stops at the frame's length`() {
        // Start fragment: ACL header (handle 0x0040, start), then L2CAP length 0xFFFF on CID 0x0040.
        var records: [(Direction, RecordKind, [UInt8])] = [
            (.received, .acl, [0x40, 0x20, 0x04, 0x00, 0xFF, 0xFF, 0x40, 0x00])
        ]
        // Continuation fragments: 65 of 1,000 bytes and one of 535 carry the 65,535, then 4 more.
        let continuation: [UInt8] = [0x40, 0x10, 0xE8, 0x03] + [UInt8](repeating: 0xAB, count: 1000)
        records += Array(repeating: (.received, .acl, continuation), count: 65)
        records.append((.received, .acl, [0x40, 0x10, 0x17, 0x02] + [UInt8](repeating: 0xCD, count: 535)))
        records += Array(repeating: (.received, .acl, continuation), count: 4)
        let events = Pipeline.run(numbered(records)).events
        let frames = events.compactMap { if case .l2cap(let l) = $0.body { l } else { nil } }
        #expect(frames.map(\.data.count) == [65_535])
        #expect(frames.first?.channel == 0x0040)
        #expect(diagnosticIDs(events) == Array(repeating: "acl.continuation_without_start", count: 4))
    }

    /// Fragments that carry a maximal frame and more are dropped as one oversized frame: the
    /// buffer is emptied at 65,539 bytes, whatever the fragments go on to claim.
    @Test func `L2CAP reassembly drops a frame whose fragments pass 65,539 bytes`() {
        var records: [(Direction, RecordKind, [UInt8])] = [
            (.received, .acl, [0x40, 0x20, 0x04, 0x00, 0xFF, 0xFF, 0x40, 0x00])
        ]
        let continuation: [UInt8] = [0x40, 0x10, 0xE8, 0x03] + [UInt8](repeating: 0xAB, count: 1000)
        records += Array(repeating: (.received, .acl, continuation), count: 70)
        let events = Pipeline.run(numbered(records)).events
        #expect(events.allSatisfy { if case .l2cap = $0.body { false } else { true } })
        #expect(
            diagnosticIDs(events) == ["acl.oversized_frame"]
                + Array(repeating: "acl.continuation_without_start", count: 4))
    }

    /// A long read continued past the 512-byte ATT maximum keeps 512 bytes and says so.
    @Test func `a long read keeps at most 512 bytes`() {
        var records: [(Direction, RecordKind, [UInt8])] = [
            // Read Request, handle 0x000E; Read Response of 22 bytes (a full MTU of 23).
            (.sent, .acl, ACL.att([0x0A, 0x0E, 0x00])),
            (.received, .acl, ACL.att([0x0B] + [UInt8](repeating: 0, count: 22))),
        ]
        for part in 1...40 {
            // Read Blob Request at the offset read so far, and a full Read Blob Response.
            let offset = UInt16(part * 22)
            records.append((.sent, .acl, ACL.att([0x0C, 0x0E, 0x00, UInt8(offset & 0xFF), UInt8(offset >> 8)])))
            records.append((.received, .acl, ACL.att([0x0D] + [UInt8](repeating: UInt8(part), count: 22))))
        }
        // Something else ends the long read.
        records.append((.sent, .acl, ACL.att([0x0A, 0x10, 0x00])))
        let events = Pipeline.run(numbered(records)).events
        let long = attEvents(events).filter { $0.kind == .readLong }
        #expect(long.count == 1)
        // 23 parts fit in 512 bytes (22 each is 506); the 24th is reported and dropped, and the
        // next Read Blob (at an offset past what was kept) starts no continuation.
        #expect(long.first?.value?.count == 506)
        // The long read is named by the Read Request that started it.
        #expect(long.first?.requestFrame == 1)
        #expect(diagnosticIDs(events).filter { $0 == "att.value_too_long" }.count == 1)
    }

    /// Prepared writes: at most 256 parts are kept per side, and an executed value stops at 512 bytes.
    @Test func `prepared writes keep at most 256 parts and 512 bytes`() {
        var records: [(Direction, RecordKind, [UInt8])] = []
        for part in 0..<300 {
            // Prepare Write Request for handle 0x0010 at offset part × 18, 18 bytes; and its response.
            let offset = UInt16(part * 18)
            let pdu = [0x16, 0x10, 0x00, UInt8(offset & 0xFF), UInt8(offset >> 8)] + [UInt8](repeating: 7, count: 18)
            records.append((.sent, .acl, ACL.att(pdu)))
            records.append((.received, .acl, ACL.att([0x17] + pdu.dropFirst())))
        }
        // Execute Write Request (flags 1: write) and its response.
        records.append((.sent, .acl, ACL.att([0x18, 0x01])))
        records.append((.received, .acl, ACL.att([0x19])))
        let events = Pipeline.run(numbered(records)).events
        let written = attEvents(events).filter { $0.kind == .writeLong }
        #expect(written.count == 1)
        // Parts at offsets 0…486 fit in 512 bytes: 28 of them, ending at 504.
        #expect(written.first?.value?.count == 504)
        // The other 228 kept parts (of 256) pass the maximum and are reported.
        #expect(diagnosticIDs(events).filter { $0 == "att.value_too_long" }.count == 256 - 28)
    }

    /// Extended advertising data in fragments stops at 1,650 bytes (Core v5.4, Vol 4, Part E, §7.8.54).
    @Test func `extended advertising fragments stop at 1,650 bytes`() {
        func report(status: UInt8, data: [UInt8]) -> [UInt8] {
            // LE Extended Advertising Report: one report, event type with data status bits 5-6,
            // random address, PHYs, SID 1, TX power and RSSI unknown, no periodic interval or
            // direct address, then the data.
            let body: [UInt8] =
                [
                    0x0D, 0x01, status << 5, 0x00, 0x01, 0x01, 0x02, 0x03, 0x04, 0x05, 0xC6, 0x01, 0x00, 0x01, 0x7F,
                    0x7F, 0x00, 0x00,
                ]
                + [0x00, 0, 0, 0, 0, 0, 0] + [UInt8(data.count)] + data
            return [0x3E, UInt8(body.count)] + body
        }
        let fragment = [UInt8](repeating: 0x00, count: 200)
        var records: [(Direction, RecordKind, [UInt8])] = Array(
            repeating: (.received, .event, report(status: 1, data: fragment)), count: 9)
        records.append((.received, .event, report(status: 0, data: [0x02, 0x01, 0x06])))
        let events = Pipeline.run(numbered(records)).events
        // 9 × 200 bytes pass 1,650 at the ninth: dropped with one diagnostic; the last report stands alone.
        #expect(diagnosticIDs(events) == ["adv.oversized_fragments"])
        let adverts = events.compactMap { if case .advertisement(let a) = $0.body { a } else { nil } }
        #expect(adverts.map(\.data.bytes) == [[0x02, 0x01, 0x06]])
    }

    /// Found by measuring the tracker fed random handles: each new (adapter, handle) pair kept about
    /// a kilobyte of connection state, so a capture of five-byte ACL packets on ever new handles
    /// grew memory some thirty times faster than it was read. At most 1,024 are kept.
    @Test func `the connection table keeps at most 1,024 connections`() {
        // 1,100 ACL start fragments, each on its own (adapter, handle), carrying the first 2 bytes
        // of an L2CAP frame; then a continuation for each of the first and the last handle.
        var records: [(Direction, RecordKind, [UInt8])] = (0..<1100).map { _ in
            (.received, .acl, [0x40, 0x20, 0x02, 0x00, 0x05, 0x00])
        }
        records.append((.received, .acl, [0x40, 0x10, 0x07, 0x00, 0x04, 0x00, 0x1B, 0x10, 0x00, 0x01, 0x02]))
        records.append((.received, .acl, [0x40, 0x10, 0x07, 0x00, 0x04, 0x00, 0x1B, 0x10, 0x00, 0x01, 0x02]))
        let adapters: (Int) -> UInt16 = { index in index < 1100 ? UInt16(index) : index == 1100 ? 0 : 1099 }
        let events = Pipeline.run(numbered(records, adapter: adapters)).events
        let ids = diagnosticIDs(events)
        #expect(ids.filter { $0 == "tracker.too_many_connections" }.count == 1)
        #expect(
            events.first {
                if case .diagnostic(let d) = $0.body { "\(d.id)" == "tracker.too_many_connections" } else { false }
            }?.frame == 1025)
        // The first connection kept its half frame and completes it; the last one was not kept.
        #expect(attEvents(events).map(\.handle) == [0x0010])
        #expect(ids.last == "acl.continuation_without_start")
    }

    @Test func `access addresses beyond 1,024 are followed without state`() {
        // LE link layer data PDUs (DLT 251) on 1,100 access addresses: LLID 2 with an ATT notification.
        let records = (0..<1100).map { index in
            let aa = UInt32(0x1000_0000 + index)
            return StoredRecord(
                frame: index + 1, timestamp: 1_700_000_000_000_000 + Int64(index) * 10_000, direction: .unknown,
                kind: .linkLayer, linkType: .leLL,
                payload: [UInt8(aa & 0xFF), UInt8(aa >> 8 & 0xFF), UInt8(aa >> 16 & 0xFF), UInt8(aa >> 24), 0x02, 0x08]
                    + [0x04, 0x00, 0x04, 0x00, 0x1B, 0x10, 0x00, 0x01])
        }
        let events = Pipeline.run(records).events
        #expect(attEvents(events).count == 1100)
        #expect(diagnosticIDs(events).filter { $0 == "tracker.too_many_connections" }.count == 1)
    }
}

/// Counts and lengths in layouts, and JSON nesting.
struct LayoutAndJSONLimitTests {
    static func layout(_ fields: String) throws -> Layout {
        try Layout.parse(
            bytes: Array(#"{"id": "t", "match": {"company": 1}, "fields": [\#(fields)]}"#.utf8), name: "t.json")
    }

    @Test func `a repeat count read from the payload is at most 512`() throws {
        let layout = try Self.layout(#"{"name": "n", "type": "u16"}, {"name": "v", "type": "u8", "repeat": "n"}"#)
        let outcome = layout.decode(bytes: [0x01, 0x02] + [UInt8](repeating: 0, count: 513))
        #expect(outcome == .error(DecodeError(.badValue("count 513 is out of range (0…512)"), at: 2, field: "v")))
        let fits = layout.decode(bytes: [0x00, 0x02] + [UInt8](repeating: 0, count: 512))
        guard case .fields(let fields) = fits, case .list(let list) = fields["v"] else {
            Issue.record("\(fits)")
            return
        }
        #expect(list.count == 512)
    }

    @Test func `a repeat count that claims more than the payload holds is a truncation, not an allocation`() throws {
        let layout = try Self.layout(#"{"name": "n", "type": "u16"}, {"name": "v", "type": "u64", "repeat": "n"}"#)
        #expect(
            layout.decode(bytes: [0x00, 0x02, 0x01])
                == .error(DecodeError(.truncated(needed: 4096, available: 1), at: 2, field: "v")))
    }

    @Test func `a data length read from the payload is at most 65,535`() throws {
        let layout = try Self.layout(#"{"name": "n", "type": "u32"}, {"name": "b", "type": "bytes", "length": "n"}"#)
        #expect(
            layout.decode(bytes: [0x00, 0x00, 0x01, 0x00, 0x00])
                == .error(DecodeError(.badValue("length 65536 is out of range"), at: 4, field: "b")))
    }

    @Test(arguments: [("0", "repeat 0 is out of range (1…512)"), ("513", "repeat 513 is out of range (1…512)")])
    func `a fixed repeat count outside 1…512 is a lint error`(count: String, message: String) {
        let error = #expect(throws: LayoutLoadError.self) {
            try Self.layout(#"{"name": "v", "type": "u8", "repeat": \#(count)}"#)
        }
        #expect(error?.issues.map(\.message) == [message])
    }

    @Test func `JSON nesting stops at 256 levels`() throws {
        let deepest = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try JSONValue.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(tooDeep) }
        #expect(error?.message == "nesting deeper than 256 levels")
        #expect(error?.column == 257)
    }

    @Test func `a million opening brackets are refused without exhausting the stack`() {
        let text = String(repeating: "[{\"a\":", count: 500_000)
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        #expect(error?.message == "nesting deeper than 256 levels")
    }

    @Test func `a deeply nested layout is refused with a located issue`() {
        let fields = String(repeating: #"{"switch": "k", "cases": {"1": ["#, count: 200)
        let json = #"{"id": "t", "match": {"company": 1}, "fields": [\#(fields)"#
        let error = #expect(throws: LayoutLoadError.self) { try Layout.parse(bytes: Array(json.utf8), name: "t.json") }
        #expect(
            error?.issues.first?.message.contains("nesting deeper than 256 levels") == true, "\(error?.issues ?? [])")
    }
}

/// Discovery responses listing thousands of made-up services or characteristics.
struct DiscoveryLimitTests {
    /// An ATT PDU as ACL fragments of 1,000 bytes (one L2CAP frame, reassembled by the tracker).
    static func fragments(_ pdu: [UInt8], _ direction: Direction) -> [(Direction, RecordKind, [UInt8])] {
        let l2cap = [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
        return Swift.stride(from: 0, to: l2cap.count, by: 1000).map { index in
            let part = Array(l2cap[index..<min(index + 1000, l2cap.count)])
            return (
                direction, .acl,
                [0x40, index == 0 ? 0x20 : 0x10, UInt8(part.count & 0xFF), UInt8(part.count >> 8)] + part
            )
        }
    }

    /// HCI LE Connection Complete: handle 0x0040, central, peer C2:6B:30:F9:0E:C7 (public).
    static let connected: (Direction, RecordKind, [UInt8]) = (
        .received, .event,
        [
            0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0xC7, 0x0E, 0xF9, 0x30, 0x6B, 0xC2, 0x18, 0x00, 0x00, 0x00,
            0xC8, 0x00, 0x00,
        ]
    )

    /// The database learned from the peer, and how long the tracker took.
    static func learn(_ records: [(Direction, RecordKind, [UInt8])]) -> (GATTDatabase?, seconds: Double) {
        let tracker = Tracker()
        let start = monotonicMicroseconds()
        for record in numbered([connected] + records) { record.withRecord { tracker.consume($0) { _ in } } }
        tracker.finish { _ in }
        let seconds = Double(monotonicMicroseconds() - start) / 1e6
        return (tracker.learnedDatabases.values.first, seconds)
    }

    /// Found by measuring: each service found was added by removing any with its start handle and
    /// sorting them all again, so a response of 10,000 services took seconds, and every later
    /// response as long. Services are found by binary search now, and at most 4,096 kept.
    @Test(arguments: [false, true])
    func `primary service discovery of 10,000 services is quick and keeps 4,096`(descending: Bool) {
        // Read By Group Type Request for primary services (0x2800) over every handle.
        var records: [(Direction, RecordKind, [UInt8])] = [
            (.sent, .acl, ACL.att([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]))
        ]
        // Read By Group Type Response: entries of 6 bytes (start, end, 16-bit UUID 0x180F).
        var pdu: [UInt8] = [0x11, 6]
        for i in 0..<10_000 {
            let start = UInt16(descending ? 0xFFF0 - i * 2 : 1 + i * 2)
            pdu += [
                UInt8(start & 0xFF), UInt8(start >> 8), UInt8((start + 1) & 0xFF), UInt8((start + 1) >> 8), 0x0F, 0x18,
            ]
        }
        records += Self.fragments(pdu, .received)
        let (database, seconds) = Self.learn(records)
        #expect(database?.services.count == GATTDatabase.maximumEntries)
        #expect(database?.services.map(\.start) == database?.services.map(\.start).sorted())
        #expect(seconds < 2, "\(seconds) s")
    }

    @Test func `characteristic discovery of 9,000 characteristics is quick and keeps 4,096`() {
        // Read By Type Request for characteristic declarations (0x2803).
        var records: [(Direction, RecordKind, [UInt8])] = [
            (.sent, .acl, ACL.att([0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]))
        ]
        // Read By Type Response: entries of 7 bytes (declaration handle, properties, value handle, 16-bit UUID).
        var pdu: [UInt8] = [0x09, 7]
        for i in 0..<9000 {
            let declaration = UInt16(1 + i * 2)
            let value = declaration + 1
            pdu += [
                UInt8(declaration & 0xFF), UInt8(declaration >> 8), 0x10, UInt8(value & 0xFF), UInt8(value >> 8), 0x37,
                0x2A,
            ]
        }
        records += Self.fragments(pdu, .received)
        let (database, seconds) = Self.learn(records)
        #expect(database?.characteristics.count == GATTDatabase.maximumEntries)
        #expect(seconds < 2, "\(seconds) s")
    }
}

struct ReadingLimitTests {
    /// Feeds the tracker and the readings pipeline; returns the record whose arrival first handed
    /// readings over, how many were handed over before the end, and how many in all.
    static func run(_ payloads: [[UInt8]]) -> (firstHandedOverAt: Int?, beforeFinish: Int, all: Int) {
        let tracker = Tracker()
        let readings = ReadingsPipeline(decoders: DecoderSet(Registry.builtIn))
        var handedOver = 0
        var firstAt: Int?
        for (index, payload) in payloads.enumerated() {
            // Every record at the same microsecond: capture time never moves on.
            let record = StoredRecord(
                frame: index + 1, timestamp: 1_700_000_000_000_000, direction: .received, kind: .event, payload: payload
            )
            record.withRecord {
                tracker.consume($0) {
                    readings.consume($0) { _ in
                        handedOver += 1
                        if firstAt == nil { firstAt = index + 1 }
                    }
                }
            }
        }
        let before = handedOver
        readings.finish { _ in handedOver += 1 }
        return (firstAt, before, handedOver)
    }

    /// Found by feeding the readings pipeline adverts from ever new devices at one timestamp: each
    /// device's first reading is held ten seconds of capture time for repeats, so a capture whose
    /// time never moved on kept them all to the end, and every event looked through all of them
    /// (60,000 devices took minutes). At most 512 are held; past that they are decided.
    @Test func `at most 512 readings are held for repeats`() {
        let adverts = (0..<600).map { EnvSensorAdvert.event(low: UInt8($0 & 0xFF), high: UInt8($0 >> 8)) }
        let counts = Self.run(adverts)
        // The 513th held reading decides all of them; the other 87 wait for the end.
        #expect(counts.firstHandedOverAt == 513)
        #expect(counts.beforeFinish == 513)
        #expect(counts.all == 600)
    }

    /// Readings that are not held (an iBeacon's) still wait behind a held one, to keep frame
    /// order: at most 20,000 of them.
    @Test func `at most 20,000 readings wait behind a held one`() {
        // Apple iBeacon: company 0x004C, type 0x02, length 0x15, UUID, major, minor, TX power.
        let beacon: [UInt8] =
            [0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + [UInt8](repeating: 0xE2, count: 16) + [0, 1, 0, 2, 0xC5]
        let body: [UInt8] =
            [0x02, 0x01, 0x03, 0x01, 0x11, 0x22, 0x33, 0x44, 0x55, 0xC6, UInt8(beacon.count)] + beacon + [0xC4]
        let counts = Self.run(
            [EnvSensorAdvert.event(low: 0)] + Array(repeating: [0x3E, UInt8(body.count)] + body, count: 20_100))
        // The first readings are handed over when 20,001 wait (the held one and 20,000 beacons
        // behind it); after that nothing is held and every beacon goes straight through.
        #expect(counts.firstHandedOverAt == 20_001)
        #expect(counts.beforeFinish == 20_101)
        #expect(counts.all == 20_101)
    }
}
