// The advertising-data parser: AD structures and the values lifted from them.

import BluetoothPackets
import ByteReading

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    let ad = AdvertisingData(bytes)
    var end = 0
    var checksum: UInt8 = 0
    let error = ad.forEach { structure in
        if structure.offset < end { fuzzFailure("structure at \(structure.offset) overlaps the one before") }
        end = structure.offset + 2 + structure.data.count
        if end > bytes.count { fuzzFailure("structure at \(structure.offset) ends at \(end), past \(bytes.count)") }
        for byte in structure.data { checksum &+= byte }
    }
    if let error, error.offset < 0 || error.offset >= max(bytes.count, 1) {
        fuzzFailure("error located at \(error.offset) in \(bytes.count) bytes: \(error)")
    }
    blackHole((checksum, ad.localName, ad.serviceUUIDs, error?.description))
    return 0
}
