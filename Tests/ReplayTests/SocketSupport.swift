import BluetapeCLI
import Foundation
import Replay

/// The tool running on a thread of its own, for commands that serve sockets while a test connects.
final class BackgroundRun: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: (code: Int32, out: String, err: String)?

    init(_ arguments: [String]) {
        let thread = Thread { [self] in
            result = runBluetape(arguments)
            done.signal()
        }
        thread.start()
    }

    /// Waits for the command to end (at most `seconds`); nil when it did not.
    func wait(seconds: Double = 30) -> (code: Int32, out: String, err: String)? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result
    }
}

/// A client of a replay socket that reads lines, blocking.
final class LineClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects, retrying while the replay has not started listening yet (at most 10 s).
    init(_ destination: ReplayDestination) throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                descriptor = try SocketClient.connect(destination)
                return
            } catch {
                if Date() > deadline { throw error }
                usleep(10_000)
            }
        }
    }

    deinit { close(descriptor) }

    /// The next line, without its newline; nil at the end of the stream.
    func line() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let got = recv(descriptor, &chunk, chunk.count, 0)
            if got <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<got])
        }
    }

    /// Every line up to the end of the stream.
    func rest() -> [String] {
        var lines: [String] = []
        while let line = line() { lines.append(line) }
        return lines
    }
}

/// A TCP port nobody listens on now (the system's pick for port 0, released).
func freeLoopbackPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// Leaves a socket file nobody listens on at `path`, as a replay killed with SIGKILL would.
func makeStaleSocket(_ path: String) {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: path.utf8)
        raw[path.utf8.count] = 0
    }
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
