// btsnooz: byte 0 picks how the rest is read.
//   0: version byte, 8-byte timestamp, then records, which the target compresses with zlib and
//      writes base64 into a bug report's BTSNOOP_LOG_SUMMARY section, so that mutations reach the
//      record reader (lengths, types, truncation, times and their byte order);
//   1: the section's decoded bytes as they are (the zlib stream mutated too);
//   2: a btsnoop header followed by the rest as version-2 records.

import CZlib
import CaptureFiles
import CaptureModel

private let btsnoopHeader: [UInt8] = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
private let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

private func base64(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
        let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
        for i in 0..<4 {
            out.append(i <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(i)) & 0x3F)] : UInt8(ascii: "="))
        }
        index += 3
        if index % 96 == 0 { out.append(UInt8(ascii: "\n")) }
    }
    return out
}

private func compressed(_ bytes: [UInt8]) -> [UInt8] {
    var length = compressBound(uLong(bytes.count))
    var out = [UInt8](repeating: 0, count: Int(length))
    let status = out.withUnsafeMutableBufferPointer { target in
        bytes.withUnsafeBufferPointer { source in compress2(target.baseAddress, &length, source.baseAddress, uLong(bytes.count), 6) }
    }
    guard status == Z_OK else { fuzzFailure("zlib could not compress \(bytes.count) bytes") }
    return Array(out.prefix(Int(length)))
}

private func section(_ decoded: [UInt8]) -> [UInt8] {
    Array("== dumpstate: 2023-08-23 10:02:10\nDUMP OF SERVICE bluetooth_manager:\n".utf8)
        + Array("--- BEGIN:BTSNOOP_LOG_SUMMARY (\(decoded.count) bytes in) ---\n".utf8) + base64(decoded)
        + Array("\n--- END:BTSNOOP_LOG_SUMMARY ---\n".utf8)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    let input: [UInt8]
    switch mode % 3 {
    case 0:
        guard rest.count >= 9 else { return 0 }
        input = section(Array(rest.prefix(9)) + compressed(Array(rest.dropFirst(9))))
    case 1:
        input = section(rest)
    default:
        input = btsnoopHeader + rest
    }
    guard let reader = try? CaptureReader(bytes: input, limits: fuzzLimits) else { return 0 }
    if mode % 3 == 2 {
        drain(reader, fileSize: input.count)
    } else {
        if reader.format != .btsnooz { fuzzFailure("a summary section was read as \(reader.format)") }
        drainDecompressed(reader)
    }
    return 0
}
