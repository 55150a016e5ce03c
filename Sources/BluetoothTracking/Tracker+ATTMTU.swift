import BluetoothPackets
import CaptureModel

extension Tracker {
    /// Exchange MTU Request and Response: both sides' Rx MTUs settle the bearer's ATT_MTU.
    @inline(__always)
    func exchangeMTU(_ x: ATTContext, _ mtu: UInt16, _ e: inout ATTEvent) {
        let c = x.connection
        let b = x.bearer
        e.exchangedMTU = mtu
        if b.kind != .fixed {
            // The MTU of an EATT or BR/EDR bearer is its channel's (Vol 3, Part F, §3.4.2).
            diagnose(
                "att", "att.mtu_exchange_off_fixed_channel",
                "\(ATTOpcode.name(x.opcode)) on CID 0x\(String(b.channel, radix: 16)): only the LE fixed channel exchanges MTUs",
                connection: c.id)
        }
        if x.opcode == ATTOpcode.exchangeMTURequest {
            if b.kind == .fixed { b.requestedMTU = mtu }
            expectResponse(x, PendingRequest(opcode: x.opcode, frame: frame))
            push(.att(e))
        } else {
            let request = takeRequest(x)
            e.requestFrame = request?.frame
            push(.att(e))
            guard b.kind == .fixed else { return }
            b.mtu = max(23, min(mtu, b.requestedMTU ?? mtu))
            push(.mtu(MTUChange(connection: c.id, mtu: b.mtu)))
        }
    }
}
