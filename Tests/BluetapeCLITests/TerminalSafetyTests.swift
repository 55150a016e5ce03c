import CaptureFiles
import CaptureModel
import TestSupport
import Testing

/// A device that names itself with escape sequences: `events` and `decode` print the name, in text,
/// CSV and on the terminal, with every control character as `\xNN`.
struct TerminalSafetyTests {
    /// Clear screen, a window-title OSC with its bell, CSI as a C1 character.
    static let hostile: [UInt8] = Array("Pump\u{1B}[2J\u{1B}]0;owned\u{07}\u{9B}1m".utf8)

    /// A connection whose discovery finds the Device Name characteristic (0x2A00) at handle 3, and a
    /// Read Response that answers with the hostile name (Core v6.0, Vol 3, Part F, §3.4.4 and §3.4.4.4).
    static func capture() throws -> String {
        var records: [StoredRecord] = []
        func add(_ kind: RecordKind, _ direction: Direction, _ payload: [UInt8]) {
            records.append(
                StoredRecord(
                    frame: records.count + 1, timestamp: 1_700_000_000_000_000 + Int64(records.count) * 1000,
                    direction: direction, kind: kind, payload: payload))
        }
        func att(_ direction: Direction, _ pdu: [UInt8]) {
            let l2cap = [UInt8(pdu.count), 0, 0x04, 0x00] + pdu
            add(.acl, direction, [0x40, direction == .sent ? 0x00 : 0x20, UInt8(l2cap.count), 0] + l2cap)
        }
        // LE Connection Complete: handle 0x0040, central, public peer 00:1A:7D:1A:FD:C9.
        add(.event, .received, [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0xC9, 0xFD, 0x1A, 0x7D, 0x1A, 0x00, 0x18, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x01])
        att(.sent, [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28])
        att(.received, [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A])
        att(.sent, [0x0A, 0x03, 0x00])
        att(.received, [0x0B] + hostile)
        let path = TestPaths.temporaryDirectory() + "/hostile-name.btsnoop"
        #expect(TestPaths.writeFile(path, try CaptureFactory.capture(.btsnoop(.btsnoopUART), records)))
        return path
    }

    static func controls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func `decode text and CSV print the name escaped`() throws {
        let path = try Self.capture()
        let escaped = #"Pump\x1b[2J\x1b]0;owned\x07\x9b1m"#
        let (code, text, _) = runTool(["decode", "--format", "text", path])
        #expect(code == 0)
        #expect(Self.controls(text).isEmpty)
        #expect(text.contains("sig.text [read_rsp 2a00]  text=\(escaped)"))
        let (_, csv, _) = runTool(["decode", "--format", "csv", path])
        #expect(Self.controls(csv).isEmpty)
        #expect(csv.contains(",text,\(escaped)"))
    }

    @Test func `events text prints the value as bytes and nothing raw`() throws {
        let (code, text, _) = runTool(["events", "--format", "text", try Self.capture()])
        #expect(code == 0)
        #expect(Self.controls(text).isEmpty)
        #expect(text.contains("read_rsp conn 64 handle 0x0003 Device Name (2a00)"))
    }
}
