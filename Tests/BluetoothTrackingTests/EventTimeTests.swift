import BluetoothTracking
import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// No reader invents records (issue: a btsnoop reader resynchronizing onto btsnooz bytes made 45
/// "records" dated in year 0): on every shared capture, no event is dated before 1980 unless the
/// capture's own records are that old (two of them are: clocks that were never set).
@Suite(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
struct EventTimeTests {
    /// 1980-01-01 00:00:00 UTC in µs since the Unix epoch.
    static let year1980: Int64 = 315_532_800_000_000

    @Test(arguments: TestPaths.sharedCaptureFiles)
    func `no event is dated before 1980 unless the capture's records are`(path: String) throws {
        let first = CaptureSummary(reading: try CaptureReader(path: path, formats: testFormats)).firstTimestamp
        let events = try events(inCapture: path)
        guard let first, first >= Self.year1980 else {
            // bluetooth_sample (1970-01-12) and crackle's LE Secure Connections pcapng (1970-01-11):
            // still never earlier than the earliest record.
            #expect(events.allSatisfy { $0.timestamp >= (first ?? 0) }, "\(path)")
            return
        }
        let early = events.filter { $0.timestamp < Self.year1980 }
        #expect(early.isEmpty, "\(path): \(early.count) events before 1980, the first at frame \(early.first?.frame ?? 0)")
    }
}
