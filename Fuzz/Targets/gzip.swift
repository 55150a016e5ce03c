// gzip: the input is a gzip file (its first two bytes are made 1f 8b), read through zlib and then
// sniffed as whatever it holds: damaged deflate data, members one after another, trailing bytes,
// and a capture (or an archive) inside.

import CaptureFiles
import CaptureModel
import PcapFiles

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = fuzzBytes(data, size)
    guard bytes.count >= 2 else { return 0 }
    bytes[0] = 0x1F
    bytes[1] = 0x8B
    guard let reader = try? CaptureReader(bytes: bytes, formats: [PcapFormat()], limits: fuzzLimits) else { return 0 }
    if reader.contents.containers.first != "gzip" { fuzzFailure("a gzip input was read as \(reader.contents.containers)") }
    drainDecompressed(reader)
    return 0
}
