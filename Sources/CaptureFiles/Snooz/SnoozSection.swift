import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The btsnooz ring of an Android bug report or a saved `dumpsys bluetooth_manager`: found anywhere
/// in the text, base64-decoded and inflated as the text streams past.
///
/// ```
/// --- BEGIN:BTSNOOP_LOG_SUMMARY (11586 bytes in) ---
/// AgAAAA… (base64, lines of 128 characters)
/// --- END:BTSNOOP_LOG_SUMMARY ---
/// ```
///
/// After base64: version (1 or 2), the last record's time (u64 µs since the Unix epoch, little-endian),
/// then a zlib stream holding the records, oldest first.
struct SnoozSection {
    static let beginMarker = Array("--- BEGIN:BTSNOOP_LOG_SUMMARY".utf8)
    static let endMarker = Array("--- END:BTSNOOP_LOG_SUMMARY".utf8)

    var version: SnoozReader.Version
    /// The inflated records.
    var records: [UInt8]
    /// The size the section's header declares ("11586 bytes in"), when it does.
    var declaredSize: Int?
    /// The preamble's last timestamp as stored (little-endian), and as the date chosen.
    var storedTimestamp: UInt64
    var lastTimestamp: Int64
    /// Why the time was read as it was, when it is not the plain little-endian date.
    var timeWarning: String?
    /// Offset of the section's first line in the text.
    var textOffset: Int64

    /// µs of 2005-01-01 and 2100-01-01: a ring's last record lies between them (btsnooz came with
    /// Android 5, in 2014).
    static let plausibleTimes: ClosedRange<UInt64> = 1_104_537_600_000_000...4_102_444_800_000_000

    /// The first record's time: the last timestamp less every delta.
    var firstTime: Int64 { lastTimestamp &- SnoozReader.sumOfDeltas(records, version: version) }

    /// Reads `input` (text) up to the end of its first BTSNOOP_LOG_SUMMARY section; nil when the
    /// text holds none. Throws when the section is damaged or passes a limit.
    static func find(in input: InputBuffer, name: String, limits: ArchiveLimits) throws(CaptureError) -> SnoozSection? {
        guard let textOffset = try skip(to: beginMarker, in: input, name: name, limit: limits.textScanBytes) else {
            return nil
        }
        let header = try line(input, name: name)
        var decoder = Base64Decoder()
        var preamble: [UInt8] = []
        var inflater: Inflater?
        var records: [UInt8] = []
        var ended = false
        let chunk = 1 << 16
        var output = [UInt8](repeating: 0, count: chunk)
        func fail(_ reason: String) -> CaptureError {
            .archive(path: name, reason: "the BTSNOOP_LOG_SUMMARY section at text offset \(textOffset) \(reason)")
        }
        // Base64 until the end marker (a line starting with '-'); the zlib stream may end earlier.
        var reachedEndMarker = false
        while !ended, !reachedEndMarker {
            guard input.fill(1) else {
                if inflater == nil { throw fail("ends before its data") }
                throw fail("ends before its zlib stream does (the text is cut short)")
            }
            let window = input.bytes(at: 0, count: min(input.available, chunk))
            var decoded: [UInt8] = []
            var used = 0
            for byte in window {
                if byte == UInt8(ascii: "-"), decoder.atLineStart {
                    reachedEndMarker = true
                    break
                }
                used += 1
                guard decoder.take(byte, into: &decoded) else {
                    throw fail("holds a byte (0x\(String(byte, radix: 16))) that is not base64")
                }
            }
            input.consume(used)
            var bytes = decoded[...]
            if preamble.count < 9 {
                let take = min(9 - preamble.count, bytes.count)
                preamble += bytes.prefix(take)
                bytes = bytes.dropFirst(take)
                if preamble.count == 9 {
                    guard SnoozReader.Version(rawValue: preamble[0]) != nil else {
                        throw fail("is btsnooz version \(preamble[0]); versions 1 and 2 are read")
                    }
                    do { inflater = try Inflater(.zlib) } catch { throw fail(error.message) }
                }
            }
            guard let inflater, !bytes.isEmpty else { continue }
            let compressed = Array(bytes)
            var consumed = 0
            while consumed < compressed.count || !ended {
                let step: Inflater.Step
                do {
                    step = try withBytes(compressed) { source throws(StreamError) in
                        try withMutableBytes(&output) { target throws(StreamError) in
                            try inflater.inflate(
                                UnsafeRawBufferPointer(rebasing: source[consumed...]), into: target.baseAddress!,
                                capacity: chunk)
                        }
                    }
                } catch {
                    throw fail(error.message)
                }
                consumed += step.consumed
                records += output.prefix(step.produced)
                if records.count > limits.snoozBytes {
                    throw .limit(
                        path: name,
                        reason: "its btsnooz ring inflates past \(ByteCount(limits.snoozBytes)), the limit (Android's holds 256 KiB)")
                }
                if step.ended { ended = true }
                if step.produced == 0, step.consumed == 0 { break }
            }
        }
        guard preamble.count == 9, ended || !records.isEmpty else {
            throw fail(preamble.count < 9 ? "ends before its data" : "ends before its zlib stream does")
        }
        let version = SnoozReader.Version(rawValue: preamble[0])!
        let stored = preamble[1...8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var section = SnoozSection(
            version: version, records: records, declaredSize: declaredSize(header), storedTimestamp: stored,
            lastTimestamp: Int64(bitPattern: stored), textOffset: textOffset)
        if !plausibleTimes.contains(stored) {
            let swapped = stored.byteSwapped
            if plausibleTimes.contains(swapped) {
                section.lastTimestamp = Int64(bitPattern: swapped)
                section.timeWarning = "the btsnooz preamble's last timestamp is read big-endian: little-endian it is no plausible date"
            } else {
                section.timeWarning =
                    "the btsnooz preamble's last timestamp (0x\(String(stored, radix: 16))) is no plausible date in either byte order: times are as stored, little-endian"
            }
        }
        if !ended {
            section.timeWarning = (section.timeWarning.map { $0 + "; " } ?? "") + "the section's zlib stream does not end"
        }
        return section
    }

    /// "(11586 bytes in)" or "(11586 bytes out)".
    private static func declaredSize(_ header: [UInt8]) -> Int? {
        let text = String(decoding: header, as: UTF8.self)
        guard let open = text.firstIndex(of: "(") else { return nil }
        let digits = text[text.index(after: open)...].prefix { $0.isNumber }
        return Int(digits)
    }

    /// Consumes the rest of the current line, newline included; returns it without the newline.
    private static func line(_ input: InputBuffer, name: String) throws(CaptureError) -> [UInt8] {
        var result: [UInt8] = []
        while input.fill(1) {
            let byte = input.byte(at: 0)
            input.consume(1)
            if byte == UInt8(ascii: "\n") { return result }
            if result.count < 256 { result.append(byte) }
        }
        if let failure = input.failure { throw .archive(path: name, reason: failure.message) }
        return result
    }

    /// Consumes `input` up to the first `marker`; returns the marker's offset, or nil when the
    /// text ends without it. A read failure (damaged compressed text) is thrown.
    static func skip(to marker: [UInt8], in input: InputBuffer, name: String, limit: Int64) throws(CaptureError) -> Int64? {
        let start = input.offset
        while input.fill(marker.count) {
            let window = input.bytes(at: 0, count: input.available)
            if let found = firstOffset(of: marker, in: window) {
                input.consume(found)
                return input.offset
            }
            input.consume(window.count - (marker.count - 1))
            if input.offset - start > limit {
                throw .limit(path: name, reason: "no BTSNOOP_LOG_SUMMARY section in its first \(ByteCount(limit)) of text, the limit")
            }
        }
        if let failure = input.failure { throw .archive(path: name, reason: failure.message) }
        return nil
    }
}

/// Base64 (RFC 4648) decoded a byte at a time; line breaks and other white space are skipped.
struct Base64Decoder {
    private var bits: UInt32 = 0
    private var count = 0
    /// The last byte taken ended a line (or none was taken yet).
    private(set) var atLineStart = true

    /// Takes one byte of text; false when it is not base64.
    mutating func take(_ byte: UInt8, into output: inout [UInt8]) -> Bool {
        let value: UInt32
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): value = 62
        case UInt8(ascii: "/"): value = 63
        case UInt8(ascii: "="):
            // Padding ends a group of two or three characters: one or two bytes more.
            if count == 2 {
                output.append(UInt8(truncatingIfNeeded: bits >> 4))
            } else if count == 3 {
                output.append(UInt8(truncatingIfNeeded: bits >> 10))
                output.append(UInt8(truncatingIfNeeded: bits >> 2))
            }
            bits = 0
            count = 0
            atLineStart = false
            return true
        case UInt8(ascii: "\n"):
            atLineStart = true
            return true
        case UInt8(ascii: "\r"), UInt8(ascii: " "), UInt8(ascii: "\t"):
            return true
        default:
            return false
        }
        atLineStart = false
        bits = bits << 6 | value
        count += 1
        if count == 4 {
            output.append(UInt8(truncatingIfNeeded: bits >> 16))
            output.append(UInt8(truncatingIfNeeded: bits >> 8))
            output.append(UInt8(truncatingIfNeeded: bits))
            bits = 0
            count = 0
        }
        return true
    }
}
