import Bluetape
import CaptureFiles
import CaptureModel
import PcapFiles

/// Exit codes, the same for every command.
public enum ExitCode: Int32, Sendable {
    /// Success; for `diff` and `check`: no differences, no violations.
    case success = 0
    /// Differences found, or validation failed.
    case differences = 1
    /// The command line is wrong.
    case usage = 2
    /// An input file is unreadable, invalid or damaged (whatever was readable is still output).
    case badInput = 3
}

/// A wrong command line: printed with the command's usage line, exit code 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// An input that cannot be used: printed as is, exit code 3.
struct InputError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Every format the command line reads: btsnoop and PacketLogger here, pcap and pcapng through libpcap.
let captureFormats: [any ExternalCaptureFormat] = [PcapFormat()]

/// Opens a capture for a command: a file that cannot be opened or is no capture is bad input (exit 3).
func openCapture(_ path: String) throws(InputError) -> Capture {
    do {
        return try Capture(path: path, formats: captureFormats)
    } catch {
        throw InputError(error.description)
    }
}

/// Runs a read of a capture opened before: a capture that cannot be opened again (removed
/// meanwhile) is bad input.
@discardableResult
func readCapture<Result>(_ body: () throws(CaptureError) -> Result) throws(InputError) -> Result {
    do {
        return try body()
    } catch {
        throw InputError(error.description)
    }
}

/// What a command's error says, without the type around it.
func message(of error: any Error) -> String {
    switch error {
    case let error as UsageError: error.message
    case let error as InputError: error.message
    default: "\(error)"
    }
}

/// Opens a capture to read record by record (`stats`, `report`): bad input, exit 3.
func openReader(_ path: String) throws(InputError) -> CaptureReader {
    do {
        return try CaptureReader(path: path, formats: captureFormats)
    } catch {
        throw InputError(error.description)
    }
}
