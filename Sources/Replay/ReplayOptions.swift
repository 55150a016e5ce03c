import BluetoothTracking
import CaptureFiles
import CaptureModel

/// How a replay plays a capture.
public struct ReplayOptions: Sendable {
    /// How many times faster than the capture: 10 plays ten times as fast. `.infinity` never waits.
    public var speed: Double
    /// The longest wait between two elements, in capture time (before `speed` applies): cuts long
    /// silences. Nil keeps every gap as recorded.
    public var maxGap: Duration?
    /// How many times to play the capture; nil loops until the consumer stops.
    public var passes: Int?
    /// Which events are replayed (for readings: which events reach the decoders).
    public var filter: ReplayFilter
    /// What the tracker knows beyond the capture (a GATT map for handles without discovery).
    public var tracker: Tracker.Options
    /// How many elements the reader may prepare ahead of the consumer: the bound on memory.
    public var readAhead: Int
    /// Formats read beyond btsnoop and PacketLogger: `[PcapFormat()]` (product `CaptureFiles`'s
    /// `PcapFiles`) where libpcap exists.
    public var formats: [any ExternalCaptureFormat]

    public init(
        speed: Double = 1, maxGap: Duration? = nil, passes: Int? = 1, filter: ReplayFilter = .all,
        tracker: Tracker.Options = Tracker.Options(), readAhead: Int = 1024, formats: [any ExternalCaptureFormat] = []
    ) {
        self.formats = formats
        self.speed = speed
        self.maxGap = maxGap
        self.passes = passes
        self.filter = filter
        self.tracker = tracker
        self.readAhead = readAhead
    }

    /// The options replay with as fast as the capture can be read (`bluetape replay --max`).
    public static var unpaced: ReplayOptions { ReplayOptions(speed: .infinity) }

    func validate() throws(ReplayError) {
        guard speed > 0 else { throw .invalidOptions("speed must be above zero, not \(speed)") }
        if let maxGap, maxGap < .zero { throw .invalidOptions("maxGap must not be negative") }
        if let passes, passes < 1 { throw .invalidOptions("passes must be at least 1, not \(passes)") }
        guard readAhead >= 1 else { throw .invalidOptions("readAhead must be at least 1, not \(readAhead)") }
    }
}

/// Which events a replay keeps. A filter may learn as it reads (which device a connection handle
/// belongs to, when the capture starts), so every pass gets a fresh one from `make`.
public struct ReplayFilter: Sendable {
    let make: @Sendable () -> (Event) -> Bool

    /// `make` returns the predicate for one pass over the capture.
    public init(_ make: @escaping @Sendable () -> (Event) -> Bool) {
        self.make = make
    }

    public static var all: ReplayFilter { ReplayFilter { { _ in true } } }

    /// Keeps the events `accepts` says yes to.
    public static func matching(_ accepts: @escaping @Sendable (Event) -> Bool) -> ReplayFilter {
        ReplayFilter { accepts }
    }

    /// Keeps the events of these types.
    public static func types(_ types: Set<EventType>) -> ReplayFilter {
        matching { types.contains($0.type) }
    }
}

/// Why a replay cannot start, or could not go on.
public enum ReplayError: Error, Sendable, CustomStringConvertible {
    /// The capture cannot be opened (or, when looping, opened again).
    case capture(CaptureError)
    case invalidOptions(String)

    public var description: String {
        switch self {
        case .capture(let error): error.description
        case .invalidOptions(let message): "invalid replay options: \(message)"
        }
    }
}
