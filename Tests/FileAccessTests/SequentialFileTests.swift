import FileAccess
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct SequentialFileTests {
    let directory = TestPaths.temporaryDirectory()

    @Test func `a file read in pieces is the file, and can be read again whole`() throws {
        let path = directory + "/data.bin"
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        TestPaths.writeFile(path, bytes)
        let file = try SequentialFile(path)
        #expect(file.size == 70_000)
        var read: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 4099)
        while case let n = try piece.withUnsafeMutableBytes({ try file.read(into: $0.baseAddress!, count: $0.count) }),
            n > 0
        {
            read.append(contentsOf: piece[..<n])
        }
        #expect(read == bytes)
        #expect(try file.wholeFile() == bytes)
    }

    @Test func `a file changed since it was opened is not read again whole`() throws {
        let path = directory + "/data.bin"
        TestPaths.writeFile(path, Array("first".utf8))
        let file = try SequentialFile(path)
        TestPaths.writeFile(path, Array("second".utf8))
        #expect(throws: FileError(path: path, reason: "changed while it was being read")) { try file.wholeFile() }
    }

    @Test func `what is not a regular file is refused, as by WholeFile`() {
        #expect(throws: FileError(path: directory, reason: "is a directory")) { try SequentialFile(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileError(path: fifo, reason: "is not a regular file")) { try SequentialFile(fifo) }
        let error = #expect(throws: FileError.self) { try SequentialFile("/nonexistent/x") }
        #expect(error?.code == ENOENT)
    }
}
