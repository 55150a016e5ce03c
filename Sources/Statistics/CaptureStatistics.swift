import BluetoothTracking
import Layouts
import Readings

/// What a capture file is, as its reader saw it: the part of `stats` that is not about events.
public struct CaptureInfo: Sendable {
    public var path: String
    /// "btsnoop", "pcapng", "packetlogger", …
    public var format: String
    /// The datalink number and name; nil for formats without one (PacketLogger).
    public var datalink: Int?
    public var datalinkName: String
    public var records: Int
    /// The reader's damage reports, one line each.
    public var problems: [String]

    public init(path: String, format: String, datalink: Int?, datalinkName: String, records: Int, problems: [String]) {
        self.path = path
        self.format = format
        self.datalink = datalink
        self.datalinkName = datalinkName
        self.records = records
        self.problems = problems
    }
}

/// Everything `stats` says about one capture.
public struct CaptureStatistics: Sendable {
    public var info: CaptureInfo
    public var events: EventStatistics
    public var readings: ReadingStatistics

    public init(info: CaptureInfo, events: EventStatistics, readings: ReadingStatistics) {
        self.info = info
        self.events = events
        self.readings = readings
    }

    /// Statistics of a finished stream of events and the readings decoded from it.
    public init(
        info: CaptureInfo, events: some Sequence<Event>, readings: some Sequence<Reading>,
        rules: RuleChecker.Summary? = nil
    ) {
        self.init(info: info, events: EventStatistics(events), readings: ReadingStatistics(readings, rules: rules))
    }

    /// Capture span in microseconds.
    public var duration: Int64? {
        guard let first = events.firstTimestamp, let last = events.lastTimestamp else { return nil }
        return last - first
    }
}
