import BluetoothPackets

/// Follows Combustion log downloads (UART Read Logs requests and their one-response-per-record
/// answers) and sums each up when it ends: which records arrived, how many are missing.
///
/// A download ends when the phone asks for the next range, when the connection ends, or with the
/// capture. Its summary is a reading of decoder `combustion.log_download` at the frame where that
/// happened, so readings stay in frame order.
final class CombustionLogDownloads: DecoderFollowUp {
    static let decoderID = "combustion.log_download"

    var ids: [String] { [Self.decoderID] }

    private struct Download {
        var start: Int64
        var end: Int64
        var requestFrame: Int
        var received: Set<Int64> = []
        var lastFrame: Int
        var lastTimestamp: Int64
    }

    private var open: [BluetoothAddress: Download] = [:]

    /// Takes one decoded UART message; returns the summary of a download it ended, if any.
    func observe(_ fields: Fields, from address: BluetoothAddress, at moment: CaptureMoment) -> [FollowUpReading] {
        guard fields["message"] == .string("read_logs") else { return [] }
        if fields["direction"] == .string("request") {
            guard case .int(let start) = fields["start_sequence"], case .int(let end) = fields["end_sequence"] else {
                return []
            }
            let ended = connectionEnded(with: address, at: moment)
            open[address] = Download(
                start: start, end: end, requestFrame: moment.frame, lastFrame: moment.frame,
                lastTimestamp: moment.timestamp)
            return ended
        }
        guard case .int(let sequence) = fields["sequence"], var download = open[address] else { return [] }
        if download.received.count < 1_000_000 { download.received.insert(sequence) }
        download.lastFrame = moment.frame
        download.lastTimestamp = moment.timestamp
        open[address] = download
        return []
    }

    /// Ends the download from `address` (at `moment`: the next request or the disconnection).
    func connectionEnded(with address: BluetoothAddress, at moment: CaptureMoment) -> [FollowUpReading] {
        guard let download = open.removeValue(forKey: address) else { return [] }
        return [summary(download, address: address, at: moment)]
    }

    func finish(at moment: CaptureMoment) -> [FollowUpReading] {
        let summaries = open.sorted { $0.value.requestFrame < $1.value.requestFrame }
            .map { summary($0.value, address: $0.key, at: moment) }
        open.removeAll()
        return summaries
    }

    private func summary(_ d: Download, address: BluetoothAddress, at moment: CaptureMoment) -> FollowUpReading {
        let wanted = d.end >= d.start ? d.end - d.start + 1 : 0
        let inRange = d.received.filter { $0 >= d.start && $0 <= d.end }
        var missing: [FieldValue] = []
        if wanted <= 100_000 {
            var sequence = d.start
            while sequence <= d.end, missing.count < 32 {
                if !inRange.contains(sequence) { missing.append(.int(sequence)) }
                sequence += 1
            }
        }
        var fields = Fields()
        fields.append("start_sequence", .int(d.start))
        fields.append("end_sequence", .int(d.end))
        fields.append("request_frame", .int(Int64(d.requestFrame)))
        fields.append("last_record_frame", .int(Int64(d.lastFrame)))
        fields.append("records_received", .int(Int64(inRange.count)))
        fields.append("records_missing", .int(wanted - Int64(inRange.count)))
        fields.append("complete", .bool(Int64(inRange.count) == wanted))
        if !missing.isEmpty { fields.append("first_missing", .list(missing)) }
        return FollowUpReading(
            decoder: Self.decoderID, address: address, moment: moment, source: "summary",
            match: .characteristic(CombustionUART.tx), fields: fields)
    }
}
