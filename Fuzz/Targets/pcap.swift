// pcap and pcapng through libpcap: the input is a capture file, opened from memory with fmemopen
// as `CaptureReader(bytes:formats: [PcapFormat()])` does. Inputs that do not start with a pcap or pcapng magic get the
// classic little-endian pcap magic, so every input reaches libpcap.

import CaptureFiles
import CaptureModel
import PcapFiles

private let magics: [[UInt8]] = [
    [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D],
    [0x0A, 0x0D, 0x0D, 0x0A],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = fuzzBytes(data, size)
    guard bytes.count >= 4 else { return 0 }
    if !magics.contains(Array(bytes[0..<4])) { bytes.replaceSubrange(0..<4, with: magics[0]) }
    guard let reader = try? CaptureReader(bytes: bytes, formats: [PcapFormat()]) else { return 0 }
    drain(reader, fileSize: bytes.count)
    return 0
}
