import BluetoothPackets
import BluetoothTracking
import ByteReading
import CaptureFiles
import CaptureModel
import EventOutput
import JSON
import TestSupport
import Testing

/// Nothing from a capture reaches a terminal as a control byte, and the notes capturing tools write
/// are shown as what they are: btmon's User Logging as `= ident: message`, text as text, bytes as bytes.
struct TextSafetyTests {
    /// ESC [ 2 J (clear screen), an OSC title sequence, a bell, CSI as a C1 character, and DEL.
    static let hostile = "A\u{1B}[2J\u{1B}]0;owned\u{07}B\u{9B}31mC\u{7F}"

    /// A btmon file (btsnoop 2001) with a hostile device name, system note, user logging message and
    /// a second user logging record cut short (its ident is longer than the bytes); read the way `bluetape events` reads it.
    static func craftedCapture() throws -> [UInt8] {
        let name = Array(hostile.utf8)
        var records: [StoredRecord] = []
        func add(_ kind: RecordKind, opcode: UInt16, _ payload: [UInt8]) {
            records.append(
                StoredRecord(
                    frame: records.count + 1, timestamp: 1_700_000_000_000_000 + Int64(records.count) * 1000,
                    direction: kind == .event ? .received : .unknown, kind: kind, linkType: .btsnoopMonitor,
                    sourceType: opcode, payload: payload))
        }
        add(.note, opcode: 12, name + [0])
        // User Logging: priority 3 (error), ident "bt\u{1B}d" and its NUL, the message and its NUL.
        add(.note, opcode: 13, [3, 5] + Array("bt\u{1B}d".utf8) + [0] + name + [0])
        add(.note, opcode: 13, [6, 40, 0x01, 0x02, 0x03])
        // An LE Advertising Report whose complete local name is the hostile text.
        let ad = [UInt8(name.count + 1), 0x09] + name
        add(.event, opcode: 3, [0x3E, UInt8(12 + ad.count), 0x02, 0x01, 0x00, 0x01, 1, 2, 3, 4, 5, 6, UInt8(ad.count)] + ad + [0xC1])
        return try CaptureFactory.capture(.btsnoop(.btsnoopMonitor), records)
    }

    static func read(_ bytes: [UInt8]) throws -> [Event] {
        var events: [Event] = []
        EventStream.read(try CaptureReader(bytes: bytes)) { events.append($0) }
        return events
    }

    @Test func `a crafted capture's text output holds no control byte but the line ends`() throws {
        let events = try Self.read(try Self.craftedCapture())
        var writer = EventText()
        var output = JSONWriter(capacity: 4096)
        for event in events { writer.write(event, to: &output) }
        let text = String(decoding: output.bytes, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        let lines = text.split(separator: "\n").map(String.init)
        let escaped = #"A\x1b[2J\x1b]0;owned\x07B\x9b31mC\x7f"#
        #expect(lines[0].hasSuffix("note       " + escaped))
        #expect(lines[1].hasSuffix(#"note       = bt\x1bd: "# + escaped))
        #expect(lines[2] == "        priority 3 (error)")
        #expect(lines.contains("        name \"\(escaped)\""))
    }

    @Test func `the same capture as JSON escapes them as JSON does`() throws {
        let events = try Self.read(try Self.craftedCapture())
        let lines = events.map(jsonLine)
        #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 })
        #expect(
            lines[1]
                == #"{"frame":2,"ts":1700000000.001000,"type":"note","source":"user_logging","ident":"bt\u001bd","priority":3,"priority_name":"error","text":"A\u001b[2J\u001b]0;owned\u0007B"# + "\u{9B}" + #"31mC"# + "\u{7F}" + #""}"#)
    }

    @Test func `user logging cut short is kept as bytes, not lost`() throws {
        let events = try Self.read(try Self.craftedCapture())
        guard case .note(let note) = events[2].body else {
            Issue.record("not a note: \(events[2].body)")
            return
        }
        #expect(note.source == .userLogging)
        #expect(note.text == nil)
        #expect(note.data == [6, 40, 0x01, 0x02, 0x03])
    }

    @Test func `btmon's User Logging as btmon prints it`() throws {
        // Blue2thprinting__import.snoop, frame 54: btmon prints
        // "= bluetoothd: Endpoint registered: sender=:1.75 path=/MediaEndpoint/A2DPSink/sbc".
        let path = try #require(TestPaths.sharedCaptures, "../shared/captures is not here") + "/Blue2thprinting__import.snoop"
        let event = try #require(try events(inCapture: path).first { $0.frame == 54 })
        guard case .note(let note) = event.body else {
            Issue.record("frame 54 is not a note")
            return
        }
        #expect(note.ident == "bluetoothd")
        #expect(note.priority == 6)
        var writer = EventText()
        var output = JSONWriter(capacity: 1024)
        writer.write(event, to: &output)
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("note       = bluetoothd: Endpoint registered: sender=:1.75 path=/MediaEndpoint/A2DPSink/sbc") == true)
        #expect(lines.dropFirst() == ["        priority 6 (info)"])
    }

    @Test func `a PacketLogger note that is not text is shown as its bytes, one that is as its text`() {
        // PacketLogger types 0xFB (power) and 0xFC (note), as iOS writes them.
        let power = StoredRecord(
            frame: 1, timestamp: 1_700_000_000_000_000, direction: .unknown, kind: .note, linkType: .packetLogger,
            sourceType: 0xFB, payload: [0x02, 0x0A, 0x41])
        let note = StoredRecord(
            frame: 2, timestamp: 1_700_000_000_001_000, direction: .unknown, kind: .note, linkType: .packetLogger,
            sourceType: 0xFC, payload: Array("line one\nline two".utf8) + [0, 0])
        let events = track([power, note])
        var writer = EventText()
        var output = JSONWriter(capacity: 4096)
        for event in events { writer.write(event, to: &output) }
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map { String($0.dropFirst(39)) }
        #expect(lines == ["power 020a41", #"line one\x0aline two"#])
        #expect(jsonLine(events[0]).hasSuffix(#""type":"note","source":"power","data":"020a41"}"#))
        #expect(jsonLine(events[1]).hasSuffix(#""type":"note","source":"note","text":"line one\nline two"}"#))
    }

    @Test func `escaping keeps text and escapes C0, DEL and C1 characters`() {
        #expect(PrintableText.escape("Kitchen 🌡 sensor") == "Kitchen 🌡 sensor")
        #expect(PrintableText.escape("a\tb\u{0}") == #"a\x09b\x00"#)
        #expect(PrintableText.escape(utf8: [0x41, 0xFF, 0x42]) == "A\u{FFFD}B")
        #expect(PrintableText.hexRows([0x1B, 0x41]) == ["1b 41" + String(repeating: " ", count: 42) + "  .A"])
    }
}
