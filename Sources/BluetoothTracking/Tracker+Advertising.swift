import BluetoothPackets
import ByteReading
import CaptureModel

/// Extended advertising data arriving in several reports, collected per advertiser and set.
struct ExtendedFragmentKey: Hashable {
    var adapter: UInt16
    var address: BluetoothAddress
    var addressType: UInt8
    var sid: UInt8
}

struct ExtendedFragment {
    var address: BluetoothAddress
    var sid: UInt8
    var data: [UInt8]
    var firstFrame: Int
}

extension Tracker {
    /// Extended advertising data is at most 1,650 bytes (Core v5.4, Vol 4, Part E, §7.8.54).
    static let maximumExtendedData = 1650

    func legacyReport(_ report: LegacyAdvertisingReport) {
        let pdu: AdvertisingPDUKind
        switch report.eventType {
        case 0: pdu = .advInd
        case 1: pdu = .advDirectInd
        case 2: pdu = .advScanInd
        case 3: pdu = .advNonconnInd
        case 4: pdu = .scanRsp
        default:
            diagnose("hci", "adv.unknown_event_type", "advertising event type \(report.eventType) is not defined")
            pdu = .advInd
        }
        let advertisement = Advertisement(
            address: report.address, addressType: report.addressType, rssi: report.rssi == 127 ? nil : report.rssi,
            pdu: pdu, data: AdvertisingData(report.data))
        emitAdvertisement(advertisement, dataOffset: report.dataOffset)
    }

    func extendedReport(_ report: ExtendedAdvertisingReport) {
        let key = ExtendedFragmentKey(
            adapter: adapter, address: report.address, addressType: report.addressType.rawValue, sid: report.sid)
        var data: [UInt8]
        switch report.dataStatus {
        case 1:
            var fragment =
                extendedFragments[key]
                ?? ExtendedFragment(address: report.address, sid: report.sid, data: [], firstFrame: frame)
            fragment.data.append(contentsOf: report.data)
            if fragment.data.count > Self.maximumExtendedData {
                diagnose(
                    "hci", "adv.oversized_fragments",
                    "extended advertising data from \(report.address) passed 1,650 bytes; dropped")
                extendedFragments[key] = nil
            } else {
                extendedFragments[key] = fragment
            }
            return
        default:
            if let fragment = extendedFragments.removeValue(forKey: key) {
                data = fragment.data
                data.append(contentsOf: report.data)
            } else {
                data = [UInt8](report.data)
            }
        }
        let pdu: AdvertisingPDUKind
        if report.isLegacy {
            switch report.eventType & 0x1F {
            case 0x13: pdu = .advInd
            case 0x15: pdu = .advDirectInd
            case 0x12: pdu = .advScanInd
            case 0x10: pdu = .advNonconnInd
            case 0x1A, 0x1B: pdu = .scanRsp
            default: pdu = .advInd
            }
        } else {
            pdu = .ext
        }
        var advertisement = Advertisement(
            address: report.address, addressType: report.addressType, rssi: report.rssi == 127 ? nil : report.rssi,
            pdu: pdu, data: AdvertisingData(data))
        if report.eventType & 0x04 != 0 { advertisement.directAddress = report.directAddress }
        if !report.isLegacy {
            advertisement.primaryPHY = report.primaryPHY
            advertisement.secondaryPHY = report.secondaryPHY == 0 ? nil : report.secondaryPHY
            advertisement.sid = report.sid == 0xFF ? nil : report.sid
        }
        advertisement.advertisedTxPower = report.txPower == 127 ? nil : report.txPower
        advertisement.truncated = report.dataStatus == 2
        emitAdvertisement(advertisement, dataOffset: report.dataOffset, dataStart: data.count - report.data.count)
    }

    /// Emits an advertisement, after a diagnostic when its AD structures are broken. `dataStart`: where this
    /// record's bytes begin in data joined from several records; a byte before it has no offset in this packet.
    func emitAdvertisement(_ advertisement: consuming Advertisement, dataOffset: Int, dataStart: Int = 0) {
        let inline = advertisement.data.isInline
        if let error = Self.overrun(in: advertisement) {
            diagnose(
                "ad", "ad.length_overrun",
                "AD structure from \(advertisement.address) at data offset \(error.offset) runs past the data: \(error.reasonText)",
                offset: error.offset >= dataStart ? dataOffset + error.offset - dataStart : nil)
        }
        push(.advertisement(consume advertisement), mayHoldReferences: !inline)
    }

    /// Where its AD structures run past its data, if they do. Borrowed: read through the
    /// consuming parameter above, the advertisement was copied to be read.
    private static func overrun(in advertisement: borrowing Advertisement) -> DecodeError? {
        advertisement.data.forEach { _ in }
    }
}
