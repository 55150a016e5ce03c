// PacketLogger reader: the input is read as a capture file, as `CaptureReader(bytes:)` sniffs it
// (PacketLogger has no magic, so recognising it is part of what is fuzzed).

import CaptureFiles
import CaptureModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let reader = try? CaptureReader(bytes: bytes) else { return 0 }
    drain(reader, fileSize: bytes.count)
    return 0
}
