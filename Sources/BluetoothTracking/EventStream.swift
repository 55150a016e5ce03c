import CaptureModel

/// Reads a whole capture into events: records through the tracker, with the reader's damage reports
/// turned into `diagnostic` events where they happened.
public enum EventStream {
    /// Calls `body` with every event in order; returns the tracker's statistics.
    /// `stop` is asked before each record (a consumer that has gone away ends the read early);
    /// `firstRecord` gets the first record's time before any event is made (the base of relative
    /// times, whatever is filtered out later).
    @discardableResult
    public static func read(
        _ reader: some RecordSource, options: Tracker.Options = Tracker.Options(), stop: () -> Bool = { false },
        firstRecord: (Int64) -> Void = { _ in }, _ body: (consuming Event) -> Void
    ) -> Tracker.Statistics {
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        defer { slot.deallocate() }
        return read(
            reader, options: options, stop: stop, firstRecord: firstRecord, makingIn: { slot },
            taking: { body($0.move()) })
    }

    /// The events of `read`, each lent to `body` where it was made: in one slot, used again for
    /// the next event, which frees what the last one held only when it may hold something
    /// (`Event.deinitialize`). Handed over by value, every event was destroyed through the
    /// general path, a hundred instructions or more even for an advert that holds nothing.
    @discardableResult
    public static func lend(
        _ reader: some RecordSource, options: Tracker.Options = Tracker.Options(), stop: () -> Bool = { false },
        firstRecord: (Int64) -> Void = { _ in }, to body: (borrowing Event) -> Void
    ) -> Tracker.Statistics {
        let slot = UnsafeMutablePointer<Event>.allocate(capacity: 1)
        var holding = false
        defer {
            if holding { Event.deinitialize(slot) }
            slot.deallocate()
        }
        return read(
            reader, options: options, stop: stop, firstRecord: firstRecord,
            makingIn: {
                if holding { Event.deinitialize(slot) }
                holding = true
                return slot
            },
            taking: { made in
                // Moved out to be lent and back after: lent where it lies, it was copied.
                let lent = made.move()
                body(lent)
                made.initialize(to: consume lent)
            })
    }

    /// `read`, with each event made where the consumer wants it: in the memory `slot` returns
    /// (asked once per event, just before it is made), then given to `take`, whose it is from
    /// then on. For a stage that hands events on in a batch: made in the batch, an event is not
    /// copied there (passed by value, two hundred bytes were copied at every call on the way).
    @discardableResult
    public static func read(
        _ reader: some RecordSource, options: Tracker.Options = Tracker.Options(), stop: () -> Bool = { false },
        firstRecord: (Int64) -> Void = { _ in }, makingIn slot: () -> UnsafeMutablePointer<Event>,
        taking take: (UnsafeMutablePointer<Event>) -> Void
    ) -> Tracker.Statistics {
        // Events from outside the stream (the reader's damage, the tracker's last ones).
        func body(_ event: consuming Event) {
            let made = slot()
            made.initialize(to: event)
            take(made)
        }
        let tracker = Tracker(options: options)
        var reported = 0
        var lastTimestamp: Int64 = 0
        var first = true
        tracker.streaming(makingIn: slot, taking: take) {
            guard !stop() else { return }
            reader.forEachRecord { record, problemCount in
                if first {
                    firstRecord(record.timestamp)
                    first = false
                }
                if problemCount > reported {
                    reported = reportProblems(reader, from: reported, timestamp: record.timestamp, tracker, body)
                }
                lastTimestamp = record.timestamp
                tracker.consumeStreamed(record)
                return !stop()
            }
        }
        tracker.finish(body)
        reportProblems(reader, from: reported, timestamp: lastTimestamp, tracker, body)
        return tracker.statistics
    }

    /// The reader's new damage reports, through the tracker: behind any event it still holds.
    @discardableResult
    static func reportProblems(
        _ reader: some RecordSource, from start: Int, timestamp: Int64, _ tracker: Tracker, _ body: (consuming Event) -> Void
    ) -> Int {
        let log = reader.problems
        for problem in log.items.dropFirst(start) {
            tracker.report(
                Diagnostic(
                    layer: "capture", id: problem.kind == .truncatedTail ? "capture.truncated" : "capture.damaged",
                    reason: problem.description, offset: Int(problem.offset)),
                frame: problem.frame, timestamp: timestamp, body)
        }
        return log.items.count
    }
}

extension EventStream {
    /// The same events as `read`, pulled one at a time: for code that wants a `Sequence`.
    public final class Iterator: IteratorProtocol {
        private let source: any RecordSource
        private let tracker: Tracker
        private var buffer: [Event] = []
        private var index = 0
        private var reported = 0
        private var lastTimestamp: Int64 = 0
        private var finished = false

        public init(_ source: any RecordSource, options: Tracker.Options = Tracker.Options()) {
            self.source = source
            tracker = Tracker(options: options)
        }

        /// How records were used so far.
        public var statistics: Tracker.Statistics { tracker.statistics }

        public func next() -> Event? {
            while index == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                index = 0
                if finished { return nil }
                // A record can complete no event (or several): read until one is ready.
                if let record = source.next() {
                    if source.problemCount > reported {
                        reported = EventStream.reportProblems(
                            source, from: reported, timestamp: record.timestamp, tracker, { buffer.append($0) })
                    }
                    lastTimestamp = record.timestamp
                    tracker.consume(record) { buffer.append($0) }
                } else {
                    tracker.finish { buffer.append($0) }
                    EventStream.reportProblems(source, from: reported, timestamp: lastTimestamp, tracker) {
                        buffer.append($0)
                    }
                    finished = true
                }
            }
            defer { index += 1 }
            return buffer[index]
        }
    }
}
