import BluetoothPackets
import ByteReading
import JSON
import PayloadDecoders
import Testing

@testable import Readings

/// Readings cross between threads packed (`ReadingPacker` → `PackedReadings` →
/// `PackedReadingJSON`): every part of a reading comes out as the readings contract
/// (DESIGN.md, "Readings") writes it, and the texts sent once by number come back the same.
struct PackedReadingsTests {
    static let address = BluetoothAddress(0xC26B_30F9_0EC7)

    func json(_ readings: [Reading]) -> [String] {
        var writer = JSONWriter(capacity: 1024)
        var context = ReadingJSON.Context()
        for reading in readings { ReadingJSON.write(reading, to: &writer, context: &context) }
        return String(decoding: writer.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func `each part of a reading is written as the contract says`() {
        let error = DecodeError(.truncated(needed: 2, available: 1), at: 3, field: "pin")
        let heartRate = BluetoothUUID(UInt32(0x2A37))
        let lines = json([
            Reading(
                frame: 2, timestamp: 1_735_689_600_000_077, address: Self.address, decoder: "envsensor", source: "adv",
                match: .company(0xFFFF), index: nil,
                outcome: .fields([
                    Field("nonce", 1600), Field("temperature_c", 21.5), Field("current_ma", -12.87),
                    Field("ok", true), Field("bad", false), Field("gone", .null),
                    Field("list", .list([1, 0.775, "x", .list([])])), Field("name", "Caf\u{E9} \"1\"\\\n\u{1}"),
                ]),
                repeats: 5),
            Reading(
                frame: 3, timestamp: -1, address: nil, decoder: "sig.heart_rate", source: "notify",
                match: .characteristic(heartRate), index: 1, outcome: .fields([]), repeats: 1),
            Reading(
                frame: 4, timestamp: 0, address: nil, decoder: "tractor.pin", source: "write_req",
                match: .characteristic(nil), index: nil, outcome: .error(error), repeats: nil),
            Reading(
                frame: 5, timestamp: 1_000_000, address: Self.address, decoder: nil, source: "adv",
                match: .serviceData(BluetoothUUID(UInt32(0xFCD2))), index: nil, outcome: .undecoded([0x40, 0x02, 0xC4]),
                repeats: nil),
        ])
        #expect(lines == [
            #"{"frame":2,"ts":1735689600.000077,"addr":"C2:6B:30:F9:0E:C7","decoder":"envsensor","source":"adv","company":65535,"fields":{"nonce":1600,"temperature_c":21.5,"current_ma":-12.87,"ok":true,"bad":false,"gone":null,"list":[1,0.775,"x",[]],"name":"Café \"1\"\\\n\u0001"},"repeats":5}"#,
            #"{"frame":3,"ts":-0.000001,"decoder":"sig.heart_rate","source":"notify","uuid":"2a37","index":1,"fields":{}}"#,
            #"{"frame":4,"ts":0.000000,"decoder":"tractor.pin","source":"write_req","uuid":null,"error":{"reason":"truncated: needs 2 bytes, 1 left","offset":3,"field":"pin"}}"#,
            #"{"frame":5,"ts":1.000000,"addr":"C2:6B:30:F9:0E:C7","decoder":null,"source":"adv","uuid":"fcd2","data":"4002c4"}"#,
        ])
    }

    /// Names are numbered on first sight and sent by number after: a decoder that moves its
    /// fields about, two decoders sharing names, and names that need escaping all come back.
    @Test func `names sent by number come back the same, in any order and across decoders`() {
        func reading(_ decoder: String, _ names: [String]) -> Reading {
            Reading(
                frame: 1, timestamp: 0, address: nil, decoder: decoder, source: decoder == "b" ? "notify" : "adv",
                match: .company(1), index: nil,
                outcome: .fields(Fields(names.enumerated().map { Field($0.element, .int(Int64($0.offset))) })), repeats: nil)
        }
        let sequence = [
            reading("a", ["x", "y", "z"]), reading("a", ["x", "y", "z"]), reading("b", ["z", "x"]),
            reading("a", ["y", "x", "q\"uote", "z"]), reading("a", ["x", "y", "z"]), reading("b", ["z", "x"]),
            reading("a", []), reading("a", ["x", "y", "z", "w"]),
        ]
        let lines = json(sequence)
        // Each reading alone, with nothing sent before it.
        let alone = sequence.flatMap { json([$0]) }
        #expect(lines == alone)
        #expect(lines[3] == #"{"frame":1,"ts":0.000000,"decoder":"a","source":"adv","company":1,"fields":{"y":0,"x":1,"q\"uote":2,"z":3}}"#)
    }

    /// Past the numbers a packer has (32,767), texts go out in full each time and still come back.
    @Test func `texts past the last number are sent in full`() {
        let names = (0..<33_000).map { "field_\($0)" }
        let readings = stride(from: 0, to: names.count, by: 1000).map { start in
            Reading(
                frame: start, timestamp: 0, address: nil, decoder: "many", source: "adv", match: .company(1), index: nil,
                outcome: .fields(Fields(names[start..<min(start + 1000, names.count)].map { Field($0, 1) })),
                repeats: nil)
        }
        let twice = readings + readings
        let lines = json(twice)
        #expect(lines.count == twice.count)
        #expect(lines == twice.flatMap { json([$0]) })
        #expect(lines.last!.hasSuffix(#""field_32998":1,"field_32999":1}}"#))
    }

    /// Texts and values of any length come back whole (a layout may name a field at length).
    @Test func `long names and values come back whole`() {
        let name = String(repeating: "n", count: 70_000)
        let value = String(repeating: "v", count: 70_000)
        let lines = json([
            Reading(
                frame: 1, timestamp: 0, address: nil, decoder: String(repeating: "d", count: 66_000), source: "adv",
                match: .company(1), index: nil, outcome: .fields([Field(name, .string(value))]), repeats: nil)
        ])
        #expect(lines.count == 1)
        #expect(lines.first?.count == 70_000 * 2 + 66_000 + 82)
        #expect(lines.first?.hasSuffix("\"" + value + "\"}}") == true)
    }

    /// A chunk hands its readings over in order and can stop early.
    @Test func `a chunk gives its readings in order and stops when told`() {
        let chunk = PackedReadings(capacity: 256)
        let packer = ReadingPacker()
        for frame in 1...50 {
            packer.pack(
                Reading(
                    frame: frame, timestamp: 0, address: nil, decoder: "d", source: "adv", match: .company(1), index: nil,
                    outcome: .fields([Field("n", .int(Int64(frame)))]), repeats: nil),
                into: chunk)
        }
        #expect(chunk.readings == 50)
        var json = PackedReadingJSON()
        var writer = JSONWriter(capacity: 64)
        var seen = 0
        let finished = chunk.forEach { reading in
            json.write(reading, to: &writer)
            seen += 1
            return seen < 20
        }
        #expect(!finished)
        #expect(seen == 20)
        let lines = String(decoding: writer.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.last == #"{"frame":20,"ts":0.000000,"decoder":"d","source":"adv","company":1,"fields":{"n":20}}"#)
    }
}
