import BluetoothTracking
import CaptureFiles
import CaptureModel
import PayloadDecoders
import Readings

/// Turns one pass over a capture into the elements a replay emits.
package protocol ReplaySource: Sendable {
    associatedtype Element: ReplayTimestamped
    /// Reads `reader` to its end, or until `emit` returns false. `keep` is the pass's event filter.
    func read(_ reader: CaptureReader, keep: (Event) -> Bool, _ emit: (Element) -> Bool)
}

/// The event stream, as `bluetape events` prints it.
package struct EventSource: ReplaySource {
    package var tracker: Tracker.Options

    package init(tracker: Tracker.Options) {
        self.tracker = tracker
    }

    package func read(_ reader: CaptureReader, keep: (Event) -> Bool, _ emit: (Event) -> Bool) {
        var going = true
        EventStream.read(reader, options: tracker, stop: { !going }) { event in
            guard going, keep(event) else { return }
            going = emit(event)
        }
    }
}

/// The readings the decoders make of the event stream, as `bluetape decode` prints them.
package struct ReadingSource: ReplaySource {
    package var tracker: Tracker.Options
    package var decoding: ReplayDecoding

    package init(tracker: Tracker.Options, decoding: ReplayDecoding) {
        self.tracker = tracker
        self.decoding = decoding
    }

    package func read(_ reader: CaptureReader, keep: (Event) -> Bool, _ emit: (Reading) -> Bool) {
        let pipeline = ReadingsPipeline(decoders: decoding.decoders, options: decoding.pipeline)
        let wanted = decoding.keep
        var going = true
        func pass(_ reading: Reading) {
            if going, wanted(reading) { going = emit(reading) }
        }
        EventStream.read(reader, options: tracker, stop: { !going }) { event in
            if going, keep(event) { pipeline.consume(event, pass) }
        }
        if going { pipeline.finish(pass) }
    }
}

/// What a readings replay decodes with.
public struct ReplayDecoding: Sendable {
    public var decoders: DecoderSet
    public var pipeline: ReadingsPipeline.Options
    /// Which readings to replay; the others are dropped before pacing, so they leave no gap.
    public var keep: @Sendable (Reading) -> Bool

    /// The built-in decoders, with the pipeline's default de-duplication.
    public init(
        decoders: DecoderSet = DecoderSet(Registry.builtIn), pipeline: ReadingsPipeline.Options = .init(),
        keep: @escaping @Sendable (Reading) -> Bool = { _ in true }
    ) {
        self.decoders = decoders
        self.pipeline = pipeline
        self.keep = keep
    }
}
