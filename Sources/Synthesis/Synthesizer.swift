import BluetoothPackets
import CaptureFiles
import CaptureModel

/// Turns a scenario into the HCI traffic an Android phone would log: its start-up, the devices'
/// advertising reports, and its connections to them. Deterministic: the same scenario and seed
/// give the same records, byte for byte.
public struct Synthesizer {
    public let scenario: Scenario
    let reader: ScenarioReader

    public init(_ scenario: Scenario) {
        self.scenario = scenario
        reader = ScenarioReader(file: scenario.name, lines: [:])
    }

    /// Calls `body` with every record in time order; stops after `limit` records when given.
    /// Returns the number of records.
    @discardableResult
    public func run(limit: Int? = nil, _ body: (StoredRecord) throws -> Void) throws -> Int {
        let random = SeededRandom(seed: scenario.seed)
        var streams: [any RecordStream] = [PreambleStream(start: scenario.start, controller: scenario.controller)]
        var connections: [(device: DeviceSpec, spec: ConnectionSpec)] = []
        for device in scenario.devices {
            for connection in device.connections { connections.append((device, connection)) }
        }
        connections.sort { $0.spec.at < $1.spec.at }
        for (index, entry) in connections.enumerated() {
            streams.append(
                ConnectionStream(
                    device: entry.device, spec: entry.spec, handle: UInt16(0x0040 + index), scenario: scenario,
                    reader: reader, random: random.derived("\(entry.spec.path)")))
        }
        for device in scenario.devices {
            guard let advertising = device.advertising else { continue }
            let pauses = device.connections.map { c in
                (scenario.start + c.at)...(scenario.start + c.at + c.duration)
            }
            streams.append(
                AdvertisingStream(
                    device: device, spec: advertising, scenario: scenario, pauses: pauses, reader: reader,
                    random: random.derived(advertising.path)))
        }
        // Streams wait in a heap by the time of their next record; ties go to the earlier stream.
        var queue = TimeHeap<Int>()
        // Asking for the next time may find that a stream cannot go on: check failure after it.
        for (index, stream) in streams.enumerated() {
            let time = stream.nextTime
            if let failure = stream.failure { throw failure }
            if let time { queue.push(time: time, order: index, index) }
        }
        var count = 0
        while limit.map({ count < $0 }) ?? true, let index = queue.pop() {
            let stream = streams[index]
            if var record = try stream.next() {
                count += 1
                record.frame = count
                try body(record)
            }
            let time = stream.nextTime
            if let failure = stream.failure { throw failure }
            if let time { queue.push(time: time, order: index, index) }
        }
        return count
    }

    /// Writes the scenario to a capture.
    @discardableResult
    public func write(to writer: CaptureWriter, limit: Int? = nil) throws -> Int {
        try run(limit: limit) { try writer.write($0) }
    }
}
