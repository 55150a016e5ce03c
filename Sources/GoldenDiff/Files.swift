#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input or output problem with a file, worded for the person running the command.
public struct GoldenError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Small file-system helpers: whole-file reads with one copy, and atomic replacement.
public enum Files {
    /// The whole file, read into one buffer sized from `fstat`. Only a regular file is read: a FIFO
    /// would wait for a writer (so it is opened without blocking) and a device may never end.
    public static func read(_ path: String) throws(GoldenError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw GoldenError("\(path): \(reason(errno))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw GoldenError("\(path): \(reason(errno))") }
        if info.st_mode & S_IFMT == S_IFDIR { throw GoldenError("\(path): is a directory") }
        if info.st_mode & S_IFMT != S_IFREG { throw GoldenError("\(path): is not a regular file") }
        // One byte more than the size shows the end without a second read; a file that grew meanwhile
        // is read on in chunks.
        let expected = max(Int(info.st_size), 0) + 1
        var bytes = try readChunk(fd, path, capacity: expected)
        guard bytes.count == expected else { return bytes }
        while case let more = try readChunk(fd, path, capacity: 1 << 16), !more.isEmpty {
            bytes.append(contentsOf: more)
        }
        return bytes
    }

    private static func readChunk(_ fd: Int32, _ path: String, capacity: Int) throws(GoldenError) -> [UInt8] {
        var failure: Int32 = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var n = 0
            while n < capacity {
                let r = systemRead(fd, buffer.baseAddress! + n, capacity - n)
                if r < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if r == 0 { break }
                n += r
            }
            count = n
        }
        if failure != 0 { throw GoldenError("\(path): \(reason(failure))") }
        return chunk
    }

    /// Replaces `path` with `bytes` so a reader sees the old file or the new one, never a part:
    /// the bytes go to a temporary file in the same directory, which is then renamed over it.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(GoldenError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw GoldenError("\(path): cannot write: \(reason(errno))") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        var existing = stat()
        fchmod(fd, stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)  // mkstemp makes it 0600
        close(fd)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw GoldenError("\(path): cannot write: \(reason(failure))")
        }
    }

    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The size in bytes; nil when the file cannot be examined.
    public static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// A directory's device and inode: the same for every path (and symbolic link) that leads to it.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    static func directoryID(_ path: String) -> DirectoryID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Names in a directory, sorted, without `.` and `..`.
    static func list(_ directory: String) throws(GoldenError) -> [String] {
        guard let dir = opendir(directory) else { throw GoldenError("\(directory): \(reason(errno))") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
