// tar: the input is a tar archive. Every 512-byte block that carries the ustar magic gets its header
// checksum recomputed, so that mutated headers reach the reader (names, sizes in octal and base-256,
// GNU long names, pax records) instead of failing the checksum; the member found is then read.

import CaptureFiles
import CaptureModel
import PcapFiles

private let magic = Array("ustar".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = fuzzBytes(data, size)
    guard bytes.count >= 512 else { return 0 }
    bytes.replaceSubrange(257..<262, with: magic)
    var block = 0
    while block + 512 <= bytes.count {
        if Array(bytes[(block + 257)..<(block + 262)]) == magic {
            var sum = 0
            for index in 0..<512 { sum += (148..<156).contains(index) ? 0x20 : Int(bytes[block + index]) }
            let octal = Array(String(sum, radix: 8).utf8)
            let field = [UInt8](repeating: 0x30, count: max(0, 6 - octal.count)) + octal.suffix(6) + [0, 0x20]
            bytes.replaceSubrange((block + 148)..<(block + 156), with: field)
        }
        block += 512
    }
    guard let reader = try? CaptureReader(bytes: bytes, formats: [PcapFormat()], limits: fuzzLimits) else { return 0 }
    if reader.contents.containers.first != "tar" { fuzzFailure("a tar input was read as \(reader.contents.containers)") }
    drainDecompressed(reader)
    return 0
}
