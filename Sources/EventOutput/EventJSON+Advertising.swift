import BluetoothPackets
import BluetoothTracking
import JSON

extension EventJSON {
    static func writeAdvertisement(_ adv: Advertisement, _ w: inout JSONWriter, _ cache: AdvertisingJSONCache?) {
        address(adv.address, &w)
        addressType(adv.addressType, &w)
        if let rssi = adv.rssi {
            w.key("rssi")
            w.int(rssi)
        }
        w.key("pdu")
        w.literal(adv.pdu.name)
        if let direct = adv.directAddress { address(direct, key: "direct_addr", &w) }
        if let channel = adv.channel {
            w.key("channel")
            w.int(channel)
        }
        if let phy = adv.primaryPHY {
            w.key("primary_phy")
            w.int(phy)
        }
        if let phy = adv.secondaryPHY {
            w.key("secondary_phy")
            w.int(phy)
        }
        if let sid = adv.sid {
            w.key("sid")
            w.int(sid)
        }
        if let power = adv.advertisedTxPower {
            w.key("adv_tx_power")
            w.int(power)
        }
        if adv.truncated {
            w.key("truncated")
            w.bool(true)
        }
        adv.data.withUnsafeBytes { bytes in
            if let cache { cache.write(bytes, to: &w, writeAD) } else { writeAD(bytes, &w) }
        }
    }

    /// The AD list in order, then the lifted fields: name, mfr, service_data, uuids, tx_power, flags,
    /// appearance. One pass over the typed structures finds what there is; each lifted list is
    /// written in a pass of its own only when the data has one (the type picks the structures it
    /// reads again; what they mean is still `ADStructure`'s to say).
    static func writeAD(_ bytes: UnsafeRawBufferPointer, _ w: inout JSONWriter) {
        let structures = AdvertisingData.structures(in: bytes)
        w.key("ad")
        w.beginArray()
        var name: UnsafeRawBufferPointer?
        var nameIsComplete = false
        var hasManufacturer = false
        var hasServiceData = false
        var hasUUIDs = false
        var txPower: Int8?
        var flags: UInt8?
        var appearance: UInt16?
        for s in structures {
            w.beginObject()
            w.key("type")
            w.int(s.type)
            w.key("data")
            w.hex(s.data)
            w.endObject()
            switch s.kind {
            case .localName(let text, let complete):
                if complete || !nameIsComplete { name = text }
                nameIsComplete = nameIsComplete || complete
            case .manufacturerData: hasManufacturer = true
            case .serviceData: hasServiceData = true
            case .uuids: hasUUIDs = true
            case .txPower(let power): txPower = power
            case .flags(let value): flags = flags ?? value
            case .appearance(let value): appearance = appearance ?? value
            case .other: break
            }
        }
        w.endArray()
        if let name {
            w.key("name")
            w.string(utf8: name)
        }
        if hasManufacturer {
            w.key("mfr")
            w.beginArray()
            for s in structures where s.type == ADType.manufacturerData {
                guard case .manufacturerData(let company, let data) = s.kind else { continue }
                w.beginObject()
                w.key("company")
                w.int(company)
                w.key("data")
                w.hex(data)
                w.endObject()
            }
            w.endArray()
        }
        if hasServiceData {
            w.key("service_data")
            w.beginArray()
            for s in structures where ADType.uuidSize(s.type) != nil && s.type >= ADType.serviceData16 {
                guard case .serviceData(let uuid, let data) = s.kind else { continue }
                w.beginObject()
                w.key("uuid")
                Self.uuid(uuid, &w)
                w.key("data")
                w.hex(data)
                w.endObject()
            }
            w.endArray()
        }
        if hasUUIDs {
            w.key("uuids")
            w.beginArray()
            for s in structures where s.type >= ADType.incomplete16 && s.type <= ADType.complete128 {
                guard case .uuids(let list, _) = s.kind else { continue }
                for uuid in list { Self.uuid(uuid, &w) }
            }
            w.endArray()
        }
        if let txPower {
            w.key("tx_power")
            w.int(txPower)
        }
        if let flags {
            w.key("flags")
            w.beginArray()
            for bit in ADFlags.bits where flags & (1 << bit.bit) != 0 { w.literal(bit.word) }
            w.endArray()
        }
        if let appearance { Self.appearance(appearance, &w) }
    }
}
