#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import FileAccess

/// An input or output problem with a file, or a wrong setting, worded for the person running the command.
public struct GoldenError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var kind: Kind

    public enum Kind: Sendable, Equatable {
        /// A file that cannot be read or written, or is not what it should be (exit code 3).
        case input
        /// A setting that is wrong: a bad golden.json value, an unknown decode option value (exit code 2).
        case setting
    }

    public init(_ message: String, kind: Kind = .input) {
        self.message = message
        self.kind = kind
    }

    public var description: String { message }
}

/// Small file-system helpers: whole-file reads and directory lists in GoldenDiff's errors, and
/// atomic replacement.
public enum Files {
    /// The whole file (a regular file only; see `WholeFile.read`).
    public static func read(_ path: String) throws(GoldenError) -> [UInt8] {
        do {
            return try WholeFile.read(path)
        } catch {
            throw GoldenError(error.description)
        }
    }

    /// Replaces `path` with `bytes` so a reader sees the old file or the new one, never a part.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(GoldenError) {
        do {
            try WholeFile.write(bytes, to: path)
        } catch {
            throw GoldenError("\(path): cannot write: \(error.reason)")
        }
    }

    /// `path` from the root, with `.` and `..` taken away as written (the path need not exist):
    /// what a message names when a relative path led nowhere.
    public static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buffer, buffer.count) != nil else { return path }
            let nul = buffer.firstIndex(of: 0) ?? buffer.endIndex
            full = String(decoding: buffer[..<nul].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
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
        do {
            return try WholeFile.list(directory)
        } catch {
            throw GoldenError(error.description)
        }
    }
}
