/// Why a capture file cannot be read at all. Every case reads as one sentence a person can act on.
public enum CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(path: String)
    case notReadable(path: String, reason: String)
    case notARegularFile(path: String, what: String)
    case empty(path: String)
    case notACapture(path: String, firstBytes: [UInt8])
    case unsupportedVersion(path: String, format: CaptureFormat, version: UInt32)
    case unsupportedDatalink(path: String, datalink: LinkType)
    case truncatedHeader(path: String, format: CaptureFormat, have: Int, need: Int)
    case libpcap(path: String, message: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "\(path): no such file"
        case .notReadable(let path, let reason):
            return "\(path): cannot be read (\(reason))"
        case .notARegularFile(let path, let what):
            return "\(path): is \(what), not a capture file"
        case .empty(let path):
            return "\(path): file is empty"
        case .notACapture(let path, let firstBytes):
            let hex = firstBytes.map { b in String(b >> 4, radix: 16) + String(b & 0xF, radix: 16) }
                .joined(separator: " ")
            return
                "\(path): not a capture file (btsnoop, PacketLogger, pcap or pcapng); it starts with \(hex.isEmpty ? "nothing" : hex)"
        case .unsupportedVersion(let path, let format, let version):
            return "\(path): \(format.rawValue) version \(version) is not supported"
        case .unsupportedDatalink(let path, let datalink):
            return "\(path): unsupported datalink \(datalink.rawValue) (\(datalink.name))"
        case .truncatedHeader(let path, let format, let have, let need):
            return "\(path): \(format.rawValue) file header is cut short (\(have) of \(need) bytes)"
        case .libpcap(let path, let message):
            return "\(path): \(message)"
        }
    }
}

/// Damage found while reading records: reported, counted, and read past where the format allows.
public struct CaptureProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file ends inside a record; every whole record before it was read.
        case truncatedTail = "truncated_tail"
        /// A record header that cannot be right (length too large, impossible values).
        case badRecord = "bad_record"
        /// Reading could not go on past this point.
        case readError = "read_error"
    }

    public var kind: Kind
    /// The frame number the damaged record would have had.
    public var frame: Int
    /// Byte offset of the damaged record in the file.
    public var offset: Int64
    public var reason: String
    /// Bytes skipped to find the next good record, when reading resumed.
    public var skippedBytes: Int64?

    public var description: String {
        var text = "frame \(frame) at byte offset \(offset): \(reason)"
        if let skippedBytes { text += "; resumed after skipping \(skippedBytes) bytes" }
        return text
    }
}
