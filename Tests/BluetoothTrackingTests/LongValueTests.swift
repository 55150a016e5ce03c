import BluetoothPackets
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing

/// Long reads (Read Blob, Core v5.4, Vol 3, Part G, §4.8.3) and long writes (§4.9.4), and the order
/// of events while a full Read Response waits to be decided.
struct LongValueTests {
    /// 22 bytes: a Read Response of MTU − 1 with the default ATT MTU of 23.
    static let fullPart = "00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 15"

    @Test func `a read response continued by read blobs is partial, then read_long has the whole value`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        let request = trace.att(0x0040, .sent, "0A 03 00")
        let first = trace.att(0x0040, .received, "0B " + Self.fullPart)
        trace.att(0x0040, .sent, "0C 03 00 16 00")  // offset 22
        let second = trace.att(0x0040, .received, "0D " + Self.fullPart)
        trace.att(0x0040, .sent, "0C 03 00 2C 00")  // offset 44
        let last = trace.att(0x0040, .received, "0D A0 A1 A2")
        let events = track(trace)

        let response = try #require(events.att(frame: first, op: "read_rsp"))
        #expect(response.partial)
        #expect(response.handle == 3)
        #expect(response.requestFrame == request)
        let middle = try #require(events.att(frame: second, op: "read_blob_rsp"))
        #expect(middle.partial)
        #expect(middle.offset == 22)
        #expect(middle.handle == 3)
        #expect(events.att(frame: last, op: "read_blob_rsp")?.partial == true)

        let long = try #require(events.att(frame: last, op: "read_long"))
        #expect(long.kind == .readLong)
        #expect(long.handle == 3)
        #expect(long.direction == .received)
        #expect(long.value == hex(Self.fullPart + Self.fullPart + "A0 A1 A2"))
        #expect(long.partial == false)
        #expect(long.requestFrame == request)
        #expect(events.atts.last?.att.op == "read_long")
        #expect(events.diagnostics == [])
    }

    @Test func `a full read response not followed by a read blob is a whole value`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        trace.att(0x0040, .sent, "0A 03 00")
        let response = trace.att(0x0040, .received, "0B " + Self.fullPart)
        trace.att(0x0040, .sent, "12 0F 00 01 00")
        trace.att(0x0040, .received, "13")
        let events = track(trace)
        let read = try #require(events.att(frame: response, op: "read_rsp"))
        #expect(!read.partial)
        #expect(read.value == hex(Self.fullPart))
        #expect(!events.atts.contains { $0.att.op == "read_long" })
        #expect(events.atts.map(\.att.op) == ["read_req", "read_rsp", "write_req", "write_rsp"])
    }

    @Test func `a full read response at the end of the capture is a whole value`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        let response = trace.att(0x0040, .received, "0B " + Self.fullPart)
        let events = track(trace)
        #expect(events.att(frame: response, op: "read_rsp")?.partial == false)
    }

    @Test func `a read blob for another handle does not continue the held response`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        let response = trace.att(0x0040, .received, "0B " + Self.fullPart)
        trace.att(0x0040, .sent, "0C 05 00 16 00")
        trace.att(0x0040, .received, "0D 01")
        let events = track(trace)
        #expect(events.att(frame: response, op: "read_rsp")?.partial == false)
        #expect(!events.atts.contains { $0.att.op == "read_long" })
    }

    @Test func `a larger MTU moves the length a read response must have to be continued`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "02 30 00")  // 48
        trace.att(0x0040, .received, "03 30 00")
        trace.att(0x0040, .sent, "0A 03 00")
        let notFull = trace.att(0x0040, .received, "0B " + Self.fullPart)
        trace.att(0x0040, .sent, "0C 03 00 16 00")
        let events = track(trace)
        #expect(events.att(frame: notFull, op: "read_rsp")?.partial == false)
    }

    @Test func `an error answering a read blob ends the long read with what was read`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        trace.att(0x0040, .received, "0B " + Self.fullPart)
        trace.att(0x0040, .sent, "0C 03 00 16 00")
        // §3.4.1.1: Attribute Not Long (0x0B) after exactly 22 bytes.
        let error = trace.att(0x0040, .received, "01 0C 03 00 0B")
        let events = track(trace)
        let errors = events.atts.filter { $0.frame == error }.map(\.att.op)
        #expect(errors == ["error_rsp"])
        #expect(!events.atts.contains { $0.att.op == "read_long" })
    }

    @Test func `prepared writes come together as write_long when executed`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        let part1 = trace.att(0x0040, .sent, "16 12 00 00 00 " + String(Self.fullPart.dropLast(12)))
        trace.att(0x0040, .received, "17 12 00 00 00 " + String(Self.fullPart.dropLast(12)))
        let part2 = trace.att(0x0040, .sent, "16 12 00 12 00 B0 B1")
        let echo2 = trace.att(0x0040, .received, "17 12 00 12 00 B0 B1")
        trace.att(0x0040, .sent, "18 01")
        let executed = trace.att(0x0040, .received, "19")
        let events = track(trace)
        #expect(events.att(frame: part1, op: "prepare_write_req")?.partial == true)
        #expect(events.att(frame: part2, op: "prepare_write_req")?.offset == 18)
        #expect(events.att(frame: echo2, op: "prepare_write_rsp")?.requestFrame == part2)
        let long = try #require(events.att(frame: executed, op: "write_long"))
        #expect(long.kind == .writeLong)
        #expect(long.handle == 0x0012)
        #expect(long.direction == .sent)
        #expect(long.value == hex(String(Self.fullPart.dropLast(12)) + " B0 B1"))
        #expect(!long.partial)
        #expect(events.atts.filter { $0.frame == executed }.map(\.att.op) == ["execute_write_rsp", "write_long"])
    }

    @Test func `cancelled prepared writes give no write_long`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "16 12 00 00 00 01 02")
        trace.att(0x0040, .received, "17 12 00 00 00 01 02")
        trace.att(0x0040, .sent, "18 00")  // §3.4.6.3: flags 0x00 cancels all prepared writes
        trace.att(0x0040, .received, "19")
        trace.att(0x0040, .sent, "18 01")
        trace.att(0x0040, .received, "19")
        let events = track(trace)
        #expect(!events.atts.contains { $0.att.op == "write_long" })
    }

    @Test func `events come out in frame order while a read response is held`() throws {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C2:6B:30:F9:0E:C7")
        trace.att(0x0040, .sent, "0A 03 00")
        let held = trace.att(0x0040, .received, "0B " + Self.fullPart)
        let notify = trace.att(0x0040, .received, "1B 0E 00 06 52")
        let other = trace.att(0x0041, .received, "1B 0E 00 07 53")
        // LE Advertising Report, one ADV_IND with no data (Vol 4, Part E, §7.7.65.2).
        let advert = trace.leMeta(0x02, hex("01 00 01 C7 0E F9 30 6B C2 00 C1"))
        let decider = trace.att(0x0040, .sent, "12 0F 00 01 00")

        let tracker = Tracker()
        var emitted: [Int] = []
        var afterEach: [Int: [Int]] = [:]
        for record in trace.records {
            record.withRecord { tracker.consume($0) { emitted.append($0.frame) } }
            afterEach[record.frame] = emitted
        }
        tracker.finish { emitted.append($0.frame) }

        // Nothing after the held response comes out until the next request decides it; then all in order.
        #expect(afterEach[held] == [1, 2])
        #expect(afterEach[notify] == [1, 2])
        #expect(afterEach[advert] == [1, 2])
        #expect(afterEach[decider] == [1, 2, held, notify, other, advert, decider])
        #expect(emitted == [1, 2, held, notify, other, advert, decider])
    }

    @Test func `a write command between a read response and its read blob does not decide the response`() throws {
        var trace = HCITrace()
        trace.att(0x0040, .sent, "0A 03 00")
        let response = trace.att(0x0040, .received, "0B " + Self.fullPart)
        trace.att(0x0040, .sent, "52 12 00 01")
        trace.att(0x0040, .sent, "0C 03 00 16 00")
        let last = trace.att(0x0040, .received, "0D A0")
        let events = track(trace)
        #expect(events.att(frame: response, op: "read_rsp")?.partial == true)
        #expect(events.att(frame: last, op: "read_long")?.value == hex(Self.fullPart + " A0"))
        #expect(events.atts.map(\.frame) == [1, 2, 3, 4, 5, 5])
    }
}
