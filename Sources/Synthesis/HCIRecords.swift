import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel

/// Builds HCI packets as an Android controller logs them (Core v5.4, Vol 4, Part E).
enum HCIRecords {
    static func command(_ opcode: UInt16, _ parameters: [UInt8], at time: Int64) -> StoredRecord {
        var w = ByteWriter(capacity: 3 + parameters.count)
        w.u16le(opcode)
        w.u8(UInt8(parameters.count))
        w.append(parameters)
        return StoredRecord(timestamp: time, direction: .sent, kind: .command, payload: w.bytes)
    }

    static func event(_ code: UInt8, _ parameters: [UInt8], at time: Int64) -> StoredRecord {
        StoredRecord(
            timestamp: time, direction: .received, kind: .event, payload: [code, UInt8(parameters.count)] + parameters)
    }

    static func leMeta(_ subevent: UInt8, _ parameters: [UInt8], at time: Int64) -> StoredRecord {
        event(0x3E, [subevent] + parameters, at: time)
    }

    static func commandComplete(_ opcode: UInt16, _ returned: [UInt8] = [0x00], at time: Int64) -> StoredRecord {
        event(0x0E, [0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + returned, at: time)
    }

    static func commandStatus(_ opcode: UInt16, status: UInt8 = 0, at time: Int64) -> StoredRecord {
        event(0x0F, [status, 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)], at: time)
    }

    /// One ACL data packet: `first` → PB 0b00 host to controller / 0b10 controller to host, else 0b01.
    static func acl(handle: UInt16, first: Bool, sent: Bool, _ data: ArraySlice<UInt8>, at time: Int64) -> StoredRecord {
        let pb: UInt16 = first ? (sent ? 0b00 : 0b10) : 0b01
        var w = ByteWriter(capacity: 4 + data.count)
        w.u16le(handle | pb << 12)
        w.u16le(UInt16(data.count))
        w.append(data)
        return StoredRecord(timestamp: time, direction: sent ? .sent : .received, kind: .acl, payload: w.bytes)
    }

    static func numberOfCompletedPackets(handle: UInt16, count: UInt16, at time: Int64) -> StoredRecord {
        var w = ByteWriter(capacity: 5)
        w.u8(1)
        w.u16le(handle)
        w.u16le(count)
        return event(0x13, w.bytes, at: time)
    }

    static func legacyReport(
        eventType: UInt8, addressType: AddressType, address: BluetoothAddress, data: [UInt8], rssi: Int8, at time: Int64
    ) -> StoredRecord {
        var w = ByteWriter(capacity: 12 + data.count)
        w.u8(1)
        w.u8(eventType)
        w.u8(addressType.rawValue)
        w.append(address.wireBytes)
        w.u8(UInt8(data.count))
        w.append(data)
        w.u8(UInt8(bitPattern: rssi))
        return leMeta(LESubevent.advertisingReport, w.bytes, at: time)
    }

    static func extendedReport(
        eventType: UInt16, addressType: AddressType, address: BluetoothAddress, data: ArraySlice<UInt8>, rssi: Int8,
        at time: Int64
    ) -> StoredRecord {
        var w = ByteWriter(capacity: 26 + data.count)
        w.u8(1)
        w.u16le(eventType)
        w.u8(addressType.rawValue)
        w.append(address.wireBytes)
        w.u8(0x01)  // primary PHY: LE 1M
        w.u8(eventType & 0x10 != 0 ? 0x00 : 0x01)  // secondary PHY: none for legacy PDUs
        w.u8(0xFF)  // no ADI
        w.u8(0x7F)  // TX power not available
        w.u8(UInt8(bitPattern: rssi))
        w.u16le(0)  // no periodic advertising
        w.u8(0)
        w.append([0, 0, 0, 0, 0, 0])
        w.u8(UInt8(data.count))
        w.append(data)
        return leMeta(LESubevent.extendedAdvertisingReport, w.bytes, at: time)
    }

    static func connectionComplete(
        enhanced: Bool, handle: UInt16, peerType: AddressType, peer: BluetoothAddress, interval: Int64, at time: Int64
    ) -> StoredRecord {
        var w = ByteWriter(capacity: 31)
        w.u8(0)  // success
        w.u16le(handle)
        w.u8(0)  // central
        w.u8(peerType.rawValue)
        w.append(peer.wireBytes)
        if enhanced {
            w.append([UInt8](repeating: 0, count: 12))  // no resolvable private addresses
        }
        w.u16le(UInt16(clamping: interval / 1250))
        w.u16le(0)
        w.u16le(500)  // 5 s supervision timeout
        w.u8(0x01)
        return leMeta(enhanced ? LESubevent.enhancedConnectionComplete : LESubevent.connectionComplete, w.bytes, at: time)
    }

    static func disconnectionComplete(handle: UInt16, reason: UInt8, at time: Int64) -> StoredRecord {
        var w = ByteWriter(capacity: 4)
        w.u8(0)
        w.u16le(handle)
        w.u8(reason)
        return event(0x05, w.bytes, at: time)
    }

    /// LE Create Connection (§7.8.12) to `peer`.
    static func createConnection(peerType: AddressType, peer: BluetoothAddress, interval: Int64, at time: Int64)
        -> StoredRecord
    {
        var w = ByteWriter(capacity: 25)
        w.u16le(0x0060)  // scan interval 60 ms
        w.u16le(0x0030)  // scan window 30 ms
        w.u8(0)  // no filter accept list
        w.u8(peerType.rawValue)
        w.append(peer.wireBytes)
        w.u8(0)  // own address: public
        let units = UInt16(clamping: interval / 1250)
        w.u16le(units)
        w.u16le(units)
        w.u16le(0)
        w.u16le(500)
        w.u16le(0)
        w.u16le(0)
        return command(0x200D, w.bytes, at: time)
    }

    /// Create Connection (§7.1.5): a BR/EDR ACL link to `peer`.
    static func createClassicConnection(peer: BluetoothAddress, at time: Int64) -> StoredRecord {
        var w = ByteWriter(capacity: 13)
        w.append(peer.wireBytes)
        w.u16le(0xCC18)  // packet types DM1, DH1, DM3, DH3, DM5, DH5
        w.u8(0x01)  // page scan repetition mode R1
        w.u8(0x00)  // reserved
        w.u16le(0x0000)  // no clock offset
        w.u8(0x01)  // role switch allowed
        return command(0x0405, w.bytes, at: time)
    }

    /// Connection Complete (§7.7.3) of a BR/EDR ACL link.
    static func classicConnectionComplete(handle: UInt16, peer: BluetoothAddress, at time: Int64) -> StoredRecord {
        var w = ByteWriter(capacity: 11)
        w.u8(0)  // success
        w.u16le(handle)
        w.append(peer.wireBytes)
        w.u8(0x01)  // ACL link
        w.u8(0x00)  // encryption off
        return event(0x03, w.bytes, at: time)
    }
}
