import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel

/// One connection from the phone to a device, as its HCI log shows it: connection set-up, MTU
/// exchange, full discovery, subscriptions, the scenario's actions, and disconnection. ACL is
/// fragmented at the controller's buffer size and every packet sent is followed by a Number of
/// Completed Packets event.
final class ConnectionStream: RecordStream {
    private let device: DeviceSpec
    private let spec: ConnectionSpec
    private let handle: UInt16
    private let table: GATTTable
    private let aclBuffer: Int
    private let reader: ScenarioReader
    private let scenarioStart: Int64
    private let start: Int64
    private let end: Int64
    private var random: SeededRandom
    private var mtu = 23
    private var busyUntil: Int64 = 0
    private var heap = RecordHeap()
    private var actions: [(spec: ActionSpec, index: Int)]
    private var disconnected = false
    private var pendingError: ScenarioError?

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
        actions = spec.actions.map { ($0, 0) }
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
                do {
                    try perform(actions[i].spec, index: index, at: max(time, busyUntil))
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

    // MARK: ACL

    private func l2cap(_ pdu: [UInt8]) -> [UInt8] {
        [UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8), 0x04, 0x00] + pdu
    }

    /// Host to controller: fragments, then one Number of Completed Packets per fragment.
    private func send(_ pdu: [UInt8], at time: Int64) {
        let frame = l2cap(pdu)
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
    }

    /// Controller to host, fragmented the same way.
    private func receive(_ pdu: [UInt8], at time: Int64) {
        let frame = l2cap(pdu)
        var offset = 0
        var t = time
        while offset < frame.count {
            let size = min(aclBuffer, frame.count - offset)
            heap.push(HCIRecords.acl(handle: handle, first: offset == 0, sent: false, frame[offset..<offset + size], at: t))
            offset += size
            t += 120
        }
    }

    /// A request from the phone and the device's answer one connection interval later.
    private func transaction(_ request: [UInt8], _ response: [UInt8], at time: Int64) -> Int64 {
        let t = max(time, busyUntil)
        send(request, at: t)
        let answered = t + spec.interval
        receive(response, at: answered)
        busyUntil = answered + 600
        return busyUntil
    }

    private func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private func attributeNotFound(_ opcode: UInt8, _ handle: UInt16) -> [UInt8] {
        [ATTOpcode.errorResponse, opcode] + u16(handle) + [0x0A]
    }

    // MARK: Set-up and tear-down

    private func setUp(enhanced: Bool) {
        heap.push(HCIRecords.createConnection(peerType: device.addressType, peer: device.address, interval: spec.interval, at: start))
        heap.push(HCIRecords.commandStatus(0x200D, at: start + 900))
        let connected = start + 40_000
        heap.push(
            HCIRecords.connectionComplete(
                enhanced: enhanced, handle: handle, peerType: device.addressType, peer: device.address,
                interval: spec.interval, at: connected))
        busyUntil = connected + spec.interval
        _ = transaction([ATTOpcode.exchangeMTURequest] + u16(517), [ATTOpcode.exchangeMTUResponse] + u16(UInt16(spec.deviceMTU)), at: busyUntil)
        mtu = min(517, spec.deviceMTU)
        if spec.discover { discover() }
        for uuid in spec.subscribe { subscribe(uuid, at: busyUntil) }
    }

    /// Writes 01 00 (notifications) or 02 00 (indications) to the characteristic's CCCD.
    private func subscribe(_ uuid: BluetoothUUID, at time: Int64) {
        guard let characteristic = table.characteristic(uuid), let cccd = characteristic.cccd else { return }
        let value: [UInt8] = characteristic.notifies ? [0x01, 0x00] : [0x02, 0x00]
        _ = transaction([ATTOpcode.writeRequest] + u16(cccd) + value, [ATTOpcode.writeResponse], at: time)
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
        let t = max(end, busyUntil)
        if spec.localDisconnect {
            heap.push(HCIRecords.command(0x0406, u16(handle) + [spec.reason], at: t))
            heap.push(HCIRecords.commandStatus(0x0406, at: t + 800))
            heap.push(HCIRecords.disconnectionComplete(handle: handle, reason: 0x16, at: t + spec.interval))
        } else {
            heap.push(HCIRecords.disconnectionComplete(handle: handle, reason: spec.reason, at: t))
        }
    }

    // MARK: Actions

    private func perform(_ action: ActionSpec, index: Int, at time: Int64) throws(ScenarioError) {
        guard let characteristic = table.characteristic(action.uuid) else { return }
        if case .subscribe = action.kind {
            subscribe(action.uuid, at: time)
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
                receive([ATTOpcode.handleValueNotification] + u16(h) + value, at: time)
            } else {
                receive([ATTOpcode.handleValueIndication] + u16(h) + value, at: time)
                send([ATTOpcode.handleValueConfirmation], at: time + 1_500)
            }
        case .write(let withResponse):
            if value.count <= mtu - 3 {
                if withResponse {
                    _ = transaction([ATTOpcode.writeRequest] + u16(h) + value, [ATTOpcode.writeResponse], at: time)
                } else {
                    send([ATTOpcode.writeCommand] + u16(h) + value, at: time)
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
                    t = transaction([ATTOpcode.prepareWriteRequest] + pdu, [ATTOpcode.prepareWriteResponse] + pdu, at: t)
                    offset += part.count
                }
                _ = transaction([ATTOpcode.executeWriteRequest, 0x01], [ATTOpcode.executeWriteResponse], at: t)
            }
        case .read:
            // The first Read Response holds MTU − 1 bytes; Read Blob fetches the rest while parts come full.
            var part = Array(value.prefix(mtu - 1))
            var t = transaction([ATTOpcode.readRequest] + u16(h), [ATTOpcode.readResponse] + part, at: time)
            var offset = part.count
            while part.count == mtu - 1 {
                part = Array(value[offset..<min(offset + mtu - 1, value.count)])
                t = transaction(
                    [ATTOpcode.readBlobRequest] + u16(h) + u16(UInt16(offset)), [ATTOpcode.readBlobResponse] + part, at: t)
                offset += part.count
            }
        case .subscribe:
            break
        }
    }
}
