import SystemIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read: the system's error number when there is one, and words for it.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// The errno behind the failure; 0 when the file was readable but not acceptable (a directory,
    /// a FIFO or device, too large).
    public var code: Int32
    public var reason: String

    public init(path: String, code: Int32 = 0, reason: String) {
        self.path = path
        self.code = code
        self.reason = reason
    }

    init(path: String, code: Int32) {
        self.init(path: path, code: code, reason: Self.reason(code))
    }

    public var description: String { "\(path): \(reason)" }

    /// The system's words for an errno, in lower case to follow a path and a colon.
    public static func reason(_ code: Int32) -> String { SystemIO.reason(code) }
}

/// Small files (layouts, scenarios, GATT maps, goldens, readings) read whole, and directories listed.
public enum WholeFile {
    /// The whole file, read into one buffer sized from `fstat`. Only a regular file is read: a FIFO
    /// would wait for a writer (so it is opened without blocking) and a device may never end.
    public static func read(_ path: String, limit: Int = .max) throws(FileError) -> [UInt8] {
        let (fd, info) = try openRegularFile(path)
        defer { close(fd) }
        let size = limit >= 1 << 20 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        let tooLarge = FileError(path: path, reason: "larger than \(size)")
        guard Int(info.st_size) <= limit else { throw tooLarge }
        // One byte more than the size shows the end without a second read; a file that grew meanwhile
        // is read on in chunks.
        let expected = max(Int(info.st_size), 0) + 1
        var bytes = try readChunk(fd, path, capacity: expected)
        guard bytes.count == expected else { return bytes }
        while case let more = try readChunk(fd, path, capacity: 1 << 16), !more.isEmpty {
            bytes.append(contentsOf: more)
            if bytes.count > limit { throw tooLarge }
        }
        return bytes
    }

    /// Names in a directory, sorted, without `.` and `..`.
    public static func list(_ directory: String) throws(FileError) -> [String] {
        guard let dir = opendir(directory) else { throw FileError(path: directory, code: errno) }
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

    /// `path` opened for reading, with what `fstat` says of it, when it is a regular file. Opened
    /// without blocking: a FIFO would wait for a writer.
    static func openRegularFile(_ path: String) throws(FileError) -> (fd: Int32, info: stat) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, code: errno) }
        var info = stat()
        var problem: FileError?
        if fstat(fd, &info) != 0 {
            problem = FileError(path: path, code: errno)
        } else if info.st_mode & S_IFMT == S_IFDIR {
            problem = FileError(path: path, reason: "is a directory")
        } else if info.st_mode & S_IFMT != S_IFREG {
            problem = FileError(path: path, reason: "is not a regular file")
        }
        if let problem {
            close(fd)
            throw problem
        }
        return (fd, info)
    }

    private static func readChunk(_ fd: Int32, _ path: String, capacity: Int) throws(FileError) -> [UInt8] {
        var failure: SystemError?
        let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var n = 0
            do throws(SystemError) {
                while n < capacity {
                    let r = try SystemIO.read(fd, into: buffer.baseAddress! + n, count: capacity - n)
                    if r == 0 { break }
                    n += r
                }
            } catch {
                failure = error
            }
            count = n
        }
        if let failure { throw FileError(path: path, code: failure.code) }
        return chunk
    }

    /// Replaces a small file whole (a golden, a report), atomically: readers see the old file or
    /// the new one.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        do {
            try SystemIO.writeFileAtomically(bytes, to: path)
        } catch {
            throw FileError(path: path, code: error.code)
        }
    }
}
