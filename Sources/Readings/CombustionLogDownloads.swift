import BluetoothPackets
import PayloadDecoders

/// Follows Combustion log downloads (UART Read Logs requests and their one-response-per-record
/// answers) and sums each up when it ends: which records arrived, how many are missing.
///
/// A download ends when the phone asks for the next range, when the connection ends, or with the
/// capture. Its summary is a reading of decoder `combustion.log_download` at the frame where that
/// happened, so readings stay in frame order.
struct CombustionLogDownloads {
    static let decoderID = "combustion.log_download"

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
    mutating func observe(address: BluetoothAddress, fields: Fields, frame: Int, timestamp: Int64) -> Reading? {
        guard fields["message"] == .string("read_logs") else { return nil }
        if fields["direction"] == .string("request") {
            guard case .int(let start) = fields["start_sequence"], case .int(let end) = fields["end_sequence"] else {
                return nil
            }
            let ended = finish(address: address, frame: frame, timestamp: timestamp)
            open[address] = Download(start: start, end: end, requestFrame: frame, lastFrame: frame, lastTimestamp: timestamp)
            return ended
        }
        guard case .int(let sequence) = fields["sequence"], var download = open[address] else { return nil }
        if download.received.count < 1_000_000 { download.received.insert(sequence) }
        download.lastFrame = frame
        download.lastTimestamp = timestamp
        open[address] = download
        return nil
    }

    /// Ends the download from `address` (at `frame`: the next request, the disconnection or the end).
    mutating func finish(address: BluetoothAddress, frame: Int, timestamp: Int64) -> Reading? {
        guard let download = open.removeValue(forKey: address) else { return nil }
        return summary(download, address: address, frame: frame, timestamp: timestamp)
    }

    mutating func finishAll(frame: Int, timestamp: Int64) -> [Reading] {
        let summaries = open.sorted { $0.value.requestFrame < $1.value.requestFrame }
            .map { summary($0.value, address: $0.key, frame: frame, timestamp: timestamp) }
        open.removeAll()
        return summaries
    }

    private func summary(_ d: Download, address: BluetoothAddress, frame: Int, timestamp: Int64) -> Reading {
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
        return Reading(
            frame: frame, timestamp: timestamp, address: address, decoder: Self.decoderID,
            source: "summary", match: .characteristic(CombustionUART.tx), outcome: .fields(fields))
    }
}
