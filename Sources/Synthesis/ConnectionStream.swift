import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel

/// One connection from the phone to a device, as its HCI log shows it: connection set-up, MTU
/// exchange, full discovery, subscriptions, the scenario's actions, and disconnection. ACL is
/// fragmented at the controller's buffer size and every packet sent is followed by a Number of
/// Completed Packets event. ATT goes over the connection's bearers (ConnectionStream+L2CAP.swift):
/// the LE fixed channel, a BR/EDR channel, or EATT channels for the actions.
final class ConnectionStream: RecordStream {
    let device: DeviceSpec
    let spec: ConnectionSpec
    let handle: UInt16
    private let table: GATTTable
    let aclBuffer: Int
    private let reader: ScenarioReader
    private let scenarioStart: Int64
    let start: Int64
    private let end: Int64
    private var random: SeededRandom
    var mtu = 23
    /// Where ATT goes: [0] carries the set-up (the LE fixed channel or the BR/EDR channel); EATT
    /// channels follow it.
    var bearers = [SynthBearer(deviceCID: 0x0004, phoneCID: 0x0004)]
    var nextSignalIdentifier: UInt8 = 1
    /// When the link is free for the next frame, from the phone [0] and from the device [1].
    var linkFree: [Int64] = [0, 0]
    var heap = RecordHeap()
    /// Each action with the index of its next repetition and the bearer it goes over.
    private var actions: [(spec: ActionSpec, index: Int, bearer: Int)]
    private var disconnected = false
    private var pendingError: ScenarioError?

    /// When the set-up bearer is free for the next request.
    var busyUntil: Int64 {
        get { bearers[0].busyUntil }
        set { bearers[0].busyUntil = newValue }
    }

    init(
        device: DeviceSpec, spec: ConnectionSpec, handle: UInt16, scenario: Scenario, reader: ScenarioReader,
        random: SeededRandom
    ) {
        self.device = device
        self.spec = spec
        self.handle = handle
        self.reader = reader
        self.random = random
        table = GATTTable(deviceName: device.name, services: device.services)
        aclBuffer = scenario.controller.aclBuffer
        scenarioStart = scenario.start
        start = scenario.start + spec.at
        end = min(start + spec.duration, scenario.start + scenario.duration)
        var eattChannels = 0
        if case .eatt(let channels) = spec.bearer { eattChannels = channels }
        // With EATT, the actions take turns over its channels.
        actions = spec.actions.enumerated().map { ($1, 0, eattChannels == 0 ? 0 : 1 + $0 % eattChannels) }
        setUp(enhanced: scenario.controller.enhancedConnectionComplete)
    }

    var nextTime: Int64? {
        advance()
        return heap.minimumTime
    }

    var failure: ScenarioError? { pendingError }

    func next() throws(ScenarioError) -> StoredRecord? {
        advance()
        if let error = pendingError { throw error }
        return heap.pop()
    }

    // MARK: Scheduling

    private func desiredTime(_ action: ActionSpec, _ index: Int) -> Int64? {
        if let count = action.count, index >= count { return nil }
        let time = start + action.start + Int64(index) * (action.every ?? 0)
        return time < end ? time : nil
    }

    /// Generates every action due before the earliest queued record, so records leave in time order.
    private func advance() {
        while pendingError == nil {
            let due = actions.indices.compactMap { i in desiredTime(actions[i].spec, actions[i].index).map { (i, $0) } }
                .min { $0.1 < $1.1 }
            if let (i, time) = due {
                if let queued = heap.minimumTime, queued < time { return }
                let index = actions[i].index
                actions[i].index += 1
                let bearer = actions[i].bearer
                do {
                    try perform(actions[i].spec, index: index, at: max(time, bearers[bearer].busyUntil), on: bearer)
                } catch {
                    pendingError = error
                }
            } else {
                if !disconnected {
                    disconnected = true
                    disconnect()
                }
                return
            }
        }
    }

    // MARK: Requests

    /// A request from the phone and the device's answer one connection interval later.
    private func transaction(_ request: [UInt8], _ response: [UInt8], at time: Int64, on bearer: Int = 0) -> Int64 {
        let t = max(time, bearers[bearer].busyUntil)
        // Frames wait for the link when another bearer's are on it: the answer comes after the
        // request, and the next request after the answer.
        send(request, at: t, on: bearer)
        let answered = receive(response, at: max(t + spec.interval, linkFree[0] + 150), on: bearer)
        bearers[bearer].busyUntil = max(answered + 600, linkFree[1] + 150)
        return bearers[bearer].busyUntil
    }

    func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private func attributeNotFound(_ opcode: UInt8, _ handle: UInt16) -> [UInt8] {
        [ATTOpcode.errorResponse, opcode] + u16(handle) + [0x0A]
    }

    // MARK: Set-up and tear-down

    private func setUp(enhanced: Bool) {
        let connected = start + 40_000
        if spec.bearer == .bredr {
            heap.push(HCIRecords.createClassicConnection(peer: device.address, at: start))
            heap.push(HCIRecords.commandStatus(0x0405, at: start + 900))
            heap.push(HCIRecords.classicConnectionComplete(handle: handle, peer: device.address, at: connected))
            busyUntil = connected + spec.interval
            // ATT_MTU on BR/EDR is the channel's: no Exchange MTU (Vol 3, Part F, §3.4.2).
            openClassicATTChannel()
        } else {
            heap.push(
                HCIRecords.createConnection(peerType: device.addressType, peer: device.address, interval: spec.interval, at: start))
            heap.push(HCIRecords.commandStatus(0x200D, at: start + 900))
            heap.push(
                HCIRecords.connectionComplete(
                    enhanced: enhanced, handle: handle, peerType: device.addressType, peer: device.address,
                    interval: spec.interval, at: connected))
            busyUntil = connected + spec.interval
            _ = transaction(
                [ATTOpcode.exchangeMTURequest] + u16(517), [ATTOpcode.exchangeMTUResponse] + u16(UInt16(spec.deviceMTU)),
                at: busyUntil)
        }
        mtu = min(517, spec.deviceMTU)
        if spec.discover { discover() }
        for uuid in spec.subscribe { subscribe(uuid, at: busyUntil) }
        if case .eatt(let channels) = spec.bearer { openEATTChannels(channels) }
    }

    /// Writes 01 00 (notifications) or 02 00 (indications) to the characteristic's CCCD.
    private func subscribe(_ uuid: BluetoothUUID, at time: Int64, on bearer: Int = 0) {
        guard let characteristic = table.characteristic(uuid), let cccd = characteristic.cccd else { return }
        let value: [UInt8] = characteristic.notifies ? [0x01, 0x00] : [0x02, 0x00]
        _ = transaction([ATTOpcode.writeRequest] + u16(cccd) + value, [ATTOpcode.writeResponse], at: time, on: bearer)
    }

    /// Primary services, then each service's characteristics, then each characteristic's descriptors.
    private func discover() {
        var from: UInt16 = 1
        while true {
            let request = [ATTOpcode.readByGroupTypeRequest] + u16(from) + u16(0xFFFF) + u16(0x2800)
            guard let (pdu, last) = table.readByGroupType(from: from, mtu: mtu) else {
                _ = transaction(request, attributeNotFound(ATTOpcode.readByGroupTypeRequest, from), at: busyUntil)
                break
            }
            _ = transaction(request, pdu, at: busyUntil)
            if last == 0xFFFF { break }
            from = last + 1
        }
        for service in table.services {
            var from = service.start
            while from <= service.end {
                let request = [ATTOpcode.readByTypeRequest] + u16(from) + u16(service.end) + u16(0x2803)
                guard let (pdu, last) = table.characteristicDeclarations(from: from, to: service.end, mtu: mtu) else {
                    _ = transaction(request, attributeNotFound(ATTOpcode.readByTypeRequest, from), at: busyUntil)
                    break
                }
                _ = transaction(request, pdu, at: busyUntil)
                from = last + 1
            }
        }
        for service in table.services {
            let characteristics = table.characteristics.filter {
                $0.declaration >= service.start && $0.declaration <= service.end
            }
            for (i, c) in characteristics.enumerated() where !c.descriptors.isEmpty {
                let last = i + 1 < characteristics.count ? characteristics[i + 1].declaration - 1 : service.end
                var from = c.valueHandle + 1
                while from <= last {
                    let request = [ATTOpcode.findInformationRequest] + u16(from) + u16(last)
                    guard let (pdu, found) = table.findInformation(from: from, to: last, mtu: mtu) else {
                        _ = transaction(request, attributeNotFound(ATTOpcode.findInformationRequest, from), at: busyUntil)
                        break
                    }
                    _ = transaction(request, pdu, at: busyUntil)
                    from = found + 1
                }
            }
        }
    }

    private func disconnect() {
        var t = max(end, bearers.map(\.busyUntil).max() ?? busyUntil)
        if bearers.count > 1 || spec.bearer == .bredr { t = closeChannels(at: t) }
        if spec.localDisconnect {
            heap.push(HCIRecords.command(0x0406, u16(handle) + [spec.reason], at: t))
            heap.push(HCIRecords.commandStatus(0x0406, at: t + 800))
            heap.push(HCIRecords.disconnectionComplete(handle: handle, reason: 0x16, at: t + spec.interval))
        } else {
            heap.push(HCIRecords.disconnectionComplete(handle: handle, reason: spec.reason, at: t))
        }
    }

    // MARK: Actions

    private func perform(_ action: ActionSpec, index: Int, at time: Int64, on bearer: Int) throws(ScenarioError) {
        guard let characteristic = table.characteristic(action.uuid) else { return }
        if case .subscribe = action.kind {
            subscribe(action.uuid, at: time, on: bearer)
            return
        }
        let h = characteristic.valueHandle
        let progress = Double(time - start) / Double(max(end - start, 1))
        let seconds = Double(time - scenarioStart) / 1_000_000
        let value =
            try action.payload?.bytes(
                index: index, progress: progress, seconds: seconds, random: &random, reader, device: device.address)
            ?? characteristic.value
        switch action.kind {
        case .notify, .indicate:
            guard value.count <= mtu - 3 else {
                throw reader.error(
                    action.path, "a \(value.count)-byte value does not fit a notification at MTU \(mtu) (at most \(mtu - 3))")
            }
            if case .notify = action.kind {
                receive([ATTOpcode.handleValueNotification] + u16(h) + value, at: time, on: bearer)
            } else {
                receive([ATTOpcode.handleValueIndication] + u16(h) + value, at: time, on: bearer)
                send([ATTOpcode.handleValueConfirmation], at: time + 1_500, on: bearer)
            }
        case .write(let withResponse):
            if value.count <= mtu - 3 {
                if withResponse {
                    _ = transaction([ATTOpcode.writeRequest] + u16(h) + value, [ATTOpcode.writeResponse], at: time, on: bearer)
                } else {
                    send([ATTOpcode.writeCommand] + u16(h) + value, at: time, on: bearer)
                }
            } else {
                guard withResponse else {
                    throw reader.error(
                        action.path, "a \(value.count)-byte write command does not fit MTU \(mtu) (at most \(mtu - 3))")
                }
                // A long write: Prepare Write Requests of MTU − 5 bytes each, then Execute Write.
                var offset = 0
                var t = time
                while offset < value.count {
                    let part = Array(value[offset..<min(offset + mtu - 5, value.count)])
                    let pdu = u16(h) + u16(UInt16(offset)) + part
                    t = transaction([ATTOpcode.prepareWriteRequest] + pdu, [ATTOpcode.prepareWriteResponse] + pdu, at: t, on: bearer)
                    offset += part.count
                }
                _ = transaction([ATTOpcode.executeWriteRequest, 0x01], [ATTOpcode.executeWriteResponse], at: t, on: bearer)
            }
        case .read:
            // The first Read Response holds MTU − 1 bytes; Read Blob fetches the rest while parts come full.
            var part = Array(value.prefix(mtu - 1))
            var t = transaction([ATTOpcode.readRequest] + u16(h), [ATTOpcode.readResponse] + part, at: time, on: bearer)
            var offset = part.count
            while part.count == mtu - 1 {
                part = Array(value[offset..<min(offset + mtu - 1, value.count)])
                t = transaction(
                    [ATTOpcode.readBlobRequest] + u16(h) + u16(UInt16(offset)), [ATTOpcode.readBlobResponse] + part, at: t, on: bearer)
                offset += part.count
            }
        case .subscribe:
            break
        }
    }
}
