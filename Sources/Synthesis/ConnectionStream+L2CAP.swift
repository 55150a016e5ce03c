import BluetoothPackets
import CaptureFiles

/// One way ATT reaches the device: a fixed or basic-mode channel (one B-frame per PDU), or an
/// enhanced credit-based channel (each PDU an SDU in K-frames, sent against credits).
struct SynthBearer {
    /// The CID of frames to the device (its end), and of frames to the phone (the phone's end).
    var deviceCID: UInt16
    var phoneCID: UInt16
    var credit = false
    /// K-frames the phone, and the device, may still send.
    var phoneCredits = 0
    var deviceCredits = 0
    /// The largest K-frame payload either end takes (both ends ask for the scenario's MPS).
    var mps = 0
    var busyUntil: Int64 = 0
}

/// L2CAP on the connection: framing, ACL fragmentation, signalling, and the channels that carry
/// ATT on BR/EDR (PSM 0x001F) and EATT (PSM 0x0027).
extension ConnectionStream {
    static let phoneMTU: UInt16 = 517

    /// Host to controller, on `bearer`. Returns when the PDU started on the link: later than
    /// `time` when other frames were on it.
    @discardableResult
    func send(_ pdu: [UInt8], at time: Int64, on bearer: Int = 0) -> Int64 {
        guard bearers[bearer].credit else {
            let start = max(time, linkFree[0])
            sendFrame(frame(bearers[bearer].deviceCID, pdu), at: time)
            return start
        }
        var t = time
        var start: Int64?
        for segment in kFrames(pdu, mps: bearers[bearer].mps) {
            if bearers[bearer].phoneCredits == 0 {
                // Out of credits: the device gives as many as it gave at the start.
                // The phone sends on only once the credits have come.
                t = max(t + 200, receiveFrame(creditSignal(cid: bearers[bearer].deviceCID), at: t) + 80)
                bearers[bearer].phoneCredits = spec.credits
            }
            bearers[bearer].phoneCredits -= 1
            if start == nil { start = max(t, linkFree[0]) }
            t = sendFrame(frame(bearers[bearer].deviceCID, segment), at: t)
        }
        return start ?? time
    }

    /// Controller to host, on `bearer`; returns when the PDU started on the link.
    @discardableResult
    func receive(_ pdu: [UInt8], at time: Int64, on bearer: Int = 0) -> Int64 {
        guard bearers[bearer].credit else {
            let start = max(time, linkFree[1])
            receiveFrame(frame(bearers[bearer].phoneCID, pdu), at: time)
            return start
        }
        var t = time
        var start: Int64?
        for segment in kFrames(pdu, mps: bearers[bearer].mps) {
            if bearers[bearer].deviceCredits == 0 {
                t = max(t + 200, sendFrame(creditSignal(cid: bearers[bearer].phoneCID), at: t) + 80)
                bearers[bearer].deviceCredits = spec.credits
            }
            bearers[bearer].deviceCredits -= 1
            if start == nil { start = max(t, linkFree[1]) }
            t = receiveFrame(frame(bearers[bearer].phoneCID, segment), at: t)
        }
        return start ?? time
    }

    /// A basic L2CAP frame: length, channel, payload.
    func frame(_ cid: UInt16, _ payload: [UInt8]) -> [UInt8] {
        u16(UInt16(payload.count)) + u16(cid) + payload
    }

    /// An SDU as K-frame payloads of at most `mps` bytes, the first led by the SDU length (§3.4.3).
    func kFrames(_ sdu: [UInt8], mps: Int) -> [[UInt8]] {
        let bytes = u16(UInt16(sdu.count)) + sdu
        return stride(from: 0, to: bytes.count, by: mps).map { Array(bytes[$0..<min($0 + mps, bytes.count)]) }
    }

    /// Fragments a frame from the host, then one Number of Completed Packets for its fragments.
    /// Returns when the next frame may start.
    @discardableResult
    func sendFrame(_ frame: [UInt8], at time: Int64) -> Int64 {
        // One frame at a time in each direction: fragments of two frames never interleave.
        let time = max(time, linkFree[0])
        defer { linkFree[0] = time + 120 * Int64((frame.count + aclBuffer - 1) / aclBuffer) }
        var offset = 0
        var t = time
        var fragments = 0
        while offset < frame.count {
            let size = min(aclBuffer, frame.count - offset)
            heap.push(HCIRecords.acl(handle: handle, first: offset == 0, sent: true, frame[offset..<offset + size], at: t))
            offset += size
            t += 120
            fragments += 1
        }
        heap.push(
            HCIRecords.numberOfCompletedPackets(handle: handle, count: UInt16(fragments), at: time + spec.interval / 2 + 100))
        return t
    }

    /// Fragments a frame from the controller the same way.
    @discardableResult
    func receiveFrame(_ frame: [UInt8], at time: Int64) -> Int64 {
        let time = max(time, linkFree[1])
        defer { linkFree[1] = time + 120 * Int64((frame.count + aclBuffer - 1) / aclBuffer) }
        var offset = 0
        var t = time
        while offset < frame.count {
            let size = min(aclBuffer, frame.count - offset)
            heap.push(HCIRecords.acl(handle: handle, first: offset == 0, sent: false, frame[offset..<offset + size], at: t))
            offset += size
            t += 120
        }
        return t
    }

    // MARK: Signalling

    private var signalingCID: UInt16 { spec.bearer == .bredr ? L2CAPChannel.signaling : L2CAPChannel.leSignaling }

    private func signal(_ code: UInt8, identifier: UInt8, _ parameters: [UInt8]) -> [UInt8] {
        frame(signalingCID, [code, identifier] + u16(UInt16(parameters.count)) + parameters)
    }

    private func takeIdentifier() -> UInt8 {
        let identifier = nextSignalIdentifier
        nextSignalIdentifier = nextSignalIdentifier == 0xFF ? 1 : nextSignalIdentifier + 1
        return identifier
    }

    /// A Flow Control Credit Indication from the end whose CID is `cid`.
    private func creditSignal(cid: UInt16) -> [UInt8] {
        signal(SignalCode.flowControlCredit, identifier: takeIdentifier(), u16(cid) + u16(UInt16(spec.credits)))
    }

    /// A request from the phone and the device's response one connection interval later.
    private func signalExchange(_ request: [UInt8], _ response: [UInt8], at time: Int64) -> Int64 {
        sendFrame(request, at: time)
        receiveFrame(response, at: time + spec.interval)
        return time + spec.interval + 600
    }

    /// A request from the device and the phone's response.
    private func signalExchangeFromDevice(_ request: [UInt8], _ response: [UInt8], at time: Int64) -> Int64 {
        receiveFrame(request, at: time)
        sendFrame(response, at: time + 1_500)
        return time + 2_100
    }

    /// BR/EDR: Connection Request for PSM 0x001F, then each side configures its MTU.
    func openClassicATTChannel() {
        let phoneCID: UInt16 = 0x0040
        let deviceCID: UInt16 = 0x0041
        let connect = takeIdentifier()
        var t = signalExchange(
            signal(SignalCode.connectionRequest, identifier: connect, u16(L2CAPPSM.att) + u16(phoneCID)),
            signal(SignalCode.connectionResponse, identifier: connect, u16(deviceCID) + u16(phoneCID) + u16(0) + u16(0)),
            at: busyUntil)
        let phoneConfigure = takeIdentifier()
        t = signalExchange(
            signal(SignalCode.configureRequest, identifier: phoneConfigure, u16(deviceCID) + u16(0) + [0x01, 0x02] + u16(Self.phoneMTU)),
            signal(SignalCode.configureResponse, identifier: phoneConfigure, u16(phoneCID) + u16(0) + u16(0)), at: t)
        let deviceConfigure = takeIdentifier()
        t = signalExchangeFromDevice(
            signal(
                SignalCode.configureRequest, identifier: deviceConfigure,
                u16(phoneCID) + u16(0) + [0x01, 0x02] + u16(UInt16(spec.deviceMTU))),
            signal(SignalCode.configureResponse, identifier: deviceConfigure, u16(deviceCID) + u16(0) + u16(0)), at: t)
        bearers[0] = SynthBearer(deviceCID: deviceCID, phoneCID: phoneCID, busyUntil: t)
    }

    /// LE: one Credit Based Connection Request for `count` EATT channels, after the set-up.
    func openEATTChannels(_ count: Int) {
        let phoneCIDs = (0..<count).map { UInt16(0x0040 + $0) }
        let deviceCIDs = (0..<count).map { UInt16(0x0050 + $0) }
        let mps = UInt16(spec.mps)
        let credits = UInt16(spec.credits)
        var t = busyUntil
        if spec.leCreditRequests {
            for index in 0..<count {
                let identifier = takeIdentifier()
                t = signalExchange(
                    signal(
                        SignalCode.leCreditConnectionRequest, identifier: identifier,
                        u16(L2CAPPSM.eatt) + u16(phoneCIDs[index]) + u16(Self.phoneMTU) + u16(mps) + u16(credits)),
                    signal(
                        SignalCode.leCreditConnectionResponse, identifier: identifier,
                        u16(deviceCIDs[index]) + u16(UInt16(spec.deviceMTU)) + u16(mps) + u16(credits) + u16(0)),
                    at: t)
            }
        } else {
            let identifier = takeIdentifier()
            let request = signal(
                SignalCode.creditConnectionRequest, identifier: identifier,
                u16(L2CAPPSM.eatt) + u16(Self.phoneMTU) + u16(mps) + u16(credits) + phoneCIDs.flatMap(u16))
            let response = signal(
                SignalCode.creditConnectionResponse, identifier: identifier,
                u16(UInt16(spec.deviceMTU)) + u16(mps) + u16(credits) + u16(0) + deviceCIDs.flatMap(u16))
            t = signalExchange(request, response, at: t)
        }
        busyUntil = t
        for index in 0..<count {
            bearers.append(
                SynthBearer(
                    deviceCID: deviceCIDs[index], phoneCID: phoneCIDs[index], credit: true, phoneCredits: spec.credits,
                    deviceCredits: spec.credits, mps: spec.mps, busyUntil: t))
        }
    }

    /// Disconnection Request and Response for each channel the connection opened; returns when
    /// the link may go down.
    func closeChannels(at time: Int64) -> Int64 {
        var t = time
        for bearer in bearers where bearer.deviceCID != L2CAPChannel.attribute {
            let identifier = takeIdentifier()
            let cids = u16(bearer.deviceCID) + u16(bearer.phoneCID)
            t = signalExchange(
                signal(SignalCode.disconnectionRequest, identifier: identifier, cids),
                signal(SignalCode.disconnectionResponse, identifier: identifier, cids), at: t)
        }
        return t
    }
}
