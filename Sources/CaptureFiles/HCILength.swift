import ByteReading
import CaptureModel

/// Whether an HCI packet's own length field agrees with the bytes its record holds. A reader
/// resuming after damage takes a candidate for a record only when it does: random bytes pass the
/// header checks now and then, this one almost never.
enum HCILength {
    /// `packet`: the HCI packet without its H4 byte.
    static func agrees(kind: RecordKind, packet: UnsafeRawBufferPointer) -> Bool {
        declared(kind: kind, packet: packet).map { $0 == packet.count } ?? (kind.h4Type == nil)
    }

    /// The packet's length by its own header (header included); nil when the header is cut or
    /// the kind has no HCI header.
    static func declared(kind: RecordKind, packet: UnsafeRawBufferPointer) -> Int? {
        var reader = ByteReader(packet)
        do {
            switch kind {
            case .command:
                try reader.skip(2)
                return 3 + Int(try reader.u8())
            case .event:
                try reader.skip(1)
                return 2 + Int(try reader.u8())
            case .acl:
                try reader.skip(2)
                return 4 + Int(try reader.u16le())
            case .sco:
                try reader.skip(2)
                return 3 + Int(try reader.u8())
            case .iso:
                try reader.skip(2)
                return 4 + Int(try reader.u16le() & 0x3FFF)
            default:
                return nil
            }
        } catch {
            return nil
        }
    }
}
