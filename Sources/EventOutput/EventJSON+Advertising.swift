import BluetoothPackets
import BluetoothTracking
import JSON

extension EventJSON {
    static func writeAdvertisement(_ adv: Advertisement, _ w: inout JSONWriter, _ cache: EventJSONCache?) {
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
        // The cache reads the bytes itself: a closure here would retain it for every advert.
        if let cache {
            cache.write(adv.data, to: &w, zeroVarying: zeroVarying, writeAD)
        } else {
            adv.data.withUnsafeBytes { bytes in EventJSONCache.Holes.withRoom { writeAD(bytes, &w, &$0) } }
        }
    }

    /// Where the bytes of `s` that the JSON shows only as hex begin, or nil when all of them
    /// show elsewhere too (a flags word, a name): manufacturer and service data after the
    /// company or UUID, and every byte of a structure not interpreted. A sensor's readings lie
    /// there, and an advert's JSON is the same as another's with other bytes there but for that hex.
    static func varyingStart(_ s: AdvertisingData.Structure) -> Int? {
        switch s.kind {
        case .manufacturerData(_, let data), .serviceData(_, let data): s.data.count - data.count
        case .other: 0
        default: nil
        }
    }

    /// Zeroes the bytes of `data` that `varyingStart` finds: what is left is an advert's template.
    static func zeroVarying(_ data: UnsafeMutableRawBufferPointer) {
        // Only data bytes are zeroed, never the lengths and types the walk reads.
        for s in AdvertisingData.structures(in: UnsafeRawBufferPointer(data)) {
            guard let varying = varyingStart(s) else { continue }
            let start = s.offset + 2 + varying
            UnsafeMutableRawBufferPointer(rebasing: data[start..<(start + s.data.count - varying)]).initializeMemory(
                as: UInt8.self, repeating: 0)
        }
    }

    /// The AD list in order, then the lifted fields: name, mfr, service_data, uuids, tx_power, flags,
    /// appearance. One pass over the typed structures finds what there is; each lifted list is
    /// written in a pass of its own only when the data has one (the type picks the structures it
    /// reads again; what they mean is still `ADStructure`'s to say). Manufacturer and service data
    /// are the tail of their structure's bytes, so their hex is copied from the AD list's. `holes`:
    /// where the hex of the bytes `varyingStart` finds was written.
    static func writeAD(_ bytes: UnsafeRawBufferPointer, _ w: inout JSONWriter, _ holes: inout EventJSONCache.Holes) {
        // A structure takes at least two bytes: room for where each one's hex begins.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: bytes.count / 2 + 1) { hexStart in
            writeAD(bytes, hexStart: hexStart.baseAddress!, &w, &holes)
        }
    }

    private static func writeAD(
        _ bytes: UnsafeRawBufferPointer, hexStart: UnsafeMutablePointer<Int>, _ w: inout JSONWriter,
        _ holes: inout EventJSONCache.Holes
    ) {
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
        for (index, s) in structures.enumerated() {
            w.beginObject()
            w.key("type")
            w.int(s.type)
            w.key("data")
            hexStart[index] = w.count + 1  // after the opening quote
            w.hex(s.data)
            w.endObject()
            if let varying = varyingStart(s) {
                holes.add(output: hexStart[index] + 2 * varying, start: s.offset + 2 + varying, count: s.data.count - varying)
            }
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
        // `part` (a tail of structure `index`'s bytes, all of it varying) as hex, copied from
        // that structure's.
        func hex(_ part: UnsafeRawBufferPointer, of s: AdvertisingData.Structure, _ index: Int, _ w: inout JSONWriter) {
            let skipped = s.data.count - part.count
            w.quotedCopy(ofWrittenAt: hexStart[index] + 2 * skipped, count: 2 * part.count)
            holes.add(output: w.count - 1 - 2 * part.count, start: s.offset + 2 + skipped, count: part.count)
        }
        if let name {
            w.key("name")
            w.string(utf8: name)
        }
        if hasManufacturer {
            w.key("mfr")
            w.beginArray()
            for (index, s) in structures.enumerated() where s.type == ADType.manufacturerData {
                guard case .manufacturerData(let company, let data) = s.kind else { continue }
                w.beginObject()
                w.key("company")
                w.int(company)
                w.key("data")
                hex(data, of: s, index, &w)
                w.endObject()
            }
            w.endArray()
        }
        if hasServiceData {
            w.key("service_data")
            w.beginArray()
            for (index, s) in structures.enumerated()
            where ADType.uuidSize(s.type) != nil && s.type >= ADType.serviceData16 {
                guard case .serviceData(let uuid, let data) = s.kind else { continue }
                w.beginObject()
                w.key("uuid")
                Self.uuid(uuid, &w)
                w.key("data")
                hex(data, of: s, index, &w)
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
