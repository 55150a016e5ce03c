#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: its errno and the system's words for it.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Int32
    public var reason: String

    public init(code: Int32) {
        self.code = code
        reason = SystemIO.reason(code)
    }

    public var description: String { reason }
}

/// The few POSIX calls every part of Bluetape makes, in one place: whole writes that survive
/// interrupted and short writes, reads that survive interruption, atomic file replacement.
public enum SystemIO {
    /// The system's words for an errno, in lower case to follow a path and a colon.
    public static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Writes all of `bytes` to `fd`, retrying on EINTR and after short writes.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard let start = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, start + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(code: errno)
            }
            done += n
        }
    }

    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try writeAll(fd, raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads at most `count` bytes into `buffer`, retrying on EINTR; 0 at the end of the file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        while true {
            let n = systemRead(fd, buffer, count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError(code: errno) }
        }
    }

    /// Replaces `path` with `bytes` so that a reader sees the old file or the new one, never a part:
    /// the bytes go to a temporary file in the same directory, which is then renamed over it. The
    /// file keeps the mode of the one it replaces (0644 for a new one).
    public static func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SystemError(code: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: SystemError?
        do throws(SystemError) {
            try writeAll(fd, bytes)
            if fsync(fd) != 0 { failure = SystemError(code: errno) }
        } catch {
            failure = error
        }
        var existing = stat()
        fchmod(fd, stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)  // mkstemp makes it 0600
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = SystemError(code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    @inline(__always)
    static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    @inline(__always)
    static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }
}
