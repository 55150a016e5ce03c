import BluetoothPackets
import ByteReading
import CaptureFiles
import CaptureModel

/// A source of records in time order; the synthesizer merges several.
protocol RecordStream: AnyObject {
    /// Time of the next record, or nil when the stream is done.
    var nextTime: Int64? { get }
    func next() throws(ScenarioError) -> StoredRecord?
    /// Why the stream stopped early: a packet the scenario describes cannot be made.
    var failure: ScenarioError? { get }
}

/// A min-heap ordered by time, then by `order` (so ties come out in a fixed order).
struct TimeHeap<Value> {
    private var items: [(time: Int64, order: Int, value: Value)] = []

    var isEmpty: Bool { items.isEmpty }
    var minimumTime: Int64? { items.first?.time }

    mutating func push(time: Int64, order: Int, _ value: Value) {
        items.append((time, order, value))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(i, parent) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Value? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let left = 2 * i + 1
            let right = left + 1
            var smallest = i
            if left < items.count, less(left, smallest) { smallest = left }
            if right < items.count, less(right, smallest) { smallest = right }
            if smallest == i { break }
            items.swapAt(i, smallest)
            i = smallest
        }
        return top.value
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        (items[a].time, items[a].order) < (items[b].time, items[b].order)
    }
}

/// Records waiting to be released in time order (ties keep the order they were added in).
struct RecordHeap {
    private var heap = TimeHeap<StoredRecord>()
    private var counter = 0

    var isEmpty: Bool { heap.isEmpty }
    var minimumTime: Int64? { heap.minimumTime }

    mutating func push(_ record: StoredRecord) {
        heap.push(time: record.timestamp, order: counter, record)
        counter += 1
    }

    mutating func pop() -> StoredRecord? { heap.pop() }
}

/// The host's start-up: reset, own address, buffer sizes, scanning on.
final class PreambleStream: RecordStream {
    private var records: [StoredRecord]

    init(start: Int64, controller: ControllerSpec) {
        var t = start
        func step(_ micros: Int64) -> Int64 {
            t += micros
            return t
        }
        var list: [StoredRecord] = []
        list.append(HCIRecords.command(0x0C03, [], at: t))
        list.append(HCIRecords.commandComplete(0x0C03, at: step(4_000)))
        list.append(HCIRecords.command(0x1009, [], at: step(300)))
        list.append(HCIRecords.commandComplete(0x1009, [0x00] + controller.address.wireBytes, at: step(500)))
        list.append(HCIRecords.command(0x2002, [], at: step(300)))
        list.append(
            HCIRecords.commandComplete(
                0x2002, [0x00, UInt8(controller.aclBuffer & 0xFF), UInt8(controller.aclBuffer >> 8), 0x0F], at: step(500)))
        if controller.extendedReports {
            // LE Set Extended Scan Parameters: public address, no filter, LE 1M; active, 60 ms / 30 ms.
            list.append(HCIRecords.command(0x2041, [0x00, 0x00, 0x01, 0x01, 0x60, 0x00, 0x30, 0x00], at: step(300)))
            list.append(HCIRecords.commandComplete(0x2041, at: step(500)))
            list.append(HCIRecords.command(0x2042, [0x01, 0x00, 0x00, 0x00, 0x00, 0x00], at: step(300)))
            list.append(HCIRecords.commandComplete(0x2042, at: step(500)))
        } else {
            list.append(HCIRecords.command(0x200B, [0x01, 0x60, 0x00, 0x30, 0x00, 0x00, 0x00], at: step(300)))
            list.append(HCIRecords.commandComplete(0x200B, at: step(500)))
            list.append(HCIRecords.command(0x200C, [0x01, 0x00], at: step(300)))
            list.append(HCIRecords.commandComplete(0x200C, at: step(500)))
        }
        records = list.reversed()
    }

    var nextTime: Int64? { records.last?.timestamp }
    func next() -> StoredRecord? { records.popLast() }
    var failure: ScenarioError? { nil }
}

/// A device's advertising as the phone's controller reports it.
final class AdvertisingStream: RecordStream {
    private let device: DeviceSpec
    private let spec: AdvertisingSpec
    private let start: Int64
    private let end: Int64
    private let extendedReports: Bool
    private let pauses: [ClosedRange<Int64>]
    private let reader: ScenarioReader
    private var random: SeededRandom
    private var eventIndex = 0
    private var queue = RecordHeap()
    private var payloadCache: (index: Int, data: [UInt8], response: [UInt8]?)?

    init(
        device: DeviceSpec, spec: AdvertisingSpec, scenario: Scenario, pauses: [ClosedRange<Int64>],
        reader: ScenarioReader, random: SeededRandom
    ) {
        self.device = device
        self.spec = spec
        start = scenario.start
        end = scenario.start + min(spec.end ?? scenario.duration, scenario.duration)
        extendedReports = scenario.controller.extendedReports
        self.pauses = pauses
        self.reader = reader
        self.random = random
        fill()
    }

    var nextTime: Int64? { queue.minimumTime }

    func next() throws(ScenarioError) -> StoredRecord? {
        if let error = pendingError { throw error }
        let record = queue.pop()
        if queue.isEmpty { fill() }
        return record
    }

    private var pendingError: ScenarioError?
    var failure: ScenarioError? { pendingError }

    /// Queues the records of the next advertising event that is not paused.
    private func fill() {
        while queue.isEmpty {
            let time: Int64
            if let times = spec.times {
                guard eventIndex < times.count else { return }
                time = start + times[eventIndex]
            } else {
                let jitter = spec.jitter > 0 ? Int64(random.unit() * Double(spec.jitter)) : 0
                time = start + spec.start + Int64(eventIndex) * spec.interval + jitter
            }
            guard time <= end else { return }
            let index = eventIndex
            eventIndex += 1
            if spec.pauseWhenConnected, pauses.contains(where: { $0.contains(time) }) { continue }
            do {
                try emit(index: index, at: time)
            } catch {
                pendingError = error
                return
            }
        }
    }

    private func emit(index: Int, at time: Int64) throws(ScenarioError) {
        let payloadIndex = index / spec.repeatCount
        let seconds = Double(time - start) / 1_000_000
        let progress = Double(time - start) / Double(max(end - start, 1))
        if payloadCache?.index != payloadIndex {
            let data = try Self.encode(
                spec.data, index: payloadIndex, progress: progress, seconds: seconds, &random, reader,
                device: device.address)
            let response = try spec.scanResponse.map { entries throws(ScenarioError) in
                try Self.encode(
                    entries, index: payloadIndex, progress: progress, seconds: seconds, &random, reader,
                    device: device.address)
            }
            let legacy = spec.pdu <= 3
            if legacy, data.count > 31 {
                throw reader.error("\(spec.path).data", "advertising data of \(data.count) bytes does not fit a legacy advertisement (31)")
            }
            if let response, response.count > 31 {
                throw reader.error("\(spec.path).scan_response", "scan response of \(response.count) bytes does not fit (31)")
            }
            payloadCache = (payloadIndex, data, response)
        }
        guard let cache = payloadCache else { return }
        let rssiValue = spec.rssi.value(index: index, progress: progress, seconds: seconds, random: &random)
        let rssi: Int8
        switch rssiValue {
        case .int(let v): rssi = Int8(clamping: v)
        case .double(let v): rssi = Int8(clamping: ValueSeries.clampedInteger(v.rounded()))
        default: rssi = -60
        }
        queue.push(report(eventType: spec.pdu, data: cache.data, rssi: rssi, at: time))
        if let response = cache.response {
            queue.push(report(eventType: 4, data: response, rssi: rssi, at: time + 700, responseTo: spec.pdu))
        }
    }

    private func report(eventType: UInt8, data: [UInt8], rssi: Int8, at time: Int64, responseTo: UInt8 = 0) -> StoredRecord {
        guard extendedReports else {
            return HCIRecords.legacyReport(
                eventType: eventType, addressType: device.addressType, address: device.address, data: data, rssi: rssi,
                at: time)
        }
        // Legacy PDUs reported through LE Extended Advertising Reports (Vol 4, Part E, §7.7.65.13).
        let legacyBits: [UInt8: UInt16] = [0: 0x13, 1: 0x15, 2: 0x12, 3: 0x10]
        let type: UInt16 = eventType == 4 ? (responseTo == 0 ? 0x1B : 0x1A) : (legacyBits[eventType] ?? 0x10)
        return HCIRecords.extendedReport(
            eventType: type, addressType: device.addressType, address: device.address, data: data[...], rssi: rssi,
            at: time)
    }

    static func encode(
        _ entries: [ADEntrySpec], index: Int, progress: Double, seconds: Double, _ random: inout SeededRandom,
        _ reader: ScenarioReader, device: BluetoothAddress
    ) throws(ScenarioError) -> [UInt8] {
        var w = ByteWriter(capacity: 31)
        for entry in entries {
            var type: UInt8
            var data: [UInt8]
            switch entry.kind {
            case .fixed(let t, let d):
                type = t
                data = d
            case .manufacturer(let company, let payload):
                type = 0xFF
                data = [UInt8(company & 0xFF), UInt8(company >> 8)]
                data += try payload.bytes(
                    index: index, progress: progress, seconds: seconds, random: &random, reader, device: device)
            case .serviceData(let uuid, let payload):
                let size = uuid.shortValue.map { $0 <= 0xFFFF ? 2 : 4 } ?? 16
                type = size == 2 ? 0x16 : (size == 4 ? 0x20 : 0x21)
                data = uuid.wireBytes(size: size)
                data += try payload.bytes(
                    index: index, progress: progress, seconds: seconds, random: &random, reader, device: device)
            }
            guard data.count < 255 else { throw reader.error("$", "an AD structure is longer than 254 bytes") }
            w.u8(UInt8(data.count + 1))
            w.u8(type)
            w.append(data)
        }
        return w.bytes
    }
}
