import BluetoothPackets
import JSON

/// The parameters of `signal` events and the PSM of `l2cap` events, as JSON keys.
enum EventL2CAPJSON {
    static func writePSM(_ psm: UInt16, _ w: inout JSONWriter) {
        w.key("psm")
        w.int(psm)
        if let name = L2CAPPSM.name(psm) {
            w.key("psm_name")
            w.literal(name)
        }
    }

    static func writeCommand(_ command: SignalCommand, _ w: inout JSONWriter) {
        switch command {
        case .connectionRequest(let psm, let source):
            writePSM(psm, &w)
            int("scid", source, &w)
        case .connectionResponse(let destination, let source, let result, let status):
            int("dcid", destination, &w)
            int("scid", source, &w)
            int("result", result, &w)
            int("status", status, &w)
        case .configureRequest(let destination, let flags, let mtu, let mode):
            int("dcid", destination, &w)
            int("flags", flags, &w)
            if let mtu { int("mtu", mtu, &w) }
            if let mode { int("mode", mode, &w) }
        case .configureResponse(let source, let flags, let result, let mtu):
            int("scid", source, &w)
            int("flags", flags, &w)
            int("result", result, &w)
            if let mtu { int("mtu", mtu, &w) }
        case .disconnectionRequest(let destination, let source), .disconnectionResponse(let destination, let source):
            int("dcid", destination, &w)
            int("scid", source, &w)
        case .leCreditConnectionRequest(let psm, let source, let mtu, let mps, let credits):
            writePSM(psm, &w)
            int("scid", source, &w)
            limits(mtu, mps, credits, &w)
        case .leCreditConnectionResponse(let destination, let mtu, let mps, let credits, let result):
            int("dcid", destination, &w)
            limits(mtu, mps, credits, &w)
            int("result", result, &w)
        case .flowControlCredit(let cid, let credits):
            int("cid", cid, &w)
            int("credits", credits, &w)
        case .creditConnectionRequest(let psm, let mtu, let mps, let credits, let sources):
            writePSM(psm, &w)
            limits(mtu, mps, credits, &w)
            list("scids", sources, &w)
        case .creditConnectionResponse(let mtu, let mps, let credits, let result, let destinations):
            limits(mtu, mps, credits, &w)
            int("result", result, &w)
            list("dcids", destinations, &w)
        case .creditReconfigureRequest(let mtu, let mps, let destinations):
            int("mtu", mtu, &w)
            int("mps", mps, &w)
            list("dcids", destinations, &w)
        case .creditReconfigureResponse(let result):
            int("result", result, &w)
        case .other:
            break
        }
    }

    private static func int<T: BinaryInteger>(_ key: StaticString, _ value: T, _ w: inout JSONWriter) {
        w.key(key)
        w.int(value)
    }

    private static func limits(_ mtu: UInt16, _ mps: UInt16, _ credits: UInt16, _ w: inout JSONWriter) {
        int("mtu", mtu, &w)
        int("mps", mps, &w)
        int("credits", credits, &w)
    }

    private static func list(_ key: StaticString, _ cids: [UInt16], _ w: inout JSONWriter) {
        w.key(key)
        w.beginArray()
        for cid in cids { w.int(cid) }
        w.endArray()
    }
}
