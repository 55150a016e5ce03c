import FileAccess
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct WholeFileTests {
    let directory = TestPaths.temporaryDirectory()

    @Test func `a regular file is read whole, and one over the limit is refused`() throws {
        let path = directory + "/data.bin"
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        TestPaths.writeFile(path, bytes)
        #expect(try WholeFile.read(path) == bytes)
        #expect(throws: FileError(path: path, reason: "larger than 1000 bytes")) { try WholeFile.read(path, limit: 1000) }
    }

    @Test func `what is not a regular file is refused without waiting`() {
        #expect(throws: FileError(path: directory, reason: "is a directory")) { try WholeFile.read(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A FIFO with no writer would block a plain open and read forever.
        #expect(throws: FileError(path: fifo, reason: "is not a regular file")) { try WholeFile.read(fifo) }
        #expect(throws: FileError(path: "/dev/zero", reason: "is not a regular file")) {
            try WholeFile.read("/dev/zero")
        }
    }

    @Test func `a missing file names the system's reason and errno`() {
        let error = #expect(throws: FileError.self) { try WholeFile.read("/nonexistent/x") }
        #expect(error?.code == ENOENT)
        #expect(error?.description == "/nonexistent/x: no such file or directory")
    }

    @Test func `a directory lists its names sorted, without dot entries`() throws {
        for name in ["b", "a", "c.json"] { TestPaths.writeFile(directory + "/" + name, []) }
        #expect(try WholeFile.list(directory) == ["a", "b", "c.json"])
        #expect(throws: FileError.self) { try WholeFile.list(directory + "/missing") }
    }
}
