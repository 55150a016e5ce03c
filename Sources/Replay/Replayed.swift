import BluetoothTracking
import Readings

/// What a replay paces by: anything with a capture timestamp.
public protocol ReplayTimestamped: Sendable {
    /// Microseconds since the Unix epoch.
    var timestamp: Int64 { get }
}

extension Event: ReplayTimestamped {}
extension Reading: ReplayTimestamped {}

/// One element of a replay: the event or reading as the capture has it, and when it is due.
public struct Replayed<Value: ReplayTimestamped>: Sendable {
    public var value: Value
    /// When it is due, counted from the replay's start: the capture's gaps, cut to `maxGap`, divided
    /// by `speed`. Always zero when `speed` is infinite.
    public var offset: Duration
    /// Which pass over the capture it comes from: 0, then 1, 2, … when the replay loops.
    public var pass: Int

    public init(value: Value, offset: Duration, pass: Int) {
        self.value = value
        self.offset = offset
        self.pass = pass
    }

    /// The capture's own time of the value, in microseconds since the Unix epoch.
    public var timestamp: Int64 { value.timestamp }
}
