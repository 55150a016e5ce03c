import BluetoothTracking
import CaptureFiles
import CaptureModel
import FileAccess
import GoldenDiff
import Handoff
import JSON
import Layouts
import PayloadDecoders
import Readings

/// What `decode`, `check`, `diff` and `golden` decode with: built-in decoders, layouts, options.
struct DecodeSetup {
    var decoderOptions = DecoderOptions()
    var layouts: [Layout] = []
    var only: Set<String>?
    var tracker = Tracker.Options()
    var pipeline = ReadingsPipeline.Options()

    static let options: [OptionSpec] = [
        .value("decoder", "IDS", "Only these decoders (comma-separated ids; see 'bluetape decoders')."),
        .value("layout", "L.json", "Also decode with this layout (repeatable)."),
        .value("layouts", "DIR", "Also decode with every layout in DIR."),
        .value("param", "NAME=VALUE", "Set a layout parameter (repeatable)."),
        .value("envsensor-company", "ID", "Company id of EnvSensor boards (default 0xFFFF; later firmware 0xABCD)."),
        .value("gatt", "MAP.json", "A GATT map for handles whose discovery is not in the capture."),
    ]

    init() {}

    init(_ arguments: ParsedArguments) throws {
        if let company = arguments.value("envsensor-company") {
            guard let value = Self.parseCompany(company) else {
                throw UsageError("--envsensor-company takes a 16-bit id such as 0xABCD, not '\(company)'")
            }
            decoderOptions.envSensorCompany = value
        }
        var parameters: [String: String] = [:]
        for text in arguments.all("param") {
            guard let equals = text.firstIndex(of: "=") else { throw UsageError("--param takes NAME=VALUE, not '\(text)'") }
            parameters[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        var paths = arguments.all("layout")
        for directory in arguments.all("layouts") {
            guard let names = try? WholeFile.list(directory) else { throw InputError("\(directory): not a readable directory") }
            paths += names.filter { $0.hasSuffix(".json") }.map { directory + "/" + $0 }
        }
        try loadLayouts(paths, parameters: parameters)
        let ids = arguments.list("decoder")
        if !ids.isEmpty { only = Set(ids) }
        if let path = arguments.value("gatt") { tracker.gattMap = try GATTMapFile.load(path: path) }
        pipeline.includeUndecoded = arguments.has("all")
        pipeline.allRepeats = arguments.has("all-repeats")
        try checkDecoderIDs()
    }

    /// Options from a golden.json's "decode" section; the files it names are already resolved
    /// against the golden.json's directory.
    init(goldenOptions: [String: String]) throws {
        if let company = goldenOptions["envsensor_company"] {
            guard let value = Self.parseCompany(company) else {
                throw InputError("golden.json: envsensor_company '\(company)' is not a 16-bit id")
            }
            decoderOptions.envSensorCompany = value
        }
        // Layout parameters: "param.NAME": "VALUE".
        var parameters: [String: String] = [:]
        for (key, value) in goldenOptions where key.hasPrefix("param.") { parameters[String(key.dropFirst(6))] = value }
        if let list = goldenOptions["layouts"] {
            try loadLayouts(list.split(separator: ",").map { String($0).trimmed }, parameters: parameters)
        }
        if let ids = goldenOptions["decoders"] { only = Set(ids.split(separator: ",").map { String($0).trimmed }) }
        if let map = goldenOptions["gatt"] { tracker.gattMap = try GATTMapFile.load(path: map) }
        try checkDecoderIDs()
    }

    static func parseCompany(_ text: String) -> UInt16? {
        text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
    }

    /// Loads every layout before any capture is read: a broken layout stops the run (exit 3).
    private mutating func loadLayouts(_ paths: [String], parameters: [String: String]) throws {
        var problems: [String] = []
        for path in paths {
            do {
                let layout = try Layout.load(path: path, parameters: parameters)
                layouts.append(layout)
                if let dedup = layout.dedupKey { pipeline.deduplicate[layout.id] = dedup }
            } catch {
                problems.append(error.description)
            }
        }
        if !problems.isEmpty { throw InputError(problems.joined(separator: "\n")) }
    }

    private func checkDecoderIDs() throws {
        guard let only else { return }
        let known = Set(allDecoders.map(\.id) + [CombustionLogDownloadsID])
        let unknown = only.subtracting(known).sorted()
        if !unknown.isEmpty {
            throw UsageError("unknown decoder \(unknown.joined(separator: ", ")); 'bluetape decoders' lists them")
        }
    }

    var allDecoders: [any PayloadDecoder] { Registry.builtIn(decoderOptions) + layouts }

    var decoderSet: DecoderSet { DecoderSet(allDecoders, only: only) }

    /// Decodes a capture: events through the tracker, readings through the pipeline, in order.
    /// `concurrently`: three stages on three threads (tracking, decoding, and `emit` on this one),
    /// which then sees readings in batches, a little later; `stop` is asked after each reading.
    @discardableResult
    func run(
        _ reader: CaptureReader, filter: EventFilter? = nil, concurrently: Bool, stop: () -> Bool = { false },
        _ emit: (Reading) -> Void
    ) -> Tracker.Statistics {
        guard concurrently, Handoff.isUseful else { return run(reader, filter: filter, stop: stop, emit) }
        return Handoff.run { emitReading, readingsCancelled in
            let decode = Decoding(setup: self)
            var filter = filter
            let statistics = Handoff.run { emitEvent, eventsCancelled in
                EventStream.read(reader, options: tracker, stop: eventsCancelled) { event in
                    if filter != nil, !filter!.accepts(event) { return }
                    emitEvent(event)
                }
            } consume: { event in
                decode.consume(event, emitReading)
                return !readingsCancelled()
            }
            decode.finish(emitReading)
            return statistics
        } consume: { reading in
            emit(reading)
            return !stop()
        }
    }

    /// Decodes a capture on this thread; `stop` is asked before each record.
    @discardableResult
    func run(
        _ reader: CaptureReader, filter: EventFilter? = nil, stop: () -> Bool = { false }, _ emit: (Reading) -> Void
    ) -> Tracker.Statistics {
        let decode = Decoding(setup: self)
        var filter = filter
        let statistics = EventStream.read(reader, options: tracker, stop: stop) { event in
            if filter != nil, !filter!.accepts(event) { return }
            decode.consume(event, emit)
        }
        decode.finish(emit)
        return statistics
    }

    /// The readings pipeline with the `--decoder` selection applied to what comes out.
    struct Decoding {
        let pipeline: ReadingsPipeline
        let only: Set<String>?

        init(setup: DecodeSetup) {
            pipeline = ReadingsPipeline(decoders: setup.decoderSet, options: setup.pipeline)
            only = setup.only
        }

        func consume(_ event: Event, _ emit: (Reading) -> Void) {
            pipeline.consume(event) { reading in if keeps(reading) { emit(reading) } }
        }

        func finish(_ emit: (Reading) -> Void) {
            pipeline.finish { reading in if keeps(reading) { emit(reading) } }
        }

        private func keeps(_ reading: Reading) -> Bool {
            guard let only, let id = reading.decoder else { return true }
            return only.contains(id)
        }
    }

    /// A capture's readings as canonical JSON Lines (what goldens hold).
    func readingsJSONL(path: String) throws -> [UInt8] { try readingsJSONL(try openCapture(path), path: path) }

    /// The same for a capture already open; `damage`: the original's, for a capture scrubbed in memory.
    func readingsJSONL(_ reader: CaptureReader, path: String, damage: CaptureProblem? = nil) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 1 << 16)
        // Concurrently even when several captures are checked at once: the last one then still
        // has every core, and the scheduler shares them out the rest of the time.
        run(reader, concurrently: true) { ReadingJSON.write($0, to: &writer) }
        if let problem = damage ?? reader.problems.items.first {
            throw DamagedCapture(readings: writer.bytes, message: "\(path): \(problem)")
        }
        return writer.bytes
    }
}

/// The id of the summary readings of Combustion log downloads.
let CombustionLogDownloadsID = "combustion.log_download"
