import Bluetape
import CaptureFiles
import CaptureModel

/// The passes of one replay, played in the calling thread: opens the capture for each pass, reads
/// it through the source and hands every element, with the offset it is due at, to a body that
/// returns false to stop. The command line paces from here; `ReplaySequence` runs it on its reader
/// thread. Nothing waits here: the offsets say when, the caller decides how.
package struct ReplayRun<Source: ReplaySource>: @unchecked Sendable {
    /// Read by one thread at a time: the caller's, or the replay sequence's reader thread.
    package let capture: Capture
    package let source: Source
    package let options: ReplayOptions

    package init(capture: Capture, source: Source, options: ReplayOptions) {
        self.capture = capture
        self.source = source
        self.options = options
    }

    /// Plays every pass, each from the start of the capture. Returns the reader of the last pass,
    /// whose problems say whether the capture was damaged.
    /// Specialized for the two sources here, where they are known: callers in other modules would
    /// otherwise run the generic code, and look up generic metadata for every element.
    @discardableResult
    @_specialize(exported: true, where Source == EventSource)
    @_specialize(exported: true, where Source == ReadingSource)
    package func play(_ body: (Replayed<Source.Element>) -> Bool) throws(CaptureError) -> CaptureReader {
        var schedule = ReplaySchedule(speed: options.speed, maxGap: options.maxGap)
        var reader = try capture.openReader()
        var pass = 0
        while true {
            var going = true
            var emitted = 0
            schedule.startPass()
            source.read(reader, keep: options.filter.make()) { element in
                emitted += 1
                going = body(Replayed(value: element, offset: schedule.offset(for: element.timestamp), pass: pass))
                return going
            }
            pass += 1
            // An empty pass would loop forever without a single element: stop instead.
            if !going || emitted == 0 { return reader }
            if let passes = options.passes, pass >= passes { return reader }
            reader = try capture.openReader()
        }
    }
}
