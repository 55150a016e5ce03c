import BluetoothPackets
import ByteReading
import CaptureModel

/// The signalling channels (CID 0x0001 on BR/EDR, 0x0005 on LE): every command becomes a
/// `signal` event, and the ones that open, configure, credit and close dynamic channels keep the
/// connection's channel table. A command a sender says about itself (MTU, MPS, credits) applies
/// to the frames that sender receives.
extension Tracker {
    func handleSignaling(_ r: inout ByteReader, connection c: Connection, direction: Direction) {
        // The BR/EDR signalling channel may carry several commands in one frame; LE carries one.
        repeat {
            let packet: SignalingPacket
            do {
                packet = try SignalingPacket(parsing: &r)
            } catch {
                diagnose("l2cap", "l2cap.malformed_signal", error, connection: c.id)
                return
            }
            var parameters = packet.data
            var command = SignalCommand.other
            do {
                command = try SignalCommand(code: packet.code, parsing: &parameters)
            } catch {
                diagnose("l2cap", "l2cap.malformed_signal", error, connection: c.id)
            }
            push(
                .signal(
                    SignalEvent(
                        connection: c.id, direction: direction, code: packet.code, identifier: packet.identifier,
                        data: [UInt8](packet.data.unread), command: command)))
            apply(command, identifier: packet.identifier, connection: c, direction: direction)
        } while !r.isAtEnd
    }

    private func apply(_ command: SignalCommand, identifier: UInt8, connection c: Connection, direction: Direction) {
        // The frames whose receiver sent this command.
        let toSender: Direction = direction == .sent ? .received : .sent
        switch command {
        case .connectionRequest(let psm, let source):
            awaitResponse(
                c,
                ChannelRequest(
                    identifier: identifier, direction: direction, psm: psm, mode: .basic, sourceCIDs: [source], mtu: 672,
                    mps: 0, credits: 0, frame: frame))
        case .connectionResponse(let destination, let source, let result, _):
            // Pending (1) keeps the request waiting for the final response.
            guard result != 1, let request = takeChannelRequest(c, identifier: identifier, response: direction) else { return }
            guard result == 0, request.sourceCIDs.first == source else { return }
            open(c, request, responderCID: destination, mtu: 672, mps: 0, credits: 0)
        case .leCreditConnectionRequest(let psm, let source, let mtu, let mps, let credits):
            awaitResponse(
                c,
                ChannelRequest(
                    identifier: identifier, direction: direction, psm: psm, mode: .credit, sourceCIDs: [source], mtu: mtu,
                    mps: mps, credits: credits, frame: frame))
        case .leCreditConnectionResponse(let destination, let mtu, let mps, let credits, let result):
            guard let request = takeChannelRequest(c, identifier: identifier, response: direction), result == 0 else { return }
            open(c, request, responderCID: destination, mtu: mtu, mps: mps, credits: credits)
        case .creditConnectionRequest(let psm, let mtu, let mps, let credits, let sources):
            awaitResponse(
                c,
                ChannelRequest(
                    identifier: identifier, direction: direction, psm: psm, mode: .credit, sourceCIDs: sources, mtu: mtu,
                    mps: mps, credits: credits, frame: frame))
        case .creditConnectionResponse(let mtu, let mps, let credits, _, let destinations):
            guard var request = takeChannelRequest(c, identifier: identifier, response: direction) else { return }
            // Each non-zero destination CID accepts the source CID in its position (§4.26).
            let sources = request.sourceCIDs
            for (index, destination) in destinations.enumerated() where destination != 0 && index < sources.count {
                request.sourceCIDs = [sources[index]]
                open(c, request, responderCID: destination, mtu: mtu, mps: mps, credits: credits)
            }
        case .configureRequest(let destination, _, let mtu, let mode):
            guard let channel = c.channel(cid: destination, direction: direction) else { return }
            if let mode, mode != 0, channel.mode == .basic {
                // Retransmission and streaming modes add control fields this tracker does not
                // follow: the frames are shown as they are, and ATT on them is said to be lost.
                channel.mode = .retransmission
                if channel.bearer != nil {
                    diagnose(
                        "l2cap", "l2cap.not_basic_mode",
                        "ATT channel 0x\(hex4(channel.hostCID)) is configured for mode \(mode): its frames are shown undecoded",
                        connection: c.id)
                }
            }
            if let mtu {
                channel.mtu[Connection.directionIndex(toSender)] = mtu
                updateBearerMTU(c, channel)
            }
        case .flowControlCredit(let cid, let credits):
            guard let channel = c.channel(cid: cid, direction: toSender) else { return }
            let index = Connection.directionIndex(toSender)
            channel.credits[index] += Int(credits)
            channel.reportedNoCredits[index] = false
            if channel.credits[index] > 65535 {
                // §4.24: a credit count past 65535 is an error; the channel should be disconnected.
                diagnose(
                    "l2cap", "l2cap.credit_overflow",
                    "channel 0x\(hex4(cid)) was given credits past 65535 (\(channel.credits[index]))", connection: c.id)
                channel.credits[index] = 65535
            }
        case .creditReconfigureRequest(let mtu, let mps, let cids):
            for cid in cids {
                guard let channel = c.channel(cid: cid, direction: toSender) else { continue }
                let index = Connection.directionIndex(toSender)
                channel.mtu[index] = mtu
                channel.mps[index] = mps
                updateBearerMTU(c, channel)
            }
        case .disconnectionResponse(let destination, _):
            // The response comes from the end whose CID is `destination`.
            guard let channel = c.channel(cid: destination, direction: toSender) else { return }
            closeChannel(c, channel)
        case .configureResponse, .disconnectionRequest, .creditReconfigureResponse, .other:
            break
        }
    }

    private func awaitResponse(_ c: Connection, _ request: ChannelRequest) {
        c.channelRequests.removeAll { $0.identifier == request.identifier && $0.direction == request.direction }
        if c.channelRequests.count >= Connection.maximumChannelRequests {
            let oldest = c.channelRequests.removeFirst()
            diagnose(
                "l2cap", "l2cap.request_without_response",
                "the channel request in frame \(oldest.frame) (PSM 0x\(hex4(oldest.psm))) got no response", connection: c.id)
        }
        c.channelRequests.append(request)
    }

    /// The request a connection response answers: same identifier, the other direction.
    private func takeChannelRequest(_ c: Connection, identifier: UInt8, response: Direction) -> ChannelRequest? {
        guard let index = c.channelRequests.firstIndex(where: { $0.identifier == identifier && $0.direction != response })
        else {
            diagnose(
                "l2cap", "l2cap.response_without_request",
                "a channel connection response (identifier \(identifier)) answers no request seen in this capture",
                connection: c.id)
            return nil
        }
        return c.channelRequests.remove(at: index)
    }

    /// Opens the channel a response accepted: the requester's values apply to the frames it
    /// receives, the responder's to the others.
    private func open(
        _ c: Connection, _ request: ChannelRequest, responderCID: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16
    ) {
        guard let requesterCID = request.sourceCIDs.first else { return }
        let hostRequested = request.direction == .sent
        let channel = DynamicChannel(
            psm: request.psm, mode: request.mode, hostCID: hostRequested ? requesterCID : responderCID,
            peerCID: hostRequested ? responderCID : requesterCID, frame: frame)
        let toRequester = Connection.directionIndex(hostRequested ? .received : .sent)
        let toResponder = 1 - toRequester
        channel.mtu[toRequester] = request.mtu
        channel.mps[toRequester] = request.mps
        channel.credits[toRequester] = Int(request.credits)
        channel.mtu[toResponder] = mtu
        channel.mps[toResponder] = mps
        channel.credits[toResponder] = Int(credits)
        // A CID reused without a disconnection: the new channel replaces the old one.
        if let stale = c.channels.firstIndex(where: { $0.hostCID == channel.hostCID || $0.peerCID == channel.peerCID }) {
            closeChannel(c, c.channels[stale])
        }
        guard c.channels.count < Connection.maximumChannels else {
            diagnose(
                "l2cap", "l2cap.too_many_channels",
                "more than \(Connection.maximumChannels) channels at once: channel 0x\(hex4(channel.hostCID)) is not followed",
                connection: c.id)
            return
        }
        switch (request.psm, request.mode) {
        case (L2CAPPSM.att, .basic): channel.bearer = ATTBearer(channel: channel.hostCID, kind: .bredr, mtu: channel.attMTU)
        case (L2CAPPSM.eatt, .credit): channel.bearer = ATTBearer(channel: channel.hostCID, kind: .eatt, mtu: channel.attMTU)
        default: break
        }
        c.channels.append(channel)
        if let bearer = channel.bearer {
            push(.mtu(MTUChange(connection: c.id, mtu: bearer.mtu, channel: bearer.channel, bearer: bearer.kind)))
        }
    }

    /// A configuration or reconfiguration changed a channel's MTU: its bearer's ATT_MTU follows.
    private func updateBearerMTU(_ c: Connection, _ channel: DynamicChannel) {
        guard let bearer = channel.bearer, bearer.mtu != channel.attMTU else { return }
        bearer.mtu = channel.attMTU
        push(.mtu(MTUChange(connection: c.id, mtu: bearer.mtu, channel: bearer.channel, bearer: bearer.kind)))
    }

    /// Closes a channel (Disconnection Response, or the ACL link going down): held reads are
    /// decided, and an SDU left half-collected is reported.
    func closeChannel(_ c: Connection, _ channel: DynamicChannel) {
        if let bearer = channel.bearer { releaseHolds(bearer) }
        for index in 0..<2 where channel.sdu[index].expected != nil {
            let sdu = channel.sdu[index]
            diagnose(
                "l2cap", "l2cap.incomplete_sdu",
                "an SDU of \(sdu.expected ?? 0) bytes on channel 0x\(hex4(channel.cid(index == 1 ? .received : .sent))) started in frame \(sdu.startFrame) had \(sdu.buffer.count) bytes when the channel closed",
                connection: c.id)
        }
        c.channels.removeAll { $0 === channel }
    }
}
