import BluetoothPackets
import BluetoothTracking
import CaptureModel

/// Rewrites a capture so that it can be shared: device addresses replaced by pseudonyms (the same
/// one everywhere), pairing material zeroed, and on request device names replaced and chosen
/// characteristic values blanked. Every length stays as it was, so the capture still parses, and
/// the event stream of the result is the original's with the pseudonyms in it.
///
/// It reads the capture twice, so give it two readers of the same capture: `learn` collects the
/// addresses and names (and runs the tracker, whose handle resolution says which values are names
/// or blanked), then `rewrite` hands on every record, rewritten, in order. Memory holds what is
/// learned (a few bytes per device and name) and the records of a frame still being reassembled.
public final class Scrubber {
    private let context: ScrubContext
    private var learned = false

    public init(options: ScrubOptions) {
        context = ScrubContext(options: options)
    }

    public var options: ScrubOptions { context.options }
    public var statistics: ScrubStatistics { context.statistics }

    /// The first pass. `stop` is asked before each record.
    public func learn(_ source: some RecordSource, stop: () -> Bool = { false }) {
        context.learning = true
        let rewriter = Rewriter(context: context)
        let tracker = Tracker()
        tracker.consumeAll({
            guard !stop(), let record = source.next() else { return nil }
            rewriter.process(record)
            return record
        }) { event in context.facts.learn(event, &context.names) }
        rewriter.finish()
        tracker.finish { event in context.facts.learn(event, &context.names) }
        context.addresses.assign()
        learned = true
    }

    /// The second pass: every record the source gives, rewritten, to `emit` in the same order.
    public func rewrite(_ source: some RecordSource, stop: () -> Bool = { false }, _ emit: (StoredRecord) -> Void) {
        precondition(learned, "learn(_:) reads the capture first")
        context.learning = false
        let rewriter = Rewriter(context: context)
        withoutActuallyEscaping(emit) { emit in
            rewriter.emit = emit
            while !stop(), let record = source.next() { rewriter.process(record) }
            rewriter.finish()
            rewriter.emit = { _ in }
        }
    }

    /// Every address and its pseudonym, in the order first seen: for the capture's owner, never
    /// for the scrubbed capture.
    public var addressMap: [(original: BluetoothAddress, pseudonym: BluetoothAddress)] { context.addresses.pairs }

    /// Every name (with `names`) and its pseudonym, `device-N`, in the order first seen.
    public var nameMap: [(original: [UInt8], pseudonym: String)] {
        context.names.order.enumerated().map { ($0.element, "device-\($0.offset + 1)") }
    }
}
