import BluetoothPackets

/// Signalling parameters and PSMs, for people.
enum EventL2CAPText {
    static func psm(_ psm: UInt16) -> String {
        "psm \(hex4(psm))" + (L2CAPPSM.name(psm).map { " (\($0))" } ?? "")
    }

    /// One line with a command's parameters; nil for commands shown as data only.
    static func parameters(_ command: SignalCommand) -> String? {
        switch command {
        case .connectionRequest(let p, let source):
            return "\(psm(p)) scid \(hex4(source))"
        case .connectionResponse(let destination, let source, let result, let status):
            return "dcid \(hex4(destination)) scid \(hex4(source)) result \(result) status \(status)"
        case .configureRequest(let destination, let flags, let mtu, let mode):
            return "dcid \(hex4(destination)) flags \(flags)" + (mtu.map { " mtu \($0)" } ?? "") + (mode.map { " mode \($0)" } ?? "")
        case .configureResponse(let source, let flags, let result, let mtu):
            return "scid \(hex4(source)) flags \(flags) result \(result)" + (mtu.map { " mtu \($0)" } ?? "")
        case .disconnectionRequest(let destination, let source), .disconnectionResponse(let destination, let source):
            return "dcid \(hex4(destination)) scid \(hex4(source))"
        case .leCreditConnectionRequest(let p, let source, let mtu, let mps, let credits):
            return "\(psm(p)) scid \(hex4(source)) mtu \(mtu) mps \(mps) credits \(credits)"
        case .leCreditConnectionResponse(let destination, let mtu, let mps, let credits, let result):
            return "dcid \(hex4(destination)) mtu \(mtu) mps \(mps) credits \(credits) result \(result)"
        case .flowControlCredit(let cid, let credits):
            return "cid \(hex4(cid)) credits \(credits)"
        case .creditConnectionRequest(let p, let mtu, let mps, let credits, let sources):
            return "\(psm(p)) mtu \(mtu) mps \(mps) credits \(credits) scids \(sources.map(hex4).joined(separator: ", "))"
        case .creditConnectionResponse(let mtu, let mps, let credits, let result, let destinations):
            return "mtu \(mtu) mps \(mps) credits \(credits) result \(result) dcids \(destinations.map(hex4).joined(separator: ", "))"
        case .creditReconfigureRequest(let mtu, let mps, let destinations):
            return "mtu \(mtu) mps \(mps) dcids \(destinations.map(hex4).joined(separator: ", "))"
        case .creditReconfigureResponse(let result):
            return "result \(result)"
        case .other:
            return nil
        }
    }

    private static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
