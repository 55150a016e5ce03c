import CaptureModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A window onto a stream (a file, standard input, a decompressor, an archive member) or onto bytes
/// in memory, that readers walk with large reads.
///
/// Memory stays flat: the window holds at most one megabyte plus the largest record. Every read of
/// a value is checked against what `fill` made available, in release builds too: a reader that
/// forgot to fill stops with a precondition failure instead of reading past the window.
final class InputBuffer: ByteStream {
    private let source: (any ByteStream)?
    @exclusivity(unchecked) private var storage: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEOF = false
    /// Offset in the stream of the first unread byte.
    @exclusivity(unchecked) private(set) var offset: Int64 = 0
    /// Set when reading failed: an I/O error, damaged compressed data, a limit passed.
    @exclusivity(unchecked) private(set) var failure: StreamError?
    /// The failure's one-line reason.
    var readError: String? { failure?.message }

    static let windowSize = 1 << 20

    init(stream: any ByteStream) {
        source = stream
        capacity = Self.windowSize
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    /// Takes ownership of `fd` and closes it when done.
    convenience init(fd: Int32) {
        self.init(stream: FileStream(fd: fd))
    }

    init(bytes: [UInt8]) {
        source = nil
        capacity = max(bytes.count, 1)
        storage = .allocate(byteCount: capacity, alignment: 16)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        end = bytes.count
        atEOF = true
    }

    deinit {
        storage.deallocate()
    }

    /// Bytes available without reading.
    var available: Int { end - start }

    /// Makes at least `n` bytes available; false when the stream ends first.
    @inline(__always)
    func fill(_ n: Int) -> Bool {
        if end - start >= n { return true }
        return refill(n)
    }

    private func refill(_ n: Int) -> Bool {
        if atEOF { return false }
        if start > 0 {
            let live = end - start
            if live > 0 { memmove(storage, storage + start, live) }
            start = 0
            end = live
        }
        if n > capacity {
            let grown = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
            grown.copyMemory(from: storage, byteCount: end)
            storage.deallocate()
            storage = grown
            capacity = n
        }
        guard let source else {
            atEOF = true
            return false
        }
        while end - start < n {
            do {
                let got = try source.read(into: storage + end, count: capacity - end)
                if got == 0 {
                    atEOF = true
                    return false
                }
                end += got
            } catch {
                failure = error
                atEOF = true
                return false
            }
        }
        return true
    }

    /// The first `count` unread bytes (fewer when the stream is shorter), without consuming them.
    func peek(_ count: Int) -> [UInt8] {
        _ = fill(count)
        return [UInt8](bytes(at: 0, count: min(count, available)))
    }

    /// `width` bytes at `index` lie inside what is available (`end - start - width` may be negative:
    /// then no index passes).
    @inline(__always)
    private func check(_ index: Int, _ width: Int) {
        precondition(index >= 0 && index <= end - start - width, "read past the input window")
    }

    @inline(__always)
    func bytes(at index: Int, count: Int) -> UnsafeRawBufferPointer {
        precondition(count >= 0, "negative byte count")
        check(index, count)
        return UnsafeRawBufferPointer(start: storage + start + index, count: count)
    }

    @inline(__always)
    func consume(_ n: Int) {
        precondition(n >= 0 && n <= end - start, "consumed past the input window")
        start += n
        offset += Int64(n)
    }

    @inline(__always)
    func u16le(at index: Int) -> UInt16 {
        check(index, 2)
        return UInt16(littleEndian: (storage + start + index).loadUnaligned(as: UInt16.self))
    }

    @inline(__always)
    func u32be(at index: Int) -> UInt32 {
        check(index, 4)
        return UInt32(bigEndian: (storage + start + index).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    func u32le(at index: Int) -> UInt32 {
        check(index, 4)
        return UInt32(littleEndian: (storage + start + index).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    func u64be(at index: Int) -> UInt64 {
        check(index, 8)
        return UInt64(bigEndian: (storage + start + index).loadUnaligned(as: UInt64.self))
    }

    @inline(__always)
    func u64le(at index: Int) -> UInt64 {
        check(index, 8)
        return UInt64(littleEndian: (storage + start + index).loadUnaligned(as: UInt64.self))
    }

    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        check(index, 1)
        return (storage + start + index).load(as: UInt8.self)
    }

    /// The rest of the stream, as a stream: the bytes already in the window first, then the source
    /// read directly. A reader handed this (libpcap, a decompressor) sees the stream from where this
    /// buffer stands, sniffed bytes included.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        if available > 0 {
            let n = min(available, count)
            buffer.copyMemory(from: storage + start, byteCount: n)
            consume(n)
            return n
        }
        if let failure { throw failure }
        guard !atEOF, let source else { return 0 }
        do {
            let got = try source.read(into: buffer, count: count)
            offset += Int64(got)
            if got == 0 { atEOF = true }
            return got
        } catch {
            failure = error
            atEOF = true
            throw error
        }
    }
}

/// Opens `path` for reading without blocking on FIFOs, and refuses anything but a regular file.
/// Returns the descriptor and the file's size.
func openCaptureFile(_ path: String) throws(CaptureError) -> (fd: Int32, size: Int64) {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    if fd < 0 {
        let code = errno
        if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
        throw .notReadable(path: path, reason: String(cString: strerror(code)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw .notReadable(path: path, reason: reason)
    }
    let type = info.st_mode & S_IFMT
    if type != S_IFREG {
        close(fd)
        throw .notARegularFile(path: path, what: fileTypeName(type))
    }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
    if info.st_size == 0 {
        close(fd)
        throw .empty(path: path)
    }
    return (fd, Int64(info.st_size))
}

/// "a directory", "a FIFO"…: what a path that is not a regular file is.
func fileTypeName(_ type: mode_t) -> String {
    switch type {
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
}
