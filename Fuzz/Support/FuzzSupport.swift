// Shared by every fuzz target: reading a whole capture the way the pipeline does, and checks that
// hold for any input. A broken check calls `fuzzFailure`, which aborts so libFuzzer keeps the input.

import CaptureFiles
import CaptureModel

#if canImport(Glibc)
    import Glibc
#endif

/// Stops the run: libFuzzer saves the input as a crash artifact.
func fuzzFailure(_ message: String) -> Never {
    let text = Array("fuzz check failed: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// The input as an array the code under test can own.
func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// Reads every record of `reader`, touching every payload byte (so the sanitizer sees any read past
/// the record), and checks what must hold for any file: frames grow, payloads stay under the
/// record maximum, problems are located inside the file.
@inline(never)
func drain(_ reader: CaptureReader, fileSize: Int) {
    var lastFrame = 0
    var checksum: UInt8 = 0
    while let record = reader.next() {
        if record.frame <= lastFrame { fuzzFailure("frame \(record.frame) after \(lastFrame)") }
        lastFrame = record.frame
        if record.payload.count > maximumRecordLength + 64 {
            fuzzFailure("payload of \(record.payload.count) bytes in frame \(record.frame)")
        }
        if record.fileOffset < 0 || record.fileOffset >= Int64(max(fileSize, 1)) {
            fuzzFailure("record offset \(record.fileOffset) outside a file of \(fileSize) bytes")
        }
        for byte in record.payload { checksum &+= byte }
        _ = record.stored()
    }
    for problem in reader.problems.items {
        if problem.offset < 0 || problem.offset > Int64(fileSize) {
            fuzzFailure("problem at offset \(problem.offset) outside a file of \(fileSize) bytes: \(problem)")
        }
        _ = problem.description
    }
    if reader.problems.items.count > 1000 { fuzzFailure("problem log kept \(reader.problems.items.count) items") }
    blackHole(checksum)
}

/// Reads every record of a capture that came out of an archive or a decompressor: the same checks
/// as `drain`, but offsets count in the decompressed member, not in the input.
@inline(never)
func drainDecompressed(_ reader: CaptureReader) {
    var lastFrame = 0
    var checksum: UInt8 = 0
    while let record = reader.next() {
        if record.frame <= lastFrame { fuzzFailure("frame \(record.frame) after \(lastFrame)") }
        lastFrame = record.frame
        if record.payload.count > maximumRecordLength + 64 {
            fuzzFailure("payload of \(record.payload.count) bytes in frame \(record.frame)")
        }
        if record.fileOffset < 0 { fuzzFailure("record offset \(record.fileOffset)") }
        for byte in record.payload { checksum &+= byte }
        _ = record.stored()
    }
    for problem in reader.problems.items {
        if problem.offset < 0 { fuzzFailure("problem at offset \(problem.offset): \(problem)") }
        _ = problem.description
    }
    if reader.problems.items.count > 1000 { fuzzFailure("problem log kept \(reader.problems.items.count) items") }
    let contents = reader.contents
    _ = contents.found.map(\.name) + contents.read + contents.notes
    blackHole(checksum)
}

/// Small bounds, so that an input cannot make one execution slow: what a fuzzer finds past them
/// is the limit's error, which is the behaviour wanted.
let fuzzLimits: ArchiveLimits = {
    var limits = ArchiveLimits()
    limits.decompressedBytes = 64 << 20
    limits.spooledBytes = 16 << 20
    limits.members = 10_000
    limits.textScanBytes = 16 << 20
    limits.snoozBytes = 8 << 20
    return limits
}()

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
