import ByteReading
import CaptureModel

extension Note {
    /// Reads a note record the way its format writes it: btmon's User Logging as priority, ident
    /// length, ident and message (BlueZ `btsnoop.h`, `struct btsnoop_opcode_user_logging`); other
    /// notes as text when they are text, else as bytes.
    init(record: CaptureRecord) {
        let payload = record.payload
        if record.linkType.isMonitor, record.sourceType == 13, let logged = Self.userLogging(payload) {
            self = logged
            return
        }
        let source: Source
        switch (record.linkType.isMonitor, record.linkType == .packetLogger, record.sourceType) {
        case (true, _, 12): source = .systemNote
        case (true, _, 13): source = .userLogging  // cut short or not text: kept as bytes
        case (_, true, let type): source = .packetLogger(UInt8(truncatingIfNeeded: type))
        default: source = .other
        }
        if let text = Self.text(payload) {
            self.init(source: source, text: text)
        } else {
            self.init(source: source, text: nil, data: [UInt8](payload))
        }
    }

    private static func userLogging(_ payload: UnsafeRawBufferPointer) -> Note? {
        var r = ByteReader(payload)
        guard let priority = try? r.u8(), let identLength = try? r.u8(),
            let ident = try? r.bytes(Int(identLength)), let identText = text(ident)
        else { return nil }
        let message = r.rest()
        guard let messageText = text(message) else {
            return Note(source: .userLogging, text: nil, data: [UInt8](message), ident: identText, priority: priority)
        }
        return Note(source: .userLogging, text: messageText, ident: identText, priority: priority)
    }

    /// The bytes as text, trailing NULs gone: nil unless they are UTF-8, hold no NUL, and are mostly
    /// (over two thirds) printable characters. A note in binary is shown as bytes, not as mangled text;
    /// a line of text with a few control characters in it is still text (escaped when printed).
    static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        let kept = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        guard !kept.contains(0), let text = UTF8Text.decode(kept) else { return nil }
        var printable = 0
        var all = 0
        for scalar in text.unicodeScalars {
            all += 1
            let value = scalar.value
            if (value >= 0x20 && !(0x7F...0x9F).contains(value)) || value == 0x09 || value == 0x0A || value == 0x0D {
                printable += 1
            }
        }
        return printable * 3 > all * 2 ? text : nil
    }

    /// A syslog priority's name (RFC 5424 §6.2.1), as btmon's `--priority` takes them.
    public static func priorityName(_ priority: UInt8) -> StaticString? {
        switch priority {
        case 0: "emergency"
        case 1: "alert"
        case 2: "critical"
        case 3: "error"
        case 4: "warning"
        case 5: "notice"
        case 6: "info"
        case 7: "debug"
        default: nil
        }
    }

    /// What kind of note it is, in words: "user_logging", "system_note", or a PacketLogger type
    /// (Wireshark's `packet-packetlogger.c` names them); nil for other notes.
    public var sourceName: StaticString? {
        switch source {
        case .systemNote: "system_note"
        case .userLogging: "user_logging"
        case .packetLogger(let type):
            switch type {
            case 0xF7: "syslog"
            case 0xF8: "kernel"
            case 0xF9: "kernel_debug"
            case 0xFA: "error"
            case 0xFB: "power"
            case 0xFC: "note"
            case 0xFD: "config"
            case 0xFE: "new_controller"
            default: nil
            }
        case .other: nil
        }
    }
}
