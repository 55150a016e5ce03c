import BluetoothPackets

/// Follows the counter of each device's encrypted BTHome payloads, which the device must move
/// on for every new payload (bthome.io "Encryption": it is part of the nonce, and what stops a
/// recorded payload from being played back). A payload that breaks that is reported as a reading
/// of decoder `bthome.counter` at its frame, with what it broke:
///
/// - `decreased`: lower than the highest counter the device sent before (a replay of an older
///   payload, or a device that restarted its counter; bthome-ble drops such a payload);
/// - `replayed`: the same counter and contents again more than 4 s after they were first seen
///   (a device repeats one payload over a burst of advertisements, which takes a few seconds at
///   most, and then moves its counter on);
/// - `reused`: the same counter with different contents, which breaks AES-CCM's nonce rule.
final class BTHomeCounterCheck: DecoderFollowUp {
    static let decoderID = "bthome.counter"
    /// µs after which the same payload again is a replay, not a repeat.
    static let repeatWindow: Int64 = 4_000_000
    /// Devices followed at once; a capture of many rotating random addresses stays in bounds.
    static let maximumDevices = 65_536

    var ids: [String] { [Self.decoderID] }
    /// Only encrypted payloads have a counter.
    var observesOnly: (name: String, value: FieldValue)? { ("encrypted", .bool(true)) }

    private struct Latest {
        var counter: Int64
        var contents: Int
        var frame: Int
        var timestamp: Int64

        init(counter: Int64, contents: Int, at moment: CaptureMoment) {
            self.counter = counter
            self.contents = contents
            frame = moment.frame
            timestamp = moment.timestamp
        }
    }

    private var latest: [BluetoothAddress: Latest] = [:]

    func observe(_ fields: Fields, from address: BluetoothAddress, at moment: CaptureMoment) -> [FollowUpReading] {
        guard fields["encrypted"] == .bool(true), case .int(let counter) = fields["counter"] else { return [] }
        let contents = fields.hashValue
        guard let previous = latest[address] else {
            if latest.count >= Self.maximumDevices { latest.removeAll(keepingCapacity: true) }
            latest[address] = Latest(counter: counter, contents: contents, at: moment)
            return []
        }
        let problem: String
        if counter > previous.counter {
            latest[address] = Latest(counter: counter, contents: contents, at: moment)
            return []
        } else if counter < previous.counter {
            problem = "decreased"
        } else if contents != previous.contents {
            problem = "reused"
        } else if isLater(moment.timestamp, than: previous.timestamp) {
            problem = "replayed"
        } else {
            return []  // the device repeating its payload
        }
        var report = Fields()
        report.append("problem", .string(problem))
        report.append("counter", .int(counter))
        report.append("previous_counter", .int(previous.counter))
        report.append("previous_frame", .int(Int64(previous.frame)))
        return [
            FollowUpReading(
                decoder: Self.decoderID, address: address, moment: moment, source: "check",
                match: .serviceData(BTHome.service), fields: report)
        ]
    }

    /// More than the repeat window later; a damaged capture's times may be further apart than
    /// Int64 holds, which is later too.
    private func isLater(_ time: Int64, than earlier: Int64) -> Bool {
        let (waited, overflow) = time.subtractingReportingOverflow(earlier)
        return overflow || waited > Self.repeatWindow
    }

    func connectionEnded(with address: BluetoothAddress, at moment: CaptureMoment) -> [FollowUpReading] { [] }

    func finish(at moment: CaptureMoment) -> [FollowUpReading] { [] }
}
