#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clients of a replay socket: every client gets every line from the moment it connects.
///
/// Writes never block. What a client cannot take yet waits in its own buffer; when one falls
/// `backlogLimit` bytes behind, `isBackedUp` tells the replay to wait for it, so a slow reader slows
/// the replay instead of losing lines. A client that hangs up is dropped; the replay goes on.
package final class ClientBroadcast {
    private struct Client {
        var descriptor: Int32
        var pending: [UInt8] = []
        var sent = 0
        var unsent: Int { pending.count - sent }
    }

    package let listener: SocketListener
    private var clients: [Client] = []
    package private(set) var connections = 0
    package let backlogLimit: Int

    package init(listener: SocketListener, backlogLimit: Int = 1 << 20) {
        self.listener = listener
        self.backlogLimit = backlogLimit
    }

    deinit { close() }

    package var clientCount: Int { clients.count }

    /// True while some client is more than `backlogLimit` bytes behind.
    package var isBackedUp: Bool { clients.contains { $0.unsent > backlogLimit } }

    /// True while some client has bytes still to receive.
    package var hasPending: Bool { clients.contains { $0.unsent > 0 } }

    /// Queues `bytes` for every client and writes what each can take now.
    package func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        for index in clients.indices { clients[index].pending.append(contentsOf: bytes) }
        push()
    }

    /// The descriptors to wait on: the listener for new clients, each client for hang-ups, and for
    /// output while it has bytes waiting.
    package func descriptors() -> [pollfd] {
        var list = [pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)]
        for client in clients {
            let events = Int16(POLLIN) | (client.unsent > 0 ? Int16(POLLOUT) : 0)
            list.append(pollfd(fd: client.descriptor, events: events, revents: 0))
        }
        return list
    }

    /// Acts on what `Monotonic.poll` found ready among `descriptors()`: accepts, writes, drops.
    package func handle(_ ready: [pollfd]) {
        var hungUp = Set<Int32>()
        for entry in ready.dropFirst() where entry.revents != 0 {
            if entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 || !drainInput(entry.fd) {
                hungUp.insert(entry.fd)
            }
        }
        drop(hungUp)
        if let listening = ready.first, listening.revents & Int16(POLLIN) != 0 { acceptWaiting() }
        push()
    }

    /// Takes every client waiting to connect.
    package func acceptWaiting() {
        while let descriptor = listener.accept() {
            clients.append(Client(descriptor: descriptor))
            connections += 1
        }
    }

    /// Writes to each client what it can take without blocking.
    package func push() {
        var failed = Set<Int32>()
        for index in clients.indices where clients[index].unsent > 0 {
            let written = clients[index].pending.withUnsafeBytes { raw in
                sendNoSignal(clients[index].descriptor, raw.baseAddress! + clients[index].sent, clients[index].unsent)
            }
            if written > 0 {
                clients[index].sent += written
                if clients[index].unsent == 0 {
                    clients[index].pending.removeAll(keepingCapacity: true)
                    clients[index].sent = 0
                }
            } else if written < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                failed.insert(clients[index].descriptor)
            }
        }
        drop(failed)
    }

    /// Closes every client and the listener (removing a Unix socket's file).
    package func close() {
        for client in clients { _ = systemClose(client.descriptor) }
        clients.removeAll()
        listener.close()
    }

    /// Clients send nothing; reading tells a hang-up (0 bytes) from stray input. False on hang-up.
    private func drainInput(_ descriptor: Int32) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {
            let got = recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT))
            if got > 0 { continue }
            return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
    }

    private func drop(_ descriptors: Set<Int32>) {
        guard !descriptors.isEmpty else { return }
        for descriptor in descriptors { _ = systemClose(descriptor) }
        clients.removeAll { descriptors.contains($0.descriptor) }
    }
}

/// `send` that reports a closed peer as EPIPE instead of raising SIGPIPE, which would end the process.
@inline(__always)
func sendNoSignal(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
    #else
    return Darwin.send(fd, buffer, count, 0)
    #endif
}
