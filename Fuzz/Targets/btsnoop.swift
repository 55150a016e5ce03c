// btsnoop reader: the input is a btsnoop file. Its first 12 bytes are always made the btsnoop
// magic and version 1, and an unsupported datalink is replaced by one of the three read (chosen by
// byte 15), so every input reaches the record reader.

import CaptureFiles
import CaptureModel

private let header: [UInt8] = Array("btsnoop\0".utf8) + [0, 0, 0, 1]
private let datalinks: [[UInt8]] = [[0, 0, 0x03, 0xE9], [0, 0, 0x03, 0xEA], [0, 0, 0x07, 0xD1]]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = fuzzBytes(data, size)
    guard bytes.count >= 16 else { return 0 }
    bytes.replaceSubrange(0..<12, with: header)
    if !datalinks.contains(Array(bytes[12..<16])) {
        bytes.replaceSubrange(12..<16, with: datalinks[Int(bytes[15]) % 3])
    }
    guard let reader = try? CaptureReader(bytes: bytes) else { fuzzFailure("a btsnoop header was refused") }
    drain(reader, fileSize: bytes.count)
    return 0
}
