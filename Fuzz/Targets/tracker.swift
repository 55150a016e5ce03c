// The tracker fed record sequences (Tests/RobustnessTests/RecordScript.swift), then everything downstream of
// it: each event written as JSON and as text, and run through the built-in decoders as readings.
//
// Seeds: when BLUETAPE_FUZZ_SEED_CAPTURES names a directory and BLUETAPE_FUZZ_SEED_OUT another,
// every capture in the first is converted into this format into the second before fuzzing
// (scripts/fuzz does this for captures/ and ../shared/captures).

import BluetoothTracking
import CaptureFiles
import CaptureModel
import PcapFiles
import EventOutput
import JSON
import PayloadDecoders
import Readings

#if canImport(Glibc)
    import Glibc
#endif

private let decoders = DecoderSet(Registry.builtIn)

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    guard let from = getenv("BLUETAPE_FUZZ_SEED_CAPTURES").map({ String(cString: $0) }),
        let to = getenv("BLUETAPE_FUZZ_SEED_OUT").map({ String(cString: $0) })
    else { return 0 }
    guard let directory = opendir(from) else { return 0 }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard !name.hasPrefix("."), let reader = try? CaptureReader(path: from + "/" + name, formats: [PcapFormat()]) else { continue }
        var records: [StoredRecord] = []
        while records.count < 2000, let record = reader.next() { records.append(record.stored()) }
        // Several windows of each capture, so later parts (connections, notifications) are seeds too.
        for (part, start) in stride(from: 0, to: records.count, by: 400).enumerated() {
            let bytes = RecordScript.encode(Array(records[start...]), limit: 8192)
            guard !bytes.isEmpty, let file = fopen(to + "/" + name + ".\(part)", "wb") else { continue }
            fwrite(bytes, 1, bytes.count, file)
            fclose(file)
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let records = RecordScript.records(fuzzBytes(data, size))
    let tracker = Tracker()
    let readings = ReadingsPipeline(decoders: decoders)
    var text = EventText()
    var writer = JSONWriter(capacity: 4096)
    var lastFrame = 0
    let handle: (Event) -> Void = { event in
        if event.frame < lastFrame { fuzzFailure("event of frame \(event.frame) after frame \(lastFrame)") }
        lastFrame = event.frame
        EventJSON.write(event, to: &writer)
        text.write(event, to: &writer)
        readings.consume(event) { reading in ReadingJSON.write(reading, to: &writer) }
        if writer.count > 1 << 20 { writer.reset() }
    }
    for record in records {
        record.withRecord { tracker.consume($0, handle) }
    }
    tracker.finish(handle)
    readings.finish { reading in ReadingJSON.write(reading, to: &writer) }
    _ = tracker.learnedDatabases
    blackHole(writer.bytes.count)
    return 0
}
