#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for a replay's deadlines on the monotonic clock while serving the socket's clients, and
/// returns early once `stop` turns readable (the command line's SIGINT/SIGTERM descriptor).
package final class ReplayPacer {
    private let stop: Int32
    private let clients: ClientBroadcast?
    /// Set once a stop was seen; every wait returns false from then on.
    package private(set) var stopped = false

    package init(stop: Int32, clients: ClientBroadcast?) {
        self.stop = stop
        self.clients = clients
    }

    /// Waits until the monotonic clock reads `deadline`; false when told to stop.
    package func wait(until deadline: Int64) -> Bool {
        while !stopped, Monotonic.now() < deadline { serve(until: deadline) }
        return !stopped
    }

    /// Looks for a stop, new clients and clients ready for output, without waiting.
    package func check() -> Bool {
        serve(until: Monotonic.now())
        return !stopped
    }

    /// Waits while a client is far behind, so a slow reader slows the replay instead of losing lines.
    package func waitWhileBackedUp() -> Bool {
        while !stopped, clients?.isBackedUp == true { serve(until: nil) }
        return !stopped
    }

    /// Waits until `count` clients have connected; false when told to stop first.
    package func waitForClients(_ count: Int) -> Bool {
        while !stopped, let clients, clients.connections < count { serve(until: nil) }
        return !stopped
    }

    /// Gives the clients until `deadline` to take what is queued for them (a stop cuts it short).
    package func drainClients(until deadline: Int64) {
        while !stopped, clients?.hasPending == true, Monotonic.now() < deadline { serve(until: deadline) }
    }

    private func serve(until deadline: Int64?) {
        var descriptors = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0)] + (clients?.descriptors() ?? [])
        Monotonic.poll(&descriptors, until: deadline)
        if descriptors[0].revents != 0 {
            stopped = true
            return
        }
        clients?.handle(Array(descriptors.dropFirst()))
    }
}
