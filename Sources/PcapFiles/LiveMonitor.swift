import CPcap
import FileAccess

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpcap's `bluetooth-monitor` interface, opened for live capture, non-blocking: every HCI packet
/// of every adapter, as the Linux monitor channel reports it (link type 254).
public final class LiveMonitor {
    private let pcap: bluetape_pcap
    private let handle: OpaquePointer
    /// Turns readable when packets wait.
    public let descriptor: Int32

    /// One packet: the monitor header's adapter and opcode, and the HCI packet after it.
    public struct Packet {
        public var adapter: UInt16
        public var opcode: UInt16
        public var timestamp: Int64
        public var payload: [UInt8]
        public var originalLength: Int
    }

    /// Opens the interface; the error is the message to show.
    public init() throws(LiveCaptureError) {
        let pcap: bluetape_pcap
        do { pcap = try Libpcap.functions() } catch { throw LiveCaptureError(error.message) }
        var errorBuffer = Libpcap.errorBuffer()
        guard let handle = pcap.create(LiveCaptureCheck.interface, &errorBuffer) else {
            throw LiveCaptureError(LiveCaptureCheck.openProblem(permissionDenied: false, message: Libpcap.text(errorBuffer)))
        }
        _ = pcap.set_snaplen(handle, 65_535 + 4)
        _ = pcap.set_immediate_mode(handle, 1)
        let status = pcap.activate(handle)
        if status < 0 {
            let message = Libpcap.error(handle, pcap)
            pcap.close(handle)
            throw LiveCaptureError(
                LiveCaptureCheck.openProblem(permissionDenied: status == PCAP_ERROR_PERM_DENIED, message: message))
        }
        guard pcap.datalink(handle) == 254 else {
            let link = pcap.datalink(handle)
            pcap.close(handle)
            throw LiveCaptureError("\(LiveCaptureCheck.interface) gives link type \(link), not 254 (Linux monitor)")
        }
        _ = pcap.setnonblock(handle, 1, &errorBuffer)
        self.pcap = pcap
        self.handle = handle
        descriptor = pcap.get_selectable_fd(handle)
    }

    deinit { pcap.close(handle) }

    /// The next waiting packet, or nil when none waits.
    public func next() -> Packet? {
        while true {
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            guard pcap.next_ex(handle, &header, &data) == 1, let header, let data else { return nil }
            let captured = Int(header.pointee.caplen)
            // The 4-byte monitor header: adapter index and opcode, big-endian.
            guard captured >= 4 else { continue }
            let timestamp = Int64(header.pointee.ts.tv_sec) * 1_000_000 + Int64(header.pointee.ts.tv_usec)
            return Packet(
                adapter: UInt16(data[0]) << 8 | UInt16(data[1]), opcode: UInt16(data[2]) << 8 | UInt16(data[3]),
                timestamp: timestamp, payload: Array(UnsafeBufferPointer(start: data + 4, count: captured - 4)),
                originalLength: max(Int(header.pointee.len), captured) - 4)
        }
    }

    /// The interfaces libpcap offers.
    public static func interfaces() -> [String] {
        var errorBuffer = Libpcap.errorBuffer()
        guard let pcap = try? Libpcap.functions() else { return [] }
        var list: UnsafeMutablePointer<pcap_if_t>?
        guard pcap.findalldevs(&list, &errorBuffer) == 0 else { return [] }
        defer { pcap.freealldevs(list) }
        var names: [String] = []
        var entry = list
        while let current = entry {
            names.append(String(cString: current.pointee.name))
            entry = current.pointee.next
        }
        return names
    }

    /// The adapters the kernel lists (hci0, …), and those libpcap names bluetoothN.
    public static func adapters(interfaces: [String]) -> [String] {
        let kernel = ((try? WholeFile.list("/sys/class/bluetooth")) ?? []).filter { $0.hasPrefix("hci") }
        let named = interfaces.filter { $0.hasPrefix("bluetooth") && $0.dropFirst(9).allSatisfy(\.isNumber) && $0.count > 9 }
        return kernel + named
    }
}
