import SystemIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file read front to back into the caller's buffer, a piece at a time, so that a large
/// one (a golden of a million readings) is never held whole; opened with the checks
/// `WholeFile.read` makes. It can be read again whole from its start (`wholeFile()`), as long as
/// it has not changed since it was opened.
public final class SequentialFile {
    public let path: String
    private let fd: Int32
    private let opened: Identity

    /// What tells a file changed: a new file renamed over it, another length, another time of change.
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var seconds: Int
        var nanoseconds: Int

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int(info.st_size)
            #if canImport(Darwin)
            seconds = Int(info.st_mtimespec.tv_sec)
            nanoseconds = Int(info.st_mtimespec.tv_nsec)
            #else
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
            #endif
        }
    }

    public init(_ path: String) throws(FileError) {
        self.path = path
        let (fd, info) = try WholeFile.openRegularFile(path)
        self.fd = fd
        opened = Identity(info)
    }

    deinit { close(fd) }

    /// The file's size when it was opened.
    public var size: Int { opened.size }

    /// Reads on from where the last read ended, at most `count` bytes; 0 at the end.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(FileError) -> Int {
        do {
            return try SystemIO.read(fd, into: buffer, count: count)
        } catch {
            throw FileError(path: path, code: error.code)
        }
    }

    /// The whole file from its start, read again; an error when it is not what was opened (renamed
    /// over, another length or time of change), since what was read of it before would then not be
    /// part of what it holds now.
    public func wholeFile() throws(FileError) -> [UInt8] {
        let changed = FileError(path: path, reason: "changed while it was being read")
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, code: errno) }
        var now = Identity(info)
        if let current = try? WholeFile.openRegularFile(path) {
            // The same name may lead to another file by now.
            now.device = UInt64(current.info.st_dev)
            now.inode = UInt64(current.info.st_ino)
            close(current.fd)
        }
        guard now == opened else { throw changed }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: opened.size + 1) { buffer, count in
            var done = 0
            while done < buffer.count {
                let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
            count = done
        }
        if failure != 0 { throw FileError(path: path, code: failure) }
        guard bytes.count == opened.size else { throw changed }
        return bytes
    }
}
