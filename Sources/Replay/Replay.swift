import Bluetape
import BluetoothTracking
import CaptureFiles
import CaptureModel
import Readings

/// Replays captures into app code and tests: events or readings at the pace of the capture's
/// timestamps, as an `AsyncSequence`.
///
/// ```swift
/// let clock = InstantReplayClock()
/// for try await item in try Replay.events(from: path, options: ReplayOptions(maxGap: .seconds(5)), clock: clock) {
///     scanner.deliver(item.value)            // item.offset: when it was due
/// }
/// // clock.waits: the gaps the replay would have slept, without sleeping
/// ```
public enum Replay {
    /// The capture's events. Throws when the capture cannot be opened or the options make no sense.
    public static func events(
        from path: String, options: ReplayOptions = ReplayOptions(), clock: some ReplayClock = ContinuousReplayClock()
    ) throws(ReplayError) -> ReplaySequence<Event> {
        let capture = try open(path, options)
        let run = ReplayRun(capture: capture, source: EventSource(tracker: options.tracker), options: options)
        return ReplaySequence(run: run, clock: clock)
    }

    /// The readings the decoders make of the capture's events (`options.filter` picks the events they see).
    public static func readings(
        from path: String, decoding: ReplayDecoding = ReplayDecoding(), options: ReplayOptions = ReplayOptions(),
        clock: some ReplayClock = ContinuousReplayClock()
    ) throws(ReplayError) -> ReplaySequence<Reading> {
        let capture = try open(path, options)
        let source = ReadingSource(tracker: options.tracker, decoding: decoding)
        return ReplaySequence(run: ReplayRun(capture: capture, source: source, options: options), clock: clock)
    }

    /// Fails early, in the caller, rather than at the first element.
    private static func open(_ path: String, _ options: ReplayOptions) throws(ReplayError) -> Capture {
        try options.validate()
        do {
            return try Capture(path: path, formats: options.formats)
        } catch {
            throw .capture(error)
        }
    }
}
