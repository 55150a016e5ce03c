import CaptureModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A window onto a file (or onto bytes in memory) that readers walk with large reads.
///
/// Memory stays flat: the window holds at most one megabyte plus the largest record.
final class InputBuffer {
    private let fd: Int32
    @exclusivity(unchecked) private var storage: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEOF = false
    /// File offset of the first unread byte.
    @exclusivity(unchecked) private(set) var offset: Int64 = 0
    /// Set when a read fails with an I/O error.
    @exclusivity(unchecked) private(set) var readError: String?

    static let windowSize = 1 << 20

    /// Takes ownership of `fd` and closes it when done.
    init(fd: Int32) {
        self.fd = fd
        capacity = Self.windowSize
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    init(bytes: [UInt8]) {
        fd = -1
        capacity = max(bytes.count, 1)
        storage = .allocate(byteCount: capacity, alignment: 16)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        end = bytes.count
        atEOF = true
    }

    deinit {
        storage.deallocate()
        if fd >= 0 { close(fd) }
    }

    /// Bytes available without reading.
    var available: Int { end - start }

    /// Makes at least `n` bytes available; false when the file ends first.
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
        while end - start < n {
            let got = read(fd, storage + end, capacity - end)
            if got > 0 {
                end += got
            } else if got == 0 {
                atEOF = true
                return false
            } else if errno == EINTR {
                continue
            } else {
                readError = String(cString: strerror(errno))
                atEOF = true
                return false
            }
        }
        return true
    }

    /// The unread bytes from `at` on; only the first `available - at` are valid.
    @inline(__always)
    func pointer(at index: Int = 0) -> UnsafeRawPointer {
        UnsafeRawPointer(storage + start + index)
    }

    @inline(__always)
    func bytes(at index: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + start + index, count: count)
    }

    @inline(__always)
    func consume(_ n: Int) {
        start += n
        offset += Int64(n)
    }

    @inline(__always)
    func u32be(at index: Int) -> UInt32 {
        UInt32(bigEndian: pointer(at: index).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    func u32le(at index: Int) -> UInt32 {
        UInt32(littleEndian: pointer(at: index).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    func u64be(at index: Int) -> UInt64 {
        UInt64(bigEndian: pointer(at: index).loadUnaligned(as: UInt64.self))
    }

    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        pointer(at: index).load(as: UInt8.self)
    }
}

/// Opens `path` for reading without blocking on FIFOs, and refuses anything but a regular file.
func openCaptureFile(_ path: String) throws(CaptureError) -> Int32 {
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
        let what: String
        switch type {
        case S_IFDIR: what = "a directory"
        case S_IFIFO: what = "a FIFO"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFSOCK: what = "a socket"
        default: what = "not a regular file"
        }
        throw .notARegularFile(path: path, what: what)
    }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
    if info.st_size == 0 {
        close(fd)
        throw .empty(path: path)
    }
    return fd
}
