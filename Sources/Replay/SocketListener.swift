#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket for a replay destination, non-blocking. A Unix socket's file is created here
/// and removed by `close()`; a stale one left by a killed replay is replaced, anything else is not.
package final class SocketListener {
    package let descriptor: Int32
    /// What is served, with the port the system chose when port 0 was asked for.
    package let destination: ReplayDestination
    private var closed = false

    package init(_ destination: ReplayDestination) throws(DestinationError) {
        switch destination {
        case .unix(let path):
            try Self.clearStaleSocket(path)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: path.utf8)
                raw[path.utf8.count] = 0
            }
            descriptor = try Self.listen(family: AF_UNIX, address, destination)
            self.destination = destination
        case .tcp(let host, let port):
            if host.contains(":") {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                inet_pton(AF_INET6, host, &address.sin6_addr)
                descriptor = try Self.listen(family: AF_INET6, address, destination)
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                inet_pton(AF_INET, host, &address.sin_addr)
                descriptor = try Self.listen(family: AF_INET, address, destination)
            }
            self.destination = .tcp(host: host, port: Self.boundPort(descriptor) ?? port)
        }
    }

    deinit { close() }

    /// A waiting client's descriptor (non-blocking), or nil when none is waiting.
    package func accept() -> Int32? {
        let client = systemAccept(descriptor)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return client
    }

    /// Stops listening and removes the socket file.
    package func close() {
        guard !closed else { return }
        closed = true
        _ = systemClose(descriptor)
        if case .unix(let path) = destination { unlink(path) }
    }

    private static func listen<Address>(family: Int32, _ address: Address, _ destination: ReplayDestination)
        throws(DestinationError) -> Int32
    {
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw failure("cannot create a socket", destination) }
        var one: Int32 = 1
        if family != AF_UNIX { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        var address = address
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard bound == 0, systemListen(fd, 16) == 0 else {
            let error = failure("cannot listen", destination)
            _ = systemClose(fd)
            throw error
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    private static func failure(_ what: String, _ destination: ReplayDestination) -> DestinationError {
        DestinationError("\(what) on \(destination): \(String(cString: strerror(errno)))")
    }

    private static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard got == 0 else { return nil }
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port both follow the 2-byte family, in network order.
            UInt16(raw[2]) << 8 | UInt16(raw[3])
        }
    }

    /// A socket file nobody listens on is what a killed replay leaves: replace it. Refuse a live
    /// socket or anything that is not a socket.
    private static func clearStaleSocket(_ path: String) throws(DestinationError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw DestinationError("\(path) exists and is not a socket; choose another path")
        }
        if let probe = try? SocketClient.connect(.unix(path: path)) {
            _ = systemClose(probe)
            throw DestinationError("\(path) is in use: another program is listening on it")
        }
        unlink(path)
    }
}

/// Connecting to a destination: the listener's stale-socket probe, and tests' clients.
package enum SocketClient {
    package static func connect(_ destination: ReplayDestination) throws(DestinationError) -> Int32 {
        let fd: Int32
        let status: Int32
        switch destination {
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
                raw[min(path.utf8.count, raw.count - 1)] = 0
            }
            fd = streamSocket(AF_UNIX)
            status = connect(fd, &address)
        case .tcp(let host, let port):
            if host.contains(":") {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                inet_pton(AF_INET6, host, &address.sin6_addr)
                fd = streamSocket(AF_INET6)
                status = connect(fd, &address)
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                inet_pton(AF_INET, host, &address.sin_addr)
                fd = streamSocket(AF_INET)
                status = connect(fd, &address)
            }
        }
        guard fd >= 0, status == 0 else {
            let error = DestinationError("cannot connect to \(destination): \(String(cString: strerror(errno)))")
            if fd >= 0 { _ = systemClose(fd) }
            throw error
        }
        return fd
    }

    private static func streamSocket(_ family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
        return socket(family, SOCK_STREAM, 0)
        #endif
    }

    private static func connect<Address>(_ fd: Int32, _ address: inout Address) -> Int32 {
        guard fd >= 0 else { return -1 }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}

@inline(__always)
func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}

@inline(__always)
func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    return Glibc.connect(fd, address, length)
    #else
    return Darwin.connect(fd, address, length)
    #endif
}

@inline(__always)
func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.listen(fd, backlog)
    #else
    return Darwin.listen(fd, backlog)
    #endif
}

@inline(__always)
func systemAccept(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.accept(fd, nil, nil)
    #else
    return Darwin.accept(fd, nil, nil)
    #endif
}
