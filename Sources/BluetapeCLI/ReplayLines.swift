import CaptureFiles
import CaptureModel
import JSON
import SystemIO
import Replay

/// Writes a replay's lines when they are due: to stdout, flushed line by line, or to the clients of
/// a socket. Unpaced (`--max`), lines go out in 64 KiB blocks, as `bluetape events` writes them.
struct ReplayLines {
    let stdout: Output
    let clients: ClientBroadcast?
    let pacer: ReplayPacer
    let paced: Bool

    /// Plays `run`, writing each element with `write` when it is due, then sends what is left (socket
    /// clients get a few seconds to take it). Stops early on a stop signal or when stdout's reader
    /// has gone. Returns the last pass's reader.
    func play<Source: ReplaySource>(
        _ run: ReplayRun<Source>, _ write: (Source.Element, inout JSONWriter) -> Void
    ) throws(CaptureError) -> CaptureReader {
        // Local, not a stored property: the writer is touched once per line, without access checks.
        var writer = JSONWriter(capacity: 1 << 17)
        var start: Int64?
        var count = 0
        defer { finish(&writer) }
        return try run.play { item in
            count += 1
            // Late lines skip the wait; look for a stop now and then all the same.
            if let start, item.offset > .zero, !pacer.wait(until: start + Self.nanoseconds(item.offset)) { return false }
            if count % 1024 == 0, !pacer.check() { return false }
            write(item.value, &writer)
            let going = deliver(&writer)
            // Time zero is when the first line has gone out (its offset is zero): the one-time costs
            // of the first line then make no later line late.
            if start == nil { start = Monotonic.now() }
            return going
        }
    }

    private func deliver(_ writer: inout JSONWriter) -> Bool {
        if let clients {
            guard paced || writer.count >= 1 << 16 else { return true }
            clients.send(writer.bytes)
            writer.reset()
            return pacer.waitWhileBackedUp()
        }
        if paced {
            stdout.write(writer)
            writer.reset()
            stdout.flush()
        } else {
            stdout.drain(&writer)
        }
        return stdout.failure == nil
    }

    private func finish(_ writer: inout JSONWriter) {
        if let clients {
            clients.send(writer.bytes)
            pacer.drainClients(until: Monotonic.now() + 5_000_000_000)
        } else {
            stdout.write(writer)
            stdout.flush()
        }
        writer.reset()
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
