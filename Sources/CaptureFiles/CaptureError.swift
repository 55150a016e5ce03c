import CaptureModel

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
    /// A format this build has no reader for (pcap without `PcapFiles`).
    case formatNotAvailable(path: String, format: CaptureFormat)
    /// A compressed file or an archive that cannot be read: damaged, cut short, or a kind not read.
    case archive(path: String, reason: String)
    /// An archive or a text that holds no Bluetooth log.
    case noBluetoothLog(path: String, reason: String)
    /// A bound on decompressed bytes, members or memory that reading would pass.
    case limit(path: String, reason: String)
    /// `--member` names nothing in the archive; `available` lists the Bluetooth logs it holds.
    case memberNotFound(path: String, member: String, available: [String])
    /// What was asked cannot be done with these inputs: a join the files refuse, `--member` on a
    /// plain capture. A usage error for the command line (exit 2), not bad input.
    case refused(String)

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
                "\(path): not a capture file (btsnoop, PacketLogger, pcap, pcapng, btsnooz, or gzip, zip or tar holding one); it starts with \(hex.isEmpty ? "nothing" : hex)"
        case .unsupportedVersion(let path, let format, let version):
            return "\(path): \(format.rawValue) version \(version) is not supported"
        case .unsupportedDatalink(let path, let datalink):
            return "\(path): unsupported datalink \(datalink.rawValue) (\(datalink.name))"
        case .truncatedHeader(let path, let format, let have, let need):
            return "\(path): \(format.rawValue) file header is cut short (\(have) of \(need) bytes)"
        case .libpcap(let path, let message):
            return "\(path): \(message)"
        case .archive(let path, let reason), .noBluetoothLog(let path, let reason), .limit(let path, let reason):
            return "\(path): \(reason)"
        case .memberNotFound(let path, let member, let available):
            let listed = available.isEmpty ? "it holds no Bluetooth log" : "its Bluetooth logs: " + available.joined(separator: ", ")
            return "\(path): no member \(member) (\(listed))"
        case .refused(let message):
            return message
        case .formatNotAvailable(let path, let format):
            return "\(path): \(format.rawValue) is read through libpcap, which this program was built without (PcapFiles)"
        }
    }

    /// True when the request, not the input, is at fault: the command line's usage error.
    public var isUsageError: Bool {
        if case .refused = self { return true }
        return false
    }
}
