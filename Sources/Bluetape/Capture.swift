import BluetoothTracking
import CaptureFiles
import CaptureModel
import Handoff
import JSON
import PayloadDecoders
import Readings

/// A capture, ready to be read: the one call from a path to its events or readings. The command
/// line, replays and the golden suite all read captures through it.
///
/// ```swift
/// let capture = try Capture(path: "captures/sensor.btsnoop")
/// for event in capture.events() { print(event.frame, event.type) }
/// let decoding = try DecoderConfiguration()
/// for reading in capture.readings(decoding) { print(reading.decoder ?? "-", reading.outcome) }
/// ```
///
/// Each read starts from the beginning of the capture (a file is opened again for it); damage
/// found by the last read is in `problems`.
public final class Capture {
    public let path: String
    public let format: CaptureFormat
    public let linkType: LinkType
    private let formats: [any ExternalCaptureFormat]
    private let bytes: [UInt8]?
    /// What `init(_:formats:)` opened; unused for a capture in memory.
    private let request: CaptureRequest
    /// The reader opened by `init`, used by the first read; later reads open their own.
    private var unread: CaptureReader?
    private var lastReader: CaptureReader

    /// Opens the capture at `path`. `formats`: what to read beyond btsnoop and PacketLogger
    /// (`[PcapFormat()]` from `PcapFiles` where libpcap exists).
    /// Any input `CaptureReader` recognises: a capture, gzip, an Android bug report or a sysdiagnose
    /// archive's Bluetooth log, btsnooz text; `-` is standard input (which can be read only once).
    public convenience init(path: String, formats: [any ExternalCaptureFormat] = []) throws(CaptureError) {
        try self.init(CaptureRequest(path: path), formats: formats)
    }

    /// Opens what `request` names: one input, an archive's member, or several files joined into one
    /// session (a rotated `btsnoop_hci.log.last` and its successor).
    public init(_ request: CaptureRequest, formats: [any ExternalCaptureFormat] = []) throws(CaptureError) {
        let reader = try CaptureReader(request, formats: formats)
        path = reader.path
        self.formats = formats
        bytes = nil
        self.request = request
        format = reader.format
        linkType = reader.linkType
        unread = reader
        lastReader = reader
    }

    /// A capture held in memory; `name` is used in messages.
    public init(bytes: [UInt8], name: String = "<memory>", formats: [any ExternalCaptureFormat] = [])
        throws(CaptureError)
    {
        let reader = try CaptureReader(bytes: bytes, name: name, formats: formats)
        path = name
        self.formats = formats
        self.bytes = bytes
        request = CaptureRequest(path: name)
        format = reader.format
        linkType = reader.linkType
        unread = reader
        lastReader = reader
    }

    /// Damage the last read found: damaged or cut records, with frame and byte offset.
    public var problems: ProblemLog { lastReader.problems }

    /// What the input held: archive layers, the logs found and the ones read, joined parts, notes.
    public var contents: CaptureContents { lastReader.contents }

    /// A reader positioned at the first record.
    public func openReader() throws(CaptureError) -> CaptureReader {
        let reader: CaptureReader
        if let first = unread {
            reader = first
            unread = nil
        } else if let bytes {
            reader = try CaptureReader(bytes: bytes, name: path, formats: formats)
        } else {
            reader = try CaptureReader(request, formats: formats)
        }
        lastReader = reader
        return reader
    }

    // MARK: Sequences

    /// The event stream, as `bluetape events` prints it. A capture that cannot be opened again
    /// (a file removed since `init`) gives no events, with the reason in `problems`.
    public func events(filter: EventFilter = EventFilter(), tracker: Tracker.Options = Tracker.Options()) -> Events {
        Events(iterator: try? EventStream.Iterator(openReader(), options: tracker), filter: filter)
    }

    /// The readings, as `bluetape decode` writes them.
    public func readings(_ decoding: DecoderConfiguration, filter: EventFilter = EventFilter()) -> Readings {
        Readings(events: events(filter: filter, tracker: decoding.tracker), decoding: decoding)
    }

    public struct Events: Sequence, IteratorProtocol {
        let iterator: EventStream.Iterator?
        var filter: EventFilter

        public mutating func next() -> Event? {
            while let event = iterator?.next() {
                if filter.isEmpty || filter.accepts(event) { return event }
            }
            return nil
        }
    }

    public struct Readings: Sequence, IteratorProtocol {
        var events: Events
        let decoding: DecoderConfiguration
        let pipeline: ReadingsPipeline
        var ready: [Reading] = []
        var index = 0
        var finished = false

        init(events: Events, decoding: DecoderConfiguration) {
            self.events = events
            self.decoding = decoding
            pipeline = ReadingsPipeline(decoders: decoding.decoderSet, options: decoding.pipeline)
        }

        public mutating func next() -> Reading? {
            while index == ready.count {
                ready.removeAll(keepingCapacity: true)
                index = 0
                if finished { return nil }
                var batch: [Reading] = []
                if let event = events.next() {
                    pipeline.consume(event) { batch.append($0) }
                } else {
                    pipeline.finish { batch.append($0) }
                    finished = true
                }
                ready = batch.filter(decoding.keeps)
            }
            defer { index += 1 }
            return ready[index]
        }
    }

    // MARK: Streaming at full speed

    /// Calls `body` with every event that passes `filter`, in order, until it returns false.
    /// `concurrently`: reading and tracking on a second thread while `body` runs on this one.
    /// `timeBase`, when given, is set to the first record's time before the first event reaches
    /// `body` (for times relative to the capture's start, whatever the filter drops).
    @discardableResult
    public func forEachEvent(
        filter: EventFilter = EventFilter(), tracker: Tracker.Options = Tracker.Options(), concurrently: Bool = false,
        timeBase: TimeBase? = nil, _ body: (Event) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        let reader = try openReader()
        var filter = filter
        let filtering = !filter.isEmpty
        // Set on the reading thread before its first event is handed over: the hand-over orders it.
        let first: (Int64) -> Void = { ts in
            filter.timeBase = ts
            timeBase?.value = ts
        }
        guard concurrently else {
            var going = true
            return EventStream.lend(reader, options: tracker, stop: { !going }, firstRecord: first) { event in
                guard going, !filtering || filter.accepts(event) else { return }
                going = body(event)
            }
        }
        return Handoff.run { sink in
            Self.track(reader, options: tracker, filter: &filter, firstRecord: { timeBase?.value = $0 }, into: sink)
        } consume: { event in
            body(event)
        }
    }

    /// Reads and tracks a capture into `events` (on the producing side of a `Handoff`): each event
    /// is made in the sink's batch, and let go there when `filter` turns it down. The filter's
    /// time base, and `firstRecord`'s, is the first record's time.
    static func track(
        _ reader: CaptureReader, options: Tracker.Options, filter: inout EventFilter,
        firstRecord: (Int64) -> Void = { _ in }, into events: HandoffSink<Event>
    ) -> Tracker.Statistics {
        let filtering = !filter.isEmpty
        return EventStream.read(
            reader, options: options, stop: { events.isCancelled },
            firstRecord: { time in
                filter.timeBase = time
                firstRecord(time)
            },
            makingIn: { events.nextSlot(deinitializing: Event.deinitialize) }
        ) { event in
            if !filtering || filter.accepts(event.pointee) {
                events.emit(madeIn: event)
            } else {
                events.drop(madeIn: event)
            }
        }
    }

    /// Calls `body` with every reading, in order, until it returns false. `concurrently`: three
    /// stages on three threads (tracking, decoding, and `body` on this one), which then sees the
    /// readings in batches, a little later.
    @discardableResult
    public func forEachReading(
        _ decoding: DecoderConfiguration, filter: EventFilter = EventFilter(), concurrently: Bool = false,
        _ body: (Reading) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        guard concurrently, Handoff.isUseful else {
            return try decodeOnThisThread(decoding, filter: filter, packing: nil) { reading, _ in body(reading) }
        }
        return try decodeInStages(decoding, filter: filter, packing: nil) { (readings: HandoffSink<Reading>) in
            ({ reading, _ in readings.emit(reading) }, {})
        } consume: { reading in
            body(reading)
        }
    }

    /// Calls `body` with every reading packed (`PackedReadingJSON` writes its JSON), in
    /// order, until it returns false. `concurrently`: as `forEachReading`, but the readings cross
    /// to this thread packed, in chunks of about 64 KiB, so that what they hold on the heap is
    /// freed on the decoding thread at once, never touched from two.
    @discardableResult
    public func forEachPackedReading(
        _ decoding: DecoderConfiguration, filter: EventFilter = EventFilter(), concurrently: Bool = false,
        _ body: (PackedReading) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        // The decoders write fields straight into `fields`, and the readings are packed from there.
        guard concurrently, Handoff.isUseful else {
            let scratch = PackedReadings(capacity: 4096)
            let fields = FieldPacker()
            let packer = ReadingPacker(sharing: fields)
            return try decodeOnThisThread(decoding, filter: filter, packing: fields) { reading, span in
                scratch.removeAll()
                packer.pack(reading, fields: span, into: scratch)
                return scratch.forEach(body)
            }
        }
        let fields = FieldPacker()
        return try decodeInStages(decoding, filter: filter, batchSize: 1, packing: fields) {
            (chunks: HandoffSink<PackedReadings>) in
            let filling = ChunkFilling(fields: fields) { chunks.emit($0) }
            return ({ filling.take($0, fields: $1) }, { filling.end() })
        } consume: { chunk in
            chunk.forEach(body)
        }
    }

    /// Tracking, decoding and `body` in turn on this thread. `packing`: where the decoders write
    /// the readings' fields (each reading comes with where its own lie), or nil to keep them in
    /// the readings.
    private func decodeOnThisThread(
        _ decoding: DecoderConfiguration, filter: EventFilter, packing: FieldPacker?,
        _ body: (consuming Reading, FieldPacker.Span) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        let reader = try openReader()
        let filter = Box(filter)
        let filtering = !filter.value.isEmpty
        let pipeline = Self.pipeline(decoding, packing: packing)
        let going = Box(true)
        func pass(_ reading: consuming Reading, _ span: FieldPacker.Span) {
            if going.value, decoding.keeps(reading) { going.value = body(reading, span) }
        }
        let statistics = EventStream.lend(
            reader, options: decoding.tracker, stop: { !going.value }, firstRecord: { filter.value.timeBase = $0 }
        ) { event in
            if going.value, !filtering || filter.value.accepts(event) { pipeline.consume(event, packed: pass) }
        }
        if going.value { pipeline.finish(packed: pass) }
        return statistics
    }

    /// A value the closures of one thread share. A local `var` they capture is checked for
    /// exclusive access at run time on every use: three checks for every record.
    private final class Box<Value> {
        @exclusivity(unchecked) var value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A pipeline for `decoding`, packing fields into `packing` when it is given.
    static func pipeline(_ decoding: DecoderConfiguration, packing: FieldPacker?) -> ReadingsPipeline {
        guard let packing else { return ReadingsPipeline(decoders: decoding.decoderSet, options: decoding.pipeline) }
        return ReadingsPipeline(decoders: decoding.decoderSet, options: decoding.pipeline, packingInto: packing)
    }

    /// Tracking, decoding and `consume` on three threads. `hand` is called on the decoding thread
    /// with the sink to this one, and answers what takes each reading the decoders keep there,
    /// with where its fields lie when they are packed into `packing`, and what to do at the end.
    private func decodeInStages<Element: Sendable>(
        _ decoding: DecoderConfiguration, filter: EventFilter, batchSize: Int = 1024, packing: FieldPacker?,
        hand: (HandoffSink<Element>) -> (
            take: (consuming Reading, FieldPacker.Span) -> Void, end: () -> Void
        ),
        consume: (borrowing Element) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        let reader = try openReader()
        var filter = filter
        return Handoff.run(batchSize: batchSize) { (sink: HandoffSink<Element>) in
            let pipeline = Self.pipeline(decoding, packing: packing)
            let (take, end) = hand(sink)
            func pass(_ reading: consuming Reading, _ span: FieldPacker.Span) {
                if decoding.keeps(reading) { take(reading, span) }
            }
            let statistics = Handoff.run { events in
                Self.track(reader, options: decoding.tracker, filter: &filter, into: events)
            } consume: { event in
                pipeline.consume(event, packed: pass)
                return !sink.isCancelled
            }
            pipeline.finish(packed: pass)
            end()
            return statistics
        } consume: { element in
            consume(element)
        }
    }
}

/// Packs readings into chunks on the decoding thread and sends each on as it fills. A class, not
/// variables the closures capture: those were checked for exclusive access at run time, three
/// times a reading.
final class ChunkFilling {
    static let chunkSize = 1 << 16
    let send: (PackedReadings) -> Void
    let packer: ReadingPacker
    /// Whether each chunk names its texts anew (`ReadingPacker.startChunk`).
    let selfContained: Bool
    /// The chunk being filled, held here; `filling` is the same chunk, reached for each reading
    /// without retaining and releasing it (a class in a variable is, each time it is read).
    @exclusivity(unchecked) private var chunk = PackedReadings(capacity: chunkSize + 4096)
    @exclusivity(unchecked) private var filling: Unmanaged<PackedReadings>

    init(fields: FieldPacker, selfContained: Bool = false, send: @escaping (PackedReadings) -> Void) {
        self.send = send
        self.selfContained = selfContained
        packer = ReadingPacker(sharing: fields)
        filling = .passUnretained(chunk)
    }

    func take(_ reading: consuming Reading, fields span: FieldPacker.Span) {
        let full = filling._withUnsafeGuaranteedRef { chunk in
            packer.pack(reading, fields: span, into: chunk)
            return chunk.count >= Self.chunkSize
        }
        if full { sendChunk() }
    }

    func end() {
        if chunk.readings > 0 { sendChunk() }
    }

    private func sendChunk() {
        send(chunk)
        chunk = PackedReadings(capacity: Self.chunkSize + 4096)
        filling = .passUnretained(chunk)
        if selfContained { packer.startChunk() }
    }
}

/// The first record's time, handed from the thread that reads a capture to the one that prints it.
public final class TimeBase: @unchecked Sendable {
    /// Written once, before the first event is handed over; read after it arrives.
    public var value: Int64?
    public init() {}
}
