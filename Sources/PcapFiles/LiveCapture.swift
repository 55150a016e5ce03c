import CaptureFiles
import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A live capture of every adapter's HCI traffic from the Linux Bluetooth monitor into a pcap file
/// (link type 254), handing each record on as it is written: the loop behind `bluetape capture`.
public final class LiveCapture {
    private let monitor: LiveMonitor
    private let writer: CaptureWriter
    public let output: String
    public private(set) var packets = 0

    /// Checks that live capture can run here, opens the monitor and creates `output`. The error's
    /// message says what is missing (Linux, libpcap's interface, an adapter, CAP_NET_RAW).
    public init(output: String) throws(LiveCaptureError) {
        #if os(Linux)
        let isLinux = true
        let interfaces = LiveMonitor.interfaces()
        #else
        let isLinux = false
        let interfaces: [String] = []
        #endif
        if let problem = LiveCaptureCheck.problem(
            isLinux: isLinux, interfaces: interfaces, adapters: LiveMonitor.adapters(interfaces: interfaces))
        {
            throw LiveCaptureError(problem)
        }
        monitor = try LiveMonitor()
        do {
            writer = try CaptureWriter(path: output, format: .pcap(.linuxMonitor))
        } catch {
            throw LiveCaptureError(error.description)
        }
        self.output = output
    }

    /// Captures until `stop` (a descriptor, such as a signal pipe's read end) turns readable.
    /// `record` sees each record as written; `tick` runs at least four times a second (progress).
    public func run(
        until stop: Int32, record: (CaptureRecord) -> Void, tick: () -> Void = {}
    ) throws(LiveCaptureError) {
        var descriptors = [
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            pollfd(fd: monitor.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        do throws(CaptureWriteError) {
            while true {
                // Wake at least every quarter second, to keep the progress line fresh.
                _ = poll(&descriptors, nfds_t(descriptors.count), 250)
                if descriptors[0].revents != 0 { break }
                while let packet = monitor.next() {
                    packets += 1
                    let stored = StoredRecord(
                        monitorOpcode: packet.opcode, adapter: packet.adapter, frame: packets,
                        timestamp: packet.timestamp, payload: packet.payload, originalLength: packet.originalLength)
                    try writer.write(stored)
                    stored.withRecord(record)
                }
                tick()
            }
            try writer.finish()
        } catch {
            throw LiveCaptureError(error.description)
        }
    }
}
