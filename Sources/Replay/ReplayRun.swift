import CaptureFiles
import CaptureModel

/// The passes of one replay, played in the calling thread: opens the capture for each pass, reads
/// it through the source and hands every element, with the offset it is due at, to a body that
/// returns false to stop. The command line paces from here; `ReplaySequence` runs it on its reader
/// thread. Nothing waits here: the offsets say when, the caller decides how.
package struct ReplayRun<Source: ReplaySource>: Sendable {
    package let path: String
    package let source: Source
    package let options: ReplayOptions

    package init(path: String, source: Source, options: ReplayOptions) {
        self.path = path
        self.source = source
        self.options = options
    }

    /// Plays every pass; `first` is the reader for the first pass when the caller opened it already.
    /// Returns the reader of the last pass, whose problems say whether the capture was damaged.
    /// Specialized for the two sources here, where they are known: callers in other modules would
    /// otherwise run the generic code, and look up generic metadata for every element.
    @discardableResult
    @_specialize(exported: true, where Source == EventSource)
    @_specialize(exported: true, where Source == ReadingSource)
    package func play(
        first: CaptureReader? = nil, _ body: (Replayed<Source.Element>) -> Bool
    ) throws(CaptureError) -> CaptureReader {
        var schedule = ReplaySchedule(speed: options.speed, maxGap: options.maxGap)
        var reader: CaptureReader
        if let first { reader = first } else { reader = try CaptureReader(path: path, formats: options.formats) }
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
            reader = try CaptureReader(path: path, formats: options.formats)
        }
    }
}
