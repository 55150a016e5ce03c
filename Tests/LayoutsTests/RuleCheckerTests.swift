import ByteReading
import JSON
import Layouts
import PayloadDecoders
import Testing

struct RuleCheckerTests {
    /// A sensor that sends a counter, a temperature and a mode once a second.
    let sensorJSON = #"""
        {
          "id": "acme.beat",
          "match": {"company": 1},
          "fields": [
            {"name": "seq", "type": "u8", "counter": true},
            {"name": "temperature_c", "type": "i16", "scale": 0.1, "unit": "°C", "min": -20, "max": 60, "max_jump": 2},
            {"name": "mode", "type": "u8", "enum": {"0": "idle", "1": "run"}}
          ],
          "dedup": ["seq"],
          "cadence": {"min_ms": 900, "max_ms": 1100}
        }
        """#

    struct Packet {
        var frame: Int
        var ms: Int64
        var seq: Int64
        var temperature: Double
        var mode: FieldValue = "run"
        var device = "C2:6B:30:F9:0E:C7"
    }

    /// Feeds packets through the checker and returns every violation.
    func run(_ packets: [Packet]) throws -> (violations: [RuleViolation], checker: RuleChecker) {
        let layout = try layout(sensorJSON)
        var checker = RuleChecker(layouts: [layout])
        var violations: [RuleViolation] = []
        for p in packets {
            let fields: Fields = [
                Field("seq", .int(p.seq)), Field("temperature_c", .double(p.temperature)), Field("mode", p.mode),
            ]
            violations += checker.check(
                device: p.device, frame: p.frame, timestamp: 1_700_000_000_000_000 + p.ms * 1000, decoder: "acme.beat",
                fields: fields)
        }
        return (violations, checker)
    }

    /// Five good packets, one per second, sequence 10…14.
    var steady: [Packet] {
        (0..<5).map { Packet(frame: 1 + $0 * 3, ms: Int64($0) * 1000, seq: 10 + Int64($0), temperature: 21.5) }
    }

    @Test func `a steady stream has no violations and every rule is counted`() throws {
        let (violations, checker) = try run(steady)
        #expect(violations.isEmpty)
        let summary = checker.summary
        #expect(summary.readings == 5)
        #expect(summary.violations == 0)
        #expect(summary.entries.map(\.rule.name) == ["counter", "min", "max", "max_jump", "enum", "cadence"])
        #expect(summary.entries.map(\.checked) == [4, 5, 5, 4, 5, 4])
    }

    @Test func `a counter that skips is reported at the frame where it skipped, with the count missing`() throws {
        var packets = steady
        packets[3].seq = 15  // 12 → 15: 13 and 14 missing
        packets[4].seq = 16
        let (violations, checker) = try run(packets)
        #expect(violations.count == 1)
        let v = try #require(violations.first)
        #expect(v.frame == 10)
        #expect(v.field == "seq")
        #expect(v.rule == "counter")
        #expect(v.value == 15)
        #expect(v.message == "expected 13 after 12, got 15 (2 missing)")
        #expect(
            v.description
                == "frame 10 C2:6B:30:F9:0E:C7 acme.beat seq: counter: expected 13 after 12, got 15 (2 missing)")
        let entry = try #require(checker.summary.entries.first { $0.rule.name == "counter" })
        #expect(entry.violations == 1)
        #expect(entry.firstFrame == 10)
    }

    @Test func `a counter wraps around from 255 to 0`() throws {
        var packets = steady
        for i in packets.indices { packets[i].seq = (253 + Int64(i)) % 256 }
        #expect(packets.map(\.seq) == [253, 254, 255, 0, 1])
        #expect(try run(packets).violations.isEmpty)
    }

    @Test func `a value out of range is reported with the bound it broke`() throws {
        var packets = steady
        packets[2].temperature = 61.5
        packets[3].temperature = 61.5
        packets[4].temperature = 21.5
        let violations = try run(packets).violations
        #expect(violations.map(\.frame) == [7, 7, 10, 13])
        #expect(violations.map(\.rule) == ["max", "max_jump", "max", "max_jump"])
        #expect(violations[0].message == "61.5 is above the maximum 60")
        #expect(violations[0].value == .double(61.5))
        #expect(violations[1].message == "changed by 40 (from 21.5 to 61.5), more than 2")
    }

    @Test func `a gap in the cadence is reported at the late packet with the interval`() throws {
        var packets = steady
        packets[3].ms = 4500
        packets[4].ms = 5500
        let violations = try run(packets).violations
        #expect(violations.count == 1)
        #expect(violations[0].frame == 10)
        #expect(violations[0].rule == "cadence")
        #expect(violations[0].field == nil)
        #expect(violations[0].value == .double(2500))
        #expect(violations[0].message == "2500 ms since the previous packet, expected at most 1100 ms")
    }

    @Test func `an unnamed enum value breaks the enum rule`() throws {
        var packets = steady
        packets[1].mode = 7
        let violations = try run(packets).violations
        #expect(violations.map(\.frame) == [4])
        #expect(violations.first?.message == "7 is not a named value (idle, run)")
    }

    @Test func `repeats of the same packet are duplicates, not counter or cadence violations`() throws {
        var packets: [Packet] = []
        for (i, p) in steady.enumerated() {
            packets.append(p)
            packets.append(Packet(frame: p.frame + 1, ms: p.ms + 100, seq: p.seq, temperature: p.temperature))
            _ = i
        }
        let (violations, checker) = try run(packets)
        #expect(violations.isEmpty)
        #expect(checker.summary.readings == 10)
        #expect(checker.summary.duplicates == 5)
    }

    @Test func `each device is checked against its own previous packet`() throws {
        var packets: [Packet] = []
        for p in steady {
            packets.append(p)
            var other = p
            other.device = "AA:BB:CC:DD:EE:FF"
            other.frame += 1
            other.seq = p.seq + 100
            packets.append(other)
        }
        #expect(try run(packets).violations.isEmpty)
    }

    @Test func `a reading that did not decode is a decode violation`() throws {
        let layout = try layout(sensorJSON)
        var checker = RuleChecker(layouts: [layout])
        let outcome = layout.decode(bytes: [1, 2])
        let violations = checker.check(device: "x", frame: 3, timestamp: 0, decoder: "acme.beat", outcome: outcome)
        #expect(violations.count == 1)
        #expect(violations.first?.rule == "decode")
        #expect(violations.first?.field == "temperature_c")
        #expect(violations.first?.message == "temperature_c at offset 1: truncated: needs 2 bytes, 1 left")
        #expect(checker.summary.decodeErrors == 1)
        // Readings of decoders without rules are not counted.
        #expect(checker.check(device: "x", frame: 4, timestamp: 0, decoder: "envsensor", outcome: outcome).isEmpty)
        #expect(checker.summary.readings == 1)
    }

    @Test func `the summary lists every rule with its counts`() throws {
        var packets = steady
        packets[3].seq = 20
        packets[4].seq = 21
        let summary = try run(packets).checker.summary
        #expect(
            summary.description == """
                5 readings, 0 duplicates, 0 decode errors, 1 violation
                  acme.beat counter seq counts up by 1, modulo 256: 4 checked, 1 violation (first at frame 10)
                  acme.beat min temperature_c ≥ -20: 5 checked, ok
                  acme.beat max temperature_c ≤ 60: 5 checked, ok
                  acme.beat max_jump temperature_c changes by at most 2: 4 checked, ok
                  acme.beat enum mode is one of idle, run: 5 checked, ok
                  acme.beat cadence interval between packets ≥ 900 ms and ≤ 1100 ms: 4 checked, ok
                """)
    }

    @Test func `the envsensor layout checks humidity and skips repeated nonces`() throws {
        let layout = try Shipped.envSensor()
        var checker = RuleChecker(layouts: [layout])
        let good = hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF")
        var wet = good
        wet[0] = 0x35
        wet[4] = 0x11  // humidity 0x2711 = 10001 → 100.01 %
        wet[5] = 0x27
        var all: [RuleViolation] = []
        for (frame, bytes) in [(1, good), (2, good), (3, wet)] {
            all += checker.check(
                device: "d", frame: frame, timestamp: Int64(frame), decoder: layout.id,
                outcome: layout.decode(bytes: bytes))
        }
        #expect(all.map(\.frame) == [3])
        #expect(all.first?.message == "100.01 is above the maximum 100")
        #expect(checker.summary.duplicates == 1)
    }
}
