import BluetoothPackets
import BluetoothTracking
import CaptureModel
import Testing

/// The tracker keeps recent connections by their handle's low bits beside its table: handles
/// that share those bits, a handle reused after a disconnection, and adapters with the same
/// handle must each still find their own connection.
struct ConnectionLookupTests {
    @Test func `interleaved connections whose handles share their low bits keep their own peers`() {
        // Adapter 0: the three handles share their low four bits.
        let peerOf: [UInt16: String] = [
            0x0001: "C0:00:00:00:00:01", 0x0011: "C0:00:00:00:00:11", 0x0101: "C0:00:00:00:01:01",
        ]
        var trace = HCITrace()
        for handle: UInt16 in [0x0001, 0x0011, 0x0101] { trace.connect(handle, peer: peerOf[handle]!) }
        let order = Array(repeating: [UInt16(0x0001), 0x0011, 0x0101, 0x0011], count: 3).joined()
        for handle in order { trace.att(handle, .received, "1B 2A 00 64") }  // Handle Value Notification 0x002a
        let seen = track(trace).compactMap { $0.att.map { "\($0.connection) \($0.peer?.description ?? "none")" } }
        #expect(seen == order.map { "\($0) \(peerOf[$0]!)" })
    }

    @Test func `a handle reused after a disconnection finds the new connection, not the last one found`() {
        var trace = HCITrace()
        trace.connect(0x0040, peer: "C0:00:00:00:00:01")
        trace.att(0x0040, .received, "1B 2A 00 64")
        trace.disconnect(0x0040)
        trace.att(0x0040, .received, "1B 2A 00 64")  // after the disconnection: no peer known
        trace.connect(0x0040, peer: "C0:00:00:00:00:02")
        trace.att(0x0040, .received, "1B 2A 00 64")
        let peers = track(trace).compactMap { $0.att?.peer?.description ?? ($0.att != nil ? "none" : nil) }
        #expect(peers == ["C0:00:00:00:00:01", "none", "C0:00:00:00:00:02"])
    }
}
