#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `bluetape replay --to` serves the stream: a Unix socket, or TCP on the loopback interface.
/// The stream is never offered beyond this machine, so any other TCP address is refused.
package enum ReplayDestination: Sendable, Equatable, CustomStringConvertible {
    case unix(path: String)
    /// `host` is an IPv4 loopback address (127.x.y.z) or "::1".
    case tcp(host: String, port: UInt16)

    package var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }

    /// Reads `unix:PATH` or `tcp:HOST:PORT`, where HOST is 127.0.0.1 (any 127.x.y.z), localhost or [::1].
    package static func parse(_ text: String) throws(DestinationError) -> ReplayDestination {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw DestinationError("unix: needs a path, as in unix:/tmp/bluetape.sock") }
            guard path.utf8.count < unixPathCapacity else {
                throw DestinationError("the socket path \(path) is too long (at most \(unixPathCapacity - 1) bytes)")
            }
            return .unix(path: path)
        }
        guard text.hasPrefix("tcp:"), let colon = text.lastIndex(of: ":"), colon > text.index(text.startIndex, offsetBy: 3)
        else {
            throw DestinationError("--to takes unix:PATH or tcp:127.0.0.1:PORT, not '\(text)'")
        }
        var host = String(text[text.index(text.startIndex, offsetBy: 4)..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = UInt16(portText) else { throw DestinationError("'\(portText)' is not a TCP port (0–65535)") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard isLoopback(host) else {
            throw DestinationError(
                "replay serves TCP on the loopback interface only (127.0.0.1 or [::1]), not \(host.isEmpty ? "''" : host): "
                    + "the stream is not offered to other machines")
        }
        return .tcp(host: host, port: port)
    }

    /// 127.0.0.0/8 or ::1, written as an address (names other than localhost are not looked up).
    static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }

    /// sun_path's size, terminating zero included.
    static let unixPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
}

/// A `--to` that cannot be used, or a socket that cannot be served.
package struct DestinationError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
