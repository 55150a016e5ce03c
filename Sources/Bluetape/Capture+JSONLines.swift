import BluetoothTracking
import CaptureFiles
import Handoff
import JSON
import PayloadDecoders
import Readings

extension Capture {
    /// The readings as canonical JSON Lines, what golden files hold.
    public func readingsJSONL(_ decoding: DecoderConfiguration) throws(CaptureError) -> [UInt8] {
        var readings: [UInt8] = []
        try writeReadingsJSONL(decoding) { readings.append(contentsOf: $0) }
        return readings
    }

    /// The same text handed to `write` in pieces as it is made, so that a caller comparing or
    /// saving it need not hold it all.
    public func writeReadingsJSONL(
        _ decoding: DecoderConfiguration, _ write: (UnsafeRawBufferPointer) -> Void
    ) throws(CaptureError) {
        try writeReadingsJSONL(decoding, filter: EventFilter(), leading: nil, to: { bytes in
            write(bytes)
            return true
        })
    }

    /// The readings of the events that pass `filter` as canonical JSON Lines (`leading`, when
    /// given, the first member of each: `"capture":"a.btsnoop",`), handed to `write` in order,
    /// in pieces of 64 KiB or more, until it returns false.
    ///
    /// With a second core, reading and tracking run on a second thread and decoding on this one,
    /// and each chunk of readings is made into JSON by whichever of the two comes to it first:
    /// this thread once a few chunks wait, the tracking thread while this one is behind it. So
    /// both cores stay busy with two threads, where three stages on two cores left one idle
    /// whenever two of them waited.
    @discardableResult
    public func writeReadingsJSONL(
        _ decoding: DecoderConfiguration, filter: EventFilter = EventFilter(), leading: [UInt8]? = nil,
        to write: (UnsafeRawBufferPointer) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        guard Handoff.isUseful else { return try writeJSONLOnThisThread(decoding, filter, leading, write) }
        let reader = try openReader()
        var filter = filter
        let fields = FieldPacker()
        let pipeline = Self.pipeline(decoding, packing: fields)
        let lines = JSONLineQueue(leading: leading)
        let filling = ChunkFilling(fields: fields, selfContained: true) { lines.append($0) }
        func pass(_ reading: consuming Reading, _ span: FieldPacker.Span) {
            if decoding.keeps(reading) { filling.take(reading, fields: span) }
        }
        var going = true
        let statistics = Handoff.run { events in
            Self.track(reader, options: decoding.tracker, filter: &filter, into: events)
        } consume: { event in
            pipeline.consume(event, packed: pass)
            if lines.hasNewChunk { going = lines.writeOut(finishing: false, write) }
            return going
        } whileAhead: {
            lines.help()
        }
        guard going else { return statistics }
        pipeline.finish(packed: pass)
        filling.end()
        _ = lines.writeOut(finishing: true, write)
        return statistics
    }

    /// Decoding, JSON and `write` in turn on this thread.
    private func writeJSONLOnThisThread(
        _ decoding: DecoderConfiguration, _ filter: EventFilter, _ leading: [UInt8]?,
        _ write: (UnsafeRawBufferPointer) -> Bool
    ) throws(CaptureError) -> Tracker.Statistics {
        let piece = 1 << 16
        var writer = JSONWriter(capacity: piece + 4096)
        var json = PackedReadingJSON()
        var going = true
        let statistics = try forEachPackedReading(decoding, filter: filter, concurrently: false) { reading in
            json.write(reading, to: &writer, leading: leading)
            if writer.count >= piece {
                going = writer.withBytes(write)
                writer.reset()
            }
            return going
        }
        if going, writer.count > 0 { _ = writer.withBytes(write) }
        return statistics
    }
}

/// Chunks of packed readings on their way out as JSON Lines, in order. The decoding thread adds
/// each chunk as it fills and writes out those at the front whose JSON is made; that JSON is
/// made by whichever thread comes to a chunk first: the decoding thread for all but the last few
/// waiting, the tracking thread (`help`) for the oldest one nobody has taken. Each chunk names
/// its own texts (`ReadingPacker.startChunk`), so it is made into JSON on its own.
final class JSONLineQueue: @unchecked Sendable {
    private enum State { case waiting, taken, done }

    private final class Entry {
        let chunk: PackedReadings
        var state = State.waiting
        var json: ChunkJSON?
        init(_ chunk: PackedReadings) { self.chunk = chunk }
    }

    /// A chunk's JSON; kept for another chunk once written out.
    private final class ChunkJSON {
        // One thread at a time (handed over under the lock): checked at run time, every reading
        // written into it cost a check.
        @exclusivity(unchecked) var writer = JSONWriter(capacity: 1 << 18)
    }

    /// Chunks the decoding thread leaves to the tracking thread before it makes their JSON
    /// itself, and how many may wait at most (for one the tracking thread is still making).
    private static let leftForHelp = 2
    private static let mostWaiting = 16

    private let lock = Lock()
    private let leading: [UInt8]?
    // Under the lock.
    private var entries: [Entry] = []
    private var head = 0
    private var spare: [ChunkJSON] = []
    private var decoderWaits = false
    // Each used by one thread alone.
    @exclusivity(unchecked) private var decoderJSON = PackedReadingJSON()
    @exclusivity(unchecked) private var helperJSON = PackedReadingJSON()
    /// Whether a chunk came since the last `writeOut` (the decoding thread's alone).
    @exclusivity(unchecked) private(set) var hasNewChunk = false

    init(leading: [UInt8]?) { self.leading = leading }

    /// On the decoding thread.
    func append(_ chunk: PackedReadings) {
        lock.withLock { entries.append(Entry(chunk)) }
        hasNewChunk = true
    }

    /// On the tracking thread: makes the JSON of the oldest chunk nobody has taken, if any.
    func help() {
        guard let (entry, json) = takeOldestWaiting() else { return }
        make(entry.chunk, into: json, with: &helperJSON)
        lock.withLock {
            entry.json = json
            entry.state = .done
            if decoderWaits { lock.signal() }
        }
    }

    /// On the decoding thread: writes out the chunks at the front whose JSON is made, making it
    /// for all but the last few waiting (for every one when `finishing`); false once `write` is.
    func writeOut(finishing: Bool, _ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        hasNewChunk = false
        lock.lock()
        while head < entries.count {
            let entry = entries[head]
            if entry.state == .done {
                head += 1
                lock.unlock()
                let json = entry.json!
                entry.json = nil
                let going = json.writer.withBytes(write)
                json.writer.reset()
                lock.lock()
                spare.append(json)
                if !going {
                    lock.unlock()
                    return false
                }
                continue
            }
            let waiting = entries.count - head
            if finishing || waiting > Self.leftForHelp, let index = oldestWaiting() {
                let entry = entries[index]
                entry.state = .taken
                let json = spare.popLast() ?? ChunkJSON()
                lock.unlock()
                make(entry.chunk, into: json, with: &decoderJSON)
                lock.lock()
                entry.json = json
                entry.state = .done
                continue
            }
            // The front one is the tracking thread's to finish: wait only when too many queue.
            guard finishing || waiting > Self.mostWaiting else { break }
            decoderWaits = true
            while entry.state != .done { lock.wait() }
            decoderWaits = false
        }
        // Chunks written out go (the list would otherwise keep every one, as some always wait).
        if head >= 32 || head == entries.count {
            entries.removeFirst(head)
            head = 0
        }
        lock.unlock()
        return true
    }

    /// Under the lock.
    private func oldestWaiting() -> Int? {
        (head..<entries.count).first { entries[$0].state == .waiting }
    }

    private func takeOldestWaiting() -> (Entry, ChunkJSON)? {
        lock.withLock {
            guard let index = oldestWaiting() else { return nil }
            entries[index].state = .taken
            return (entries[index], spare.popLast() ?? ChunkJSON())
        }
    }

    private func make(_ chunk: PackedReadings, into json: ChunkJSON, with formatter: inout PackedReadingJSON) {
        formatter.reset()
        chunk.forEach { reading in
            formatter.write(reading, to: &json.writer, leading: leading)
            return true
        }
    }
}
