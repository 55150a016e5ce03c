import BluetapeCLI
import GoldenDiff
import JSON
import SystemIO
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the tool in-process and returns (exit code, stdout, stderr).
func runTool(_ arguments: [String], environment: [String: String] = [:]) -> (code: Int32, out: String, err: String) {
    let out = Output()
    let err = Output()
    let code = CommandLineTool.run(
        arguments, stdout: out, stderr: err, environment: environment, decodeCapture: FakeCaptures.decode)
    return (code, out.text, err.text)
}

/// Stand-in captures: a file starting `FAKE-CAPTURE` "decodes" to the readings that follow that
/// first line. `FAKE-CAPTURE requires NAME=VALUE` decodes only when that decode option is given;
/// `FAKE-CAPTURE damaged` decodes, then reports damage as a capture cut part way does. A real
/// btsnoop file goes through the real decoders, as `bluetape` decodes it.
/// Decoding depends on the file alone, so every test can share the one fake.
enum FakeCaptures {
    static let header = "FAKE-CAPTURE"

    static let decode: CaptureDecoder = { path, options, write in
        let bytes = try Files.read(path)
        if bytes.starts(with: Array("btsnoop\u{0}".utf8)) {
            return try CommandLineTool.builtInDecoding(path, options, write)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(header) else { throw GoldenError("\(path): not a capture (unknown format)") }
        let firstLine = text.prefix { $0 != "\n" }
        let readings = Array(bytes.dropFirst(firstLine.utf8.count + 1))
        if let requirement = firstLine.split(separator: " ").dropFirst(2).first {
            let parts = requirement.split(separator: "=", maxSplits: 1).map(String.init)
            guard options[parts[0]] == parts[1] else {
                throw GoldenError("\(path): decode option \(parts[0])=\(parts[1]) is needed")
            }
        }
        // In two pieces, split inside a line, as a real decoder may hand them over.
        readings.withUnsafeBytes { all in
            let half = all.count / 2
            write(UnsafeRawBufferPointer(rebasing: all[..<half]))
            write(UnsafeRawBufferPointer(rebasing: all[half...]))
        }
        if firstLine.hasSuffix(" damaged") {
            throw DamagedCapture(message: "\(path): frame 9 at byte offset 300: record cut short")
        }
    }
}

/// A fresh directory to put captures, goldens and golden.json in.
struct Workspace {
    let directory = TestPaths.temporaryDirectory()

    func path(_ name: String) -> String { directory + "/" + name }

    /// A fake capture that decodes to `readings`; returns its path.
    @discardableResult
    func capture(_ name: String, _ readings: [String], requires option: String? = nil) -> String {
        let header = FakeCaptures.header + (option.map { " requires \($0)" } ?? "")
        write(name, ([header] + readings).map { $0 + "\n" }.joined())
        return path(name)
    }

    /// The golden of capture `name`, one reading per line.
    func golden(_ name: String, _ readings: [String]) {
        write(name + ".golden.jsonl", readings.map { $0 + "\n" }.joined())
    }

    func write(_ name: String, _ text: String) {
        TestPaths.writeFile(path(name), Array(text.utf8))
    }

    func read(_ name: String) -> String? { TestPaths.readText(path(name)) }

    func directory(_ name: String) { mkdir(path(name), 0o755) }
}

/// The readings of the examples in the readings format's description.
enum Sample {
    static let env12 =
        #"{"frame":12,"ts":1710495001.151075,"addr":"C2:6B:30:F9:0E:C7","decoder":"envsensor","source":"adv","company":65535,"fields":{"nonce":4660,"temperature_c":23.45,"humidity_pct":55.3},"repeats":3}"#
    static let heartRate592 =
        #"{"frame":592,"ts":1710495004.017858,"addr":"00:1A:7D:1A:FD:C9","decoder":"sig.heart_rate","source":"notify","uuid":"2a37","fields":{"heart_rate_bpm":82,"rr_intervals_s":[1,0.775390625]}}"#
    static let uart600 =
        #"{"frame":600,"ts":1710495004.1,"addr":"00:1A:7D:1A:FD:C9","decoder":"combustion.uart","source":"notify","uuid":"6e400003-b5a3-f393-e0a9-e50e24dcca9e","index":1,"fields":{"message":"read_logs","sequence":43}}"#
    static let envError700 =
        #"{"frame":700,"ts":1710495005.2,"addr":"C2:6B:30:F9:0E:C7","decoder":"envsensor","source":"adv","company":65535,"error":{"reason":"bad length: declares 16, 15 present","offset":0,"field":"payload"}}"#

    static let all = [env12, heartRate592, uart600, envError700]

    /// An envsensor reading at `frame`, with values that vary with it.
    static func envsensor(
        frame: Int, temperature: String? = nil, nonce: Int? = nil, addr: String = "C2:6B:30:F9:0E:C7"
    ) -> String {
        let micros = 1_710_495_001_151_075 + Int64(frame) * 1_250
        let ts = "\(micros / 1_000_000).\(String(micros % 1_000_000).leftPadded(6))"
        let celsius = temperature ?? "\(20 + frame % 10).\(frame % 7)5"
        return
            #"{"frame":\#(frame),"ts":\#(ts),"addr":"\#(addr)","decoder":"envsensor","source":"adv","company":65535,"fields":{"nonce":\#(nonce ?? frame),"temperature_c":\#(celsius),"humidity_pct":55.3}}"#
    }

    /// A text with one reading per line.
    static func lines(_ readings: [String]) -> String { readings.map { $0 + "\n" }.joined() }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
