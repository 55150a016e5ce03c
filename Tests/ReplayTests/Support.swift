import BluetapeCLI
import CaptureFiles
import CaptureModel
import Foundation
import JSON
import SystemIO
import Replay
import TestSupport

/// Runs the tool in-process and returns (exit code, stdout, stderr).
func runBluetape(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
    let out = Output()
    let err = Output()
    let code = CommandLineTool.run(arguments, stdout: out, stderr: err)
    return (code, out.text, err.text)
}

/// Small captures with advertising reports at chosen times, to check pacing to the microsecond.
enum TimedCapture {
    static let start: Int64 = 1_748_772_000_000_000
    static let first = "C2:6B:30:F9:0E:C7"
    static let second = "E6:45:9D:5A:2E:EE"

    /// One advertising report at each offset (µs from the start), alternately from `first` and
    /// `second`, written to a temporary btsnoop file.
    static func adverts(at offsets: [Int64]) throws -> String {
        let records = offsets.enumerated().map { index, offset in
            StoredRecord(
                timestamp: start + offset, direction: .received, kind: .event,
                payload: report(address: index % 2 == 0 ? firstBytes : secondBytes))
        }
        let path = TestPaths.temporaryDirectory() + "/timed.btsnoop"
        TestPaths.writeFile(path, try CaptureFactory.capture(.btsnoop(.btsnoopUART), records))
        return path
    }

    // Addresses in HCI order (least significant byte first).
    private static let firstBytes: [UInt8] = [0xC7, 0x0E, 0xF9, 0x30, 0x6B, 0xC2]
    private static let secondBytes: [UInt8] = [0xEE, 0x2E, 0x5A, 0x9D, 0x45, 0xE6]

    /// HCI LE Meta event, LE Advertising Report (Core v5.4, Vol 4, Part E, §7.7.65.2): one ADV_IND
    /// from a random address, carrying only Flags, RSSI −60 dBm.
    private static func report(address: [UInt8]) -> [UInt8] {
        [0x3E, 0x0F, 0x02, 0x01, 0x00, 0x01] + address + [0x03, 0x02, 0x01, 0x06, 0xC4]
    }
}

/// A count several tasks or threads may bump.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Every element of a replay.
func collect<Value>(_ replay: ReplaySequence<Value>) async throws -> [Replayed<Value>] {
    var items: [Replayed<Value>] = []
    for try await item in replay { items.append(item) }
    return items
}
