// zip: the input is a zip archive (its first four bytes are made a local header's signature), read
// from memory: the central directory (zip64 included), member selection as for a bug report, nested
// zips, stored and deflated members with their sizes and CRC, and the capture read from the member.

import CaptureFiles
import CaptureModel
import PcapFiles

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = fuzzBytes(data, size)
    guard bytes.count >= 4 else { return 0 }
    bytes.replaceSubrange(0..<4, with: [0x50, 0x4B, 0x03, 0x04])
    guard let reader = try? CaptureReader(bytes: bytes, formats: [PcapFormat()], limits: fuzzLimits) else { return 0 }
    if reader.contents.containers.first != "zip" { fuzzFailure("a zip input was read as \(reader.contents.containers)") }
    drainDecompressed(reader)
    return 0
}
