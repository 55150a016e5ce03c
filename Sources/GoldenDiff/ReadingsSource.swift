#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import FileAccess
import SystemIO

/// Decodes a capture file into readings JSONL, one canonical reading per line, handing the text to
/// `write` in pieces as it is made, in order (a check compares them as they come, without holding a
/// second copy of a large golden). The decoding pipeline is supplied by the caller; `options` come
/// from the `decode` section of golden.json.
public typealias CaptureDecoder =
    @Sendable (_ path: String, _ options: [String: String], _ write: (UnsafeRawBufferPointer) -> Void) throws -> Void

/// Thrown by a `CaptureDecoder` for a capture damaged part way, after it has written the readings of
/// every record that could be read: what was wrong. `diff` compares those readings and reports the
/// damage; `golden check` and `update` refuse the capture, since a golden must come from a whole one.
public struct DamagedCapture: Error, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
}

/// Where readings come from: a readings file as it is, or a capture decoded on the fly.
public enum ReadingsSource {
    /// Readings as text, from a file that is either readings or a capture: a readings file's first
    /// non-blank byte is `{`, and an empty file is readings too (a capture that decoded to nothing).
    /// `damage` is set when a capture was read only in part; the readings of what was read are
    /// still returned.
    public static func load(
        _ path: String, options: [String: String], decode: CaptureDecoder, damage: inout String?
    ) throws(GoldenError) -> ReadingLines {
        if try isReadingsFile(path) { return ReadingLines(try Files.read(path)) }
        let decoded = try decodeCaptureKeepingDamage(path, options: options, decode: decode)
        damage = decoded.damage
        return ReadingLines(decoded.readings)
    }

    /// The capture's readings; decoder failures, damage included, become errors that name the capture.
    public static func decodeCapture(
        _ path: String, options: [String: String], decode: CaptureDecoder
    ) throws(GoldenError) -> [UInt8] {
        var readings: [UInt8] = []
        try stream(path, options: options, decode: decode) { readings.append(contentsOf: $0) }
        return readings
    }

    /// The capture's readings handed to `write` as they are made; failures as in `decodeCapture`.
    public static func stream(
        _ path: String, options: [String: String], decode: CaptureDecoder, _ write: (UnsafeRawBufferPointer) -> Void
    ) throws(GoldenError) {
        if let damage = try streamKeepingDamage(path, options: options, decode: decode, write) {
            throw GoldenError(damage)
        }
    }

    static func decodeCaptureKeepingDamage(
        _ path: String, options: [String: String], decode: CaptureDecoder
    ) throws(GoldenError) -> (readings: [UInt8], damage: String?) {
        var readings: [UInt8] = []
        let damage = try streamKeepingDamage(path, options: options, decode: decode) { readings.append(contentsOf: $0) }
        return (readings, damage)
    }

    /// What was wrong with a capture read only in part (its readings are written all the same).
    private static func streamKeepingDamage(
        _ path: String, options: [String: String], decode: CaptureDecoder, _ write: (UnsafeRawBufferPointer) -> Void
    ) throws(GoldenError) -> String? {
        func named(_ message: String) -> String { message.hasPrefix(path) ? message : "\(path): \(message)" }
        do {
            try withoutActuallyEscaping(write) { write in try decode(path, options, write) }
            return nil
        } catch let damaged as DamagedCapture {
            return named(damaged.message)
        } catch let error as GoldenError {
            throw error
        } catch {
            throw GoldenError(named("\(error)"))
        }
    }

    /// Looks only as far as the first non-blank byte, so a large capture is not read twice.
    static func isReadingsFile(_ path: String) throws(GoldenError) -> Bool {
        // Without blocking: a FIFO would wait for a writer. What is not a regular file is no readings
        // file; the capture reader then says what it is.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw GoldenError("\(path): \(FileError.reason(errno))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        var first = true
        while true {
            var failure: SystemError?
            let count = chunk.withUnsafeMutableBytes { raw -> Int in
                do throws(SystemError) {
                    return try SystemIO.read(fd, into: raw.baseAddress!, count: raw.count)
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw GoldenError("\(path): \(failure.reason)") }
            if count == 0 { return true }
            // A byte order mark before the first line (some editors write one) is skipped.
            let start =
                first
                ? chunk.withUnsafeBufferPointer {
                    ReadingLines.byteOrderMarkLength(UnsafeBufferPointer(rebasing: $0[0..<count]))
                } : 0
            first = false
            if let byte = chunk[start..<count].first(where: { !isBlank($0) }) { return byte == UInt8(ascii: "{") }
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
