#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a capture file into readings JSONL, one canonical reading per line. The decoding
/// pipeline is supplied by the caller; `options` come from the `decode` section of golden.json.
public typealias CaptureDecoder = @Sendable (_ path: String, _ options: [String: String]) throws -> [UInt8]

/// Where readings come from: a readings file as it is, or a capture decoded on the fly.
public enum ReadingsSource {
    /// Readings as text, from a file that is either readings or a capture: a readings file's first
    /// non-blank byte is `{`, and an empty file is readings too (a capture that decoded to nothing).
    public static func load(
        _ path: String, options: [String: String], decode: CaptureDecoder
    ) throws(GoldenError) -> ReadingLines {
        if try isReadingsFile(path) { return ReadingLines(try Files.read(path)) }
        return ReadingLines(try decodeCapture(path, options: options, decode: decode))
    }

    /// The capture's readings; decoder failures become errors that name the capture.
    public static func decodeCapture(
        _ path: String, options: [String: String], decode: CaptureDecoder
    ) throws(GoldenError) -> [UInt8] {
        do {
            return try decode(path, options)
        } catch let error as GoldenError {
            throw error
        } catch {
            let message = "\(error)"
            throw GoldenError(message.hasPrefix(path) ? message : "\(path): \(message)")
        }
    }

    /// Looks only as far as the first non-blank byte, so a large capture is not read twice.
    static func isReadingsFile(_ path: String) throws(GoldenError) -> Bool {
        // Without blocking: a FIFO would wait for a writer. What is not a regular file is no readings
        // file; the capture reader then says what it is.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw GoldenError("\(path): \(Files.reason(errno))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw GoldenError("\(path): \(Files.reason(errno))")
            }
            if count == 0 { return true }
            if let first = chunk[0..<count].first(where: { !isBlank($0) }) { return first == UInt8(ascii: "{") }
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
