import CaptureFiles
import CaptureModel
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Captures read as streams: from a pipe as `-`, and through gzip. Every shared capture gives the
/// same records as the plain file.
struct StreamInputTests {
    /// Reads `bytes` as standard input from a pipe that a second thread fills (in pieces, as a pipe
    /// delivers them).
    static func readPiped(_ bytes: [UInt8], join: Bool = false, limits: ArchiveLimits = ArchiveLimits()) throws
        -> (CaptureReader, [StoredRecord])
    {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, min($0.count, 65_536)) }
                if n <= 0 { break }
                offset += n
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        var request = CaptureRequest(paths: ["-"], join: join)
        request.standardInput = readEnd
        request.limits = limits
        let reader = try CaptureReader(request, formats: testFormats)
        let records = reader.readAll()
        // Let the writer finish (or fail on the closed pipe) before the descriptor is closed.
        var drain = [UInt8](repeating: 0, count: 65_536)
        while read(readEnd, &drain, drain.count) > 0 {}
        return (reader, records)
    }

    static var sharedFiles: [String] {
        TestPaths.sharedCaptureFiles + TestPaths.list(TestPaths.captures).filter {
            $0.hasSuffix(".btsnoop")
        }.map { TestPaths.captures + "/" + $0 }
    }

    @Test(arguments: sharedFiles)
    func `a capture from a pipe and a gzip copy give the records of the file`(path: String) throws {
        let bytes = try #require(TestPaths.readFile(path))
        let expected = try CaptureReader(path: path, formats: testFormats).readAll()
        let (piped, records) = try Self.readPiped(bytes)
        #expect(piped.path == "standard input")
        #expect(records.count == expected.count)
        #expect(zip(records, expected).allSatisfy { $0.sameContent(as: $1) && $0.frame == $1.frame })
        #expect(piped.problems.count == 0)
        let gzipped = try CaptureReader(bytes: Deflate.gzip(bytes), formats: testFormats)
        let inflated = gzipped.readAll()
        #expect(inflated.count == expected.count)
        #expect(zip(inflated, expected).allSatisfy { $0.sameContent(as: $1) && $0.frame == $1.frame })
        #expect(gzipped.problems.count == 0)
        let (pipedGzip, both) = try Self.readPiped(Deflate.gzip(bytes))
        #expect(both.count == expected.count)
        #expect(pipedGzip.contents.containers.first == "gzip")
    }

    @Test func `a zip from a pipe is held in memory up to the bound, and the error says so`() throws {
        let capture = try CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: 200))
        let zip = ZipBuilder([.init("FS/data/misc/bluetooth/logs/btsnoop_hci.log", capture, deflated: false)]).bytes
        #expect(try Self.readPiped(zip).1.count == 200)
        var limits = ArchiveLimits()
        limits.spooledBytes = 1024
        let error = #expect(throws: CaptureError.self) { try Self.readPiped(zip, limits: limits) }
        #expect(error?.description.contains("is held in memory to reach its directory") == true)
        #expect(error?.description.contains("passes the 1 KiB limit: save it to a file") == true)
    }

    @Test func `a tar archive from a pipe cannot be joined member by member`() throws {
        let tar = TarBuilder.archive([("logs/Bluetooth/bluetoothd-hci-latest.pklg", PacketLoggerBytes.sample(count: 4))], naming: .ustar)
        #expect(try Self.readPiped(tar).1.count == 4)
        let error = #expect(throws: CaptureError.self) { try Self.readPiped(tar, join: true) }
        #expect(error?.isUsageError == true)
    }

    @Test func `standard input that is empty is an empty capture`() throws {
        let error = #expect(throws: CaptureError.self) { try Self.readPiped([]) }
        #expect(error == .empty(path: "standard input"))
    }
}
