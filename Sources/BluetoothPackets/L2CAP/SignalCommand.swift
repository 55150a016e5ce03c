import ByteReading

/// L2CAP signalling command codes (Core v5.4, Vol 3, Part A, §4).
public enum SignalCode {
    public static let commandReject: UInt8 = 0x01
    public static let connectionRequest: UInt8 = 0x02
    public static let connectionResponse: UInt8 = 0x03
    public static let configureRequest: UInt8 = 0x04
    public static let configureResponse: UInt8 = 0x05
    public static let disconnectionRequest: UInt8 = 0x06
    public static let disconnectionResponse: UInt8 = 0x07
    public static let leCreditConnectionRequest: UInt8 = 0x14
    public static let leCreditConnectionResponse: UInt8 = 0x15
    public static let flowControlCredit: UInt8 = 0x16
    public static let creditConnectionRequest: UInt8 = 0x17
    public static let creditConnectionResponse: UInt8 = 0x18
    public static let creditReconfigureRequest: UInt8 = 0x19
    public static let creditReconfigureResponse: UInt8 = 0x1A
}

/// The parameters of the signalling commands that open, shape and close channels. Each MTU, MPS
/// and credit count is the sender's: what it can receive, and how many K-frames it lets the other
/// side send.
public enum SignalCommand: Sendable, Equatable {
    /// §4.2: a BR/EDR channel for `psm`, at the requester's `sourceCID`.
    case connectionRequest(psm: UInt16, sourceCID: UInt16)
    /// §4.3: result 0 success, 1 pending, otherwise refused.
    case connectionResponse(destinationCID: UInt16, sourceCID: UInt16, result: UInt16, status: UInt16)
    /// §4.4: `destinationCID` is the receiver's end; `mtu` and `mode` from the options, when given.
    case configureRequest(destinationCID: UInt16, flags: UInt16, mtu: UInt16?, mode: UInt8?)
    case configureResponse(sourceCID: UInt16, flags: UInt16, result: UInt16, mtu: UInt16?)
    /// §4.6/§4.7: `destinationCID` is the receiver's end of the request, `sourceCID` the sender's.
    case disconnectionRequest(destinationCID: UInt16, sourceCID: UInt16)
    case disconnectionResponse(destinationCID: UInt16, sourceCID: UInt16)
    /// §4.22: an LE credit-based channel.
    case leCreditConnectionRequest(psm: UInt16, sourceCID: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16)
    /// §4.23: result 0 success.
    case leCreditConnectionResponse(destinationCID: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16, result: UInt16)
    /// §4.24: `cid` is the sender's end; the other side may send `credits` more K-frames.
    case flowControlCredit(cid: UInt16, credits: UInt16)
    /// §4.25: up to five enhanced credit-based channels at once.
    case creditConnectionRequest(psm: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16, sourceCIDs: [UInt16])
    /// §4.26: a destination CID of 0 refuses the source CID in the same position.
    case creditConnectionResponse(mtu: UInt16, mps: UInt16, credits: UInt16, result: UInt16, destinationCIDs: [UInt16])
    /// §4.27: new MTU and MPS for the sender's ends `destinationCIDs`.
    case creditReconfigureRequest(mtu: UInt16, mps: UInt16, destinationCIDs: [UInt16])
    case creditReconfigureResponse(result: UInt16)
    /// Any other command: its data is in the signal event.
    case other

    /// The most channels one Credit Based Connection Request may open (§4.25).
    public static let maximumCreditChannels = 5

    public init(code: UInt8, parsing r: inout ByteReader) throws(DecodeError) {
        switch code {
        case SignalCode.connectionRequest:
            self = .connectionRequest(psm: try r.u16le("l2cap.psm"), sourceCID: try r.u16le("l2cap.scid"))
        case SignalCode.connectionResponse:
            self = .connectionResponse(
                destinationCID: try r.u16le("l2cap.dcid"), sourceCID: try r.u16le("l2cap.scid"),
                result: try r.u16le("l2cap.result"), status: try r.u16le("l2cap.status"))
        case SignalCode.configureRequest:
            let destination = try r.u16le("l2cap.dcid")
            let flags = try r.u16le("l2cap.flags")
            let options = try Self.options(&r)
            self = .configureRequest(destinationCID: destination, flags: flags, mtu: options.mtu, mode: options.mode)
        case SignalCode.configureResponse:
            let source = try r.u16le("l2cap.scid")
            let flags = try r.u16le("l2cap.flags")
            let result = try r.u16le("l2cap.result")
            self = .configureResponse(sourceCID: source, flags: flags, result: result, mtu: try Self.options(&r).mtu)
        case SignalCode.disconnectionRequest:
            self = .disconnectionRequest(destinationCID: try r.u16le("l2cap.dcid"), sourceCID: try r.u16le("l2cap.scid"))
        case SignalCode.disconnectionResponse:
            self = .disconnectionResponse(destinationCID: try r.u16le("l2cap.dcid"), sourceCID: try r.u16le("l2cap.scid"))
        case SignalCode.leCreditConnectionRequest:
            self = .leCreditConnectionRequest(
                psm: try r.u16le("l2cap.le_psm"), sourceCID: try r.u16le("l2cap.scid"), mtu: try r.u16le("l2cap.mtu"),
                mps: try r.u16le("l2cap.mps"), credits: try r.u16le("l2cap.initial_credits"))
        case SignalCode.leCreditConnectionResponse:
            self = .leCreditConnectionResponse(
                destinationCID: try r.u16le("l2cap.dcid"), mtu: try r.u16le("l2cap.mtu"), mps: try r.u16le("l2cap.mps"),
                credits: try r.u16le("l2cap.initial_credits"), result: try r.u16le("l2cap.result"))
        case SignalCode.flowControlCredit:
            self = .flowControlCredit(cid: try r.u16le("l2cap.cid"), credits: try r.u16le("l2cap.credits"))
        case SignalCode.creditConnectionRequest:
            let psm = try r.u16le("l2cap.spsm")
            let mtu = try r.u16le("l2cap.mtu")
            let mps = try r.u16le("l2cap.mps")
            let credits = try r.u16le("l2cap.initial_credits")
            self = .creditConnectionRequest(
                psm: psm, mtu: mtu, mps: mps, credits: credits, sourceCIDs: try Self.cids(&r, "l2cap.scid"))
        case SignalCode.creditConnectionResponse:
            let mtu = try r.u16le("l2cap.mtu")
            let mps = try r.u16le("l2cap.mps")
            let credits = try r.u16le("l2cap.initial_credits")
            let result = try r.u16le("l2cap.result")
            self = .creditConnectionResponse(
                mtu: mtu, mps: mps, credits: credits, result: result, destinationCIDs: try Self.cids(&r, "l2cap.dcid"))
        case SignalCode.creditReconfigureRequest:
            let mtu = try r.u16le("l2cap.mtu")
            let mps = try r.u16le("l2cap.mps")
            self = .creditReconfigureRequest(mtu: mtu, mps: mps, destinationCIDs: try Self.cids(&r, "l2cap.dcid"))
        case SignalCode.creditReconfigureResponse:
            self = .creditReconfigureResponse(result: try r.u16le("l2cap.result"))
        default:
            self = .other
        }
    }

    /// A list of 2-byte CIDs filling the rest of the command; at most five (§4.25–§4.27).
    private static func cids(_ r: inout ByteReader, _ field: String) throws(DecodeError) -> [UInt16] {
        guard r.remaining % 2 == 0 else {
            throw DecodeError(.badValue("a CID list of \(r.remaining) bytes"), at: r.offset, field: field)
        }
        guard r.remaining / 2 <= maximumCreditChannels else {
            throw DecodeError(.badValue("\(r.remaining / 2) CIDs, at most \(maximumCreditChannels)"), at: r.offset, field: field)
        }
        var list: [UInt16] = []
        while !r.isAtEnd { list.append(try r.u16le(field)) }
        return list
    }

    /// The configuration options this tracker needs (§5): MTU (type 0x01) and the mode of
    /// Retransmission and Flow Control (0x04). Other options are skipped by their length.
    private static func options(_ r: inout ByteReader) throws(DecodeError) -> (mtu: UInt16?, mode: UInt8?) {
        var mtu: UInt16?
        var mode: UInt8?
        while !r.isAtEnd {
            let type = try r.u8("l2cap.option.type") & 0x7F  // the top bit marks a hint
            let length = Int(try r.u8("l2cap.option.length"))
            var value = try r.sub(length, "l2cap.option.value")
            switch type {
            case 0x01: mtu = try value.u16le("l2cap.option.mtu")
            case 0x04: mode = try value.u8("l2cap.option.mode")
            default: break
            }
        }
        return (mtu, mode)
    }
}
