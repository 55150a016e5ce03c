import Bluetape
import BluetoothTracking
import CaptureFiles
import Handoff
import Layouts
import PayloadDecoders
import Readings
import Statistics

/// Where `stats` and `report` get a capture's events and readings: the tracker and the readings
/// pipeline exactly as `decode` runs them (built-in decoders, `--layout`, `--layouts`, `--gatt`,
/// through the same `DecoderConfiguration`), and the layouts' rules as `check` applies them:
/// events and readings of one read, side by side.
struct CaptureFeed {
    var configuration: DecoderConfiguration

    /// The options `stats` and `report` decode with (those of `decode`, without `--all`).
    static let options = DecodeSetup.options

    init(_ arguments: ParsedArguments) throws {
        configuration = try DecodeSetup(arguments).configuration
    }

    init(configuration: DecoderConfiguration) { self.configuration = configuration }

    /// A fresh rule checker for the layouts given, nil when none has rules.
    func ruleChecker() -> RuleChecker? {
        configuration.layouts.contains { !$0.rules.isEmpty } ? RuleChecker(layouts: configuration.layouts) : nil
    }

    /// The unit each decoder gives each of its fields, as the decoders describe them.
    func units() -> @Sendable (String, String) -> String? {
        var table: [String: [String: String]] = [:]
        for decoder in configuration.decoders {
            for field in decoder.fields { if let unit = field.unit { table[decoder.id, default: [:]][field.name] = unit } }
        }
        let units = table
        return { decoder, field in units[decoder]?[field] }
    }

    /// Reads a capture: every event goes to `event`, every reading (with what it broke of its
    /// layout's rules) to `reading`. Reading and tracking with `event` run on a second thread
    /// where there is a core for it, decoding and `reading` on this one, each seeing its items in
    /// order. (Three threads, decoding alone on one, kept two cores less busy: on two cores one
    /// of them always waited, and each reading crossed to the third and was freed on the second.)
    /// Returns the tracker's statistics and the rule checker's summary.
    func run(
        _ reader: CaptureReader, event: (borrowing Event) -> Void, reading: (PackedFieldsReading, [RuleViolation]) -> Void
    ) -> (Tracker.Statistics, RuleChecker.Summary?) {
        var checker = ruleChecker()
        // The decoders write fields straight into `packer`: no `Fields` is made for a reading
        // unless a rule has to read them.
        let packer = FieldPacker()
        // Asked once: the captured `var` is checked for exclusive access at run time on each use.
        let checking = checker != nil
        func check(_ r: PackedFieldsReading) -> [RuleViolation] {
            guard checking, let decoder = r.reading.decoder else { return [] }
            let outcome: DecodeOutcome
            switch r.reading.outcome {
            case .fields(let fields): outcome = .fields(r.span.isNone ? fields : r.packer.fields(r.span))
            case .error(let error): outcome = .error(error)
            case .undecoded: return []
            }
            return checker!.check(
                device: r.reading.address?.description ?? "-", frame: r.reading.frame, timestamp: r.reading.timestamp,
                decoder: decoder, outcome: outcome)
        }
        let configuration = configuration
        func pass(_ made: consuming Reading, _ span: FieldPacker.Span) {
            guard configuration.keeps(made) else { return }
            let packed = PackedFieldsReading(reading: made, packer: packer, span: span)
            reading(packed, check(packed))
        }
        let pipeline = ReadingsPipeline(
            decoders: configuration.decoderSet, options: configuration.pipeline, packingInto: packer)
        let tracker = configuration.tracker
        let statistics = Handoff.run { events in
            // Made where the decoding thread takes it from, and lent to `event` moved out and
            // back (lent where it lies, it was copied, its contents retained and released).
            EventStream.read(
                reader, options: tracker, stop: { events.isCancelled },
                makingIn: { events.nextSlot(deinitializing: Event.deinitialize) }
            ) { made in
                let lent = made.move()
                event(lent)
                made.initialize(to: lent)
                events.emit(madeIn: made)
            }
        } consume: { (e: borrowing Event) in
            pipeline.consume(e, packed: pass)
            return true
        }
        // The pipeline holds readings back until it knows they are not repeated: the last ones
        // come out here.
        pipeline.finish(packed: pass)
        return (statistics, checker?.summary)
    }

    /// Reads a capture's events only, nothing decoded: reading and tracking on one thread,
    /// `event` on this one.
    func runEvents(_ reader: CaptureReader, event: (Event) -> Void) -> Tracker.Statistics {
        let tracker = configuration.tracker
        return Handoff.run { events in
            EventStream.read(
                reader, options: tracker, stop: { events.isCancelled },
                makingIn: { events.nextSlot(deinitializing: Event.deinitialize) }, taking: events.emit)
        } consume: { (e: borrowing Event) in
            event(e)
            return true
        }
    }

    /// What the reader says about the file, once it has been read.
    static func info(_ reader: CaptureReader, path: String, records: Int) -> CaptureInfo {
        CaptureInfo(
            path: path, format: reader.format.rawValue,
            datalink: reader.format == .packetLogger ? nil : Int(reader.linkType.rawValue),
            datalinkName: reader.linkType.name, records: records,
            problems: reader.problems.items.map { "\(path): \($0)" })
    }
}

/// A reading as `CaptureFeed` hands it over: its fields lie in `packer` where `span` says (the
/// reading's own when the span is `.none`), valid during the call.
struct PackedFieldsReading {
    let reading: Reading
    let packer: FieldPacker
    let span: FieldPacker.Span
}
