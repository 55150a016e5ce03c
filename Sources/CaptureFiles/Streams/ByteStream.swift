#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a stream of bytes stopped before its end: the one-line reason a person reads.
public struct StreamError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The system could not read (EIO, a closed pipe…).
        case io
        /// Compressed or archived data that cannot be right.
        case damaged
        /// The data ends before its format says it does.
        case truncated
        /// A bound on decompressed bytes, members or memory was passed.
        case limit
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    static func system(_ code: Int32) -> StreamError { StreamError(.io, String(cString: strerror(code))) }
}

/// Bytes read front to back, once: a file, standard input, a decompressor, an archive member.
/// Readers pull from it in large blocks (`InputBuffer`), so one call per block is all it costs.
public protocol ByteStream: AnyObject {
    /// Reads up to `count` bytes into `buffer` and returns how many; 0 only at the end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int
}

/// A file descriptor read with `read(2)`: regular files, pipes, standard input.
final class FileStream: ByteStream {
    let fd: Int32
    private let owned: Bool

    /// `owned`: close `fd` when done (not for standard input).
    init(fd: Int32, owned: Bool = true) {
        self.fd = fd
        self.owned = owned
    }

    deinit {
        if owned { close(fd) }
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        while true {
            let got = readDescriptor(fd, buffer, count)
            if got >= 0 { return got }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                // A non-blocking pipe handed over by the caller: wait for data instead of failing.
                var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&wanted, 1, -1)
                continue
            }
            throw .system(code)
        }
    }
}

/// `read(2)` itself (inside `FileStream`, `read` names its own method).
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Bytes that can be read at any offset: a regular file (`pread`) or memory. Zip archives need it,
/// since their directory is at the end.
protocol RandomAccessBytes: AnyObject {
    var size: Int64 { get }
    /// Reads up to `count` bytes at `offset`; fewer only at the end.
    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int
}

extension RandomAccessBytes {
    /// Exactly `count` bytes at `offset`, or an error saying the archive is cut short.
    func bytes(at offset: Int64, count: Int, what: @autoclosure () -> String) throws(StreamError) -> [UInt8] {
        guard count >= 0, offset >= 0, offset <= size, Int64(count) <= size - offset else {
            throw StreamError(.truncated, "\(what()) lies past the end of the archive")
        }
        var result = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = try withMutableBytes(&result) { buffer throws(StreamError) in
                try read(at: offset + Int64(done), into: buffer.baseAddress! + done, count: count - done)
            }
            if got == 0 { throw StreamError(.truncated, "\(what()) lies past the end of the archive") }
            done += got
        }
        return result
    }
}

/// A regular file read with `pread`, so that several members can be read without a shared position.
final class FileBytes: RandomAccessBytes {
    let fd: Int32
    let size: Int64

    /// Takes ownership of `fd`.
    init(fd: Int32, size: Int64) {
        self.fd = fd
        self.size = size
    }

    deinit { close(fd) }

    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard offset < size else { return 0 }
        let wanted = Int(min(Int64(count), size - offset))
        while true {
            let got = pread(fd, buffer, wanted, off_t(offset))
            if got >= 0 { return got }
            if errno == EINTR { continue }
            throw .system(errno)
        }
    }
}

/// Bytes held in memory (a spooled archive, a nested zip, tests).
final class MemoryBytes: RandomAccessBytes {
    let storage: [UInt8]
    var size: Int64 { Int64(storage.count) }

    init(_ storage: [UInt8]) { self.storage = storage }

    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard offset >= 0, offset < size, count > 0 else { return 0 }
        let n = Int(min(Int64(count), size - offset))
        storage.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) }
        return n
    }
}

/// A window `[start, start + length)` of random-access bytes: a stored zip member, a nested zip.
final class SliceBytes: RandomAccessBytes {
    let base: any RandomAccessBytes
    let start: Int64
    let size: Int64

    init(_ base: any RandomAccessBytes, start: Int64, length: Int64) {
        self.base = base
        self.start = start
        size = max(0, min(length, base.size - start))
    }

    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard offset >= 0, offset < size else { return 0 }
        return try base.read(at: start + offset, into: buffer, count: Int(min(Int64(count), size - offset)))
    }
}

/// Random-access bytes read front to back from `offset`, for `length` bytes.
final class RangeStream: ByteStream {
    private let bytes: any RandomAccessBytes
    private var position: Int64
    private let end: Int64

    init(_ bytes: any RandomAccessBytes, offset: Int64, length: Int64) {
        self.bytes = bytes
        position = offset
        end = offset + max(0, length)
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard position < end else { return 0 }
        let got = try bytes.read(at: position, into: buffer, count: Int(min(Int64(count), end - position)))
        if got == 0 { throw StreamError(.truncated, "the archive ends inside a member") }
        position += Int64(got)
        return got
    }
}

/// How much a capture may expand to, and how much of it may be held: one budget per opened capture,
/// shared by every decompressor and archive reader under it, so nesting cannot multiply it.
public struct ArchiveLimits: Sendable, Hashable {
    /// Decompressed bytes read in all (every gzip layer and archive member together).
    public var decompressedBytes: Int64 = 64 << 30
    /// Bytes of an archive held in memory: a zip read from standard input or from inside a
    /// compressed layer, a compressed zip inside a zip.
    public var spooledBytes: Int = 256 << 20
    /// Members listed in one archive.
    public var members: Int = 200_000
    /// Bytes of a bug report's text scanned for its BTSNOOP_LOG_SUMMARY section.
    public var textScanBytes: Int64 = 4 << 30
    /// Bytes of a btsnooz ring after inflating (Android's ring holds 256 KiB).
    public var snoozBytes: Int = 64 << 20

    public init() {}
}

/// The decompressed bytes an opened capture has used of its limit.
final class DecompressionBudget {
    let limit: Int64
    private(set) var used: Int64 = 0

    init(limit: Int64) { self.limit = limit }

    /// Charges `count` new bytes and says how many of them are within the limit: all of them until
    /// it is reached, then those up to it (the reader passes them on and fails with `exceeded` on
    /// its next read), then none (it throws).
    func charge(_ count: Int, in name: String) throws(StreamError) -> Int {
        let room = limit - used
        if Int64(count) <= room {
            used += Int64(count)
            return count
        }
        guard room > 0 else { throw exceeded(in: name) }
        used = limit
        return Int(room)
    }

    func exceeded(in name: String) -> StreamError {
        StreamError(
            .limit,
            "\(name) expands past \(ByteCount(limit)) of decompressed data, the limit: refusing to read further "
                + "(a compression bomb, or a capture larger than any real one)")
    }
}

/// A byte count for messages: "64 GiB", "256 MiB", "1,234 bytes".
struct ByteCount: CustomStringConvertible {
    var value: Int64
    init(_ value: Int64) { self.value = value }
    init(_ value: Int) { self.value = Int64(value) }

    var description: String {
        for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] where value >= 1 << shift {
            if value % (1 << shift) == 0 { return "\(value >> shift) \(unit)" }
        }
        return "\(value) bytes"
    }
}

/// `body` over an array's bytes, keeping its typed error: the standard library's
/// `withUnsafeBytes` rethrows untyped.
func withBytes<E: Error, R>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    do {
        return try array.withUnsafeBytes { try body($0) }
    } catch {
        throw error as! E
    }
}

/// `body` over an array's bytes, to write them, keeping its typed error.
func withMutableBytes<E: Error, R>(_ array: inout [UInt8], _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
    do {
        return try array.withUnsafeMutableBytes { try body($0) }
    } catch {
        throw error as! E
    }
}

/// The offset of the first `needle` in `haystack`, or nil.
func firstOffset(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
    guard let first = needle.first, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
    var index = 0
    let last = haystack.count - needle.count
    while index <= last {
        guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
        let at = UnsafeRawPointer(hit) - base
        if needle.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, needle.count) }) == 0 { return at }
        index = at + 1
    }
    return nil
}
