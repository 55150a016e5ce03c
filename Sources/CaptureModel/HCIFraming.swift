/// How each format's type codes map onto record kinds and directions (BlueZ `get_opcode_from_flags`).
public enum HCIFraming {
    /// Linux monitor opcodes (btsnoop 2001, pcap 254).
    public static func monitor(opcode: UInt16) -> (RecordKind, Direction) {
        switch opcode {
        case 2: (.command, .sent)
        case 3: (.event, .received)
        case 4: (.acl, .sent)
        case 5: (.acl, .received)
        case 6: (.sco, .sent)
        case 7: (.sco, .received)
        case 18: (.iso, .sent)
        case 19: (.iso, .received)
        case 12, 13: (.note, .unknown)  // system note, user logging
        default: (.other, .unknown)  // index added/removed/open/close/info, vendor diagnostics, control
        }
    }

    public static func monitorOpcode(kind: RecordKind, direction: Direction) -> UInt16? {
        switch (kind, direction) {
        case (.command, _): 2
        case (.event, _): 3
        case (.acl, .sent): 4
        case (.acl, _): 5
        case (.sco, .sent): 6
        case (.sco, _): 7
        case (.iso, .sent): 18
        case (.iso, _): 19
        case (.note, _): 12
        default: nil
        }
    }

    /// Apple PacketLogger record types.
    public static func packetLogger(type: UInt8) -> (RecordKind, Direction) {
        switch type {
        case 0x00: (.command, .sent)
        case 0x01: (.event, .received)
        case 0x02: (.acl, .sent)
        case 0x03: (.acl, .received)
        case 0x08: (.sco, .sent)
        case 0x09: (.sco, .received)
        case 0xF7...0xFE: (.note, .unknown)  // syslog, kernel, error, power, note, config, new controller
        default: (.other, .unknown)  // LMP and undocumented types
        }
    }

    /// The direction an H4 packet type implies when the format does not record one.
    public static func impliedDirection(_ kind: RecordKind) -> Direction {
        switch kind {
        case .command: .sent
        case .event: .received
        default: .unknown
        }
    }
}

/// The largest record any reader accepts: an H4 ACL packet with a full 65,535-byte payload.
/// Anything larger is a damaged length field, never a real packet.
public let maximumRecordLength = 65_540
