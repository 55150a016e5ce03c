import BluetoothPackets
import CaptureModel

extension Tracker {
    /// Error Response: ends the request it names, and with it a long read or a queued write.
    @inline(__always)
    func errorResponse(_ x: ATTContext, request requestOpcode: UInt8, handle: UInt16, code: UInt8, _ e: inout ATTEvent) {
        let request = takeRequest(x, errorFor: requestOpcode)
        e.requestOpcode = requestOpcode
        e.errorCode = code
        e.handle = handle
        e.requestFrame = request?.frame
        switch requestOpcode {
        case ATTOpcode.readRequest, ATTOpcode.readBlobRequest, ATTOpcode.writeRequest, ATTOpcode.prepareWriteRequest:
            e.attribute = resolve(x, handle)
        default:
            break
        }
        push(moving: &e)
        if requestOpcode == ATTOpcode.readBlobRequest { completeLongRead(x.connection, x.bearer, side: x.side) }
        if requestOpcode == ATTOpcode.executeWriteRequest { x.bearer.preparedWrites[x.side].removeAll() }
    }
}
