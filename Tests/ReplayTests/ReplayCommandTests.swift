import Foundation
import Replay
import Testing
import TestSupport

/// `bluetape replay`, run in-process. Serialized: one test sends SIGTERM to the process, which every
/// replay running at that moment would take as its stop.
@Suite(.serialized)
struct ReplayCommandTests {
    static let captures = ["arduino-temperature", "combustion", "envsensor", "sig-heart-thermometer", "tractor"]
        .map { TestPaths.captures + "/\($0).btsnoop" }
    static let tractor = TestPaths.captures + "/tractor.btsnoop"

    @Test(arguments: captures)
    func `replay --max writes the lines of events, line for line`(capture: String) {
        let events = runBluetape(["events", "--format", "jsonl", capture])
        let replay = runBluetape(["replay", "--max", capture])
        #expect(replay.code == 0)
        #expect(replay.err.isEmpty)
        #expect(!replay.out.isEmpty)
        #expect(replay.out == events.out)
    }

    @Test func `replay --decode --max writes the lines of decode`() {
        let capture = TestPaths.captures + "/combustion.btsnoop"
        let decode = runBluetape(["decode", "--format", "jsonl", capture])
        let replay = runBluetape(["replay", "--decode", "--max", capture])
        #expect(replay.code == 0)
        #expect(!replay.out.isEmpty)
        #expect(replay.out == decode.out)
    }

    @Test func `the filters of events apply to replay`() {
        let capture = TestPaths.captures + "/sig-heart-thermometer.btsnoop"
        let filters = ["--type", "att,connect", "--uuid", "2a37", "--since", "5"]
        let events = runBluetape(["events", "--format", "jsonl"] + filters + [capture])
        let replay = runBluetape(["replay", "--max"] + filters + [capture])
        #expect(replay.code == 0)
        #expect(!replay.out.isEmpty)
        #expect(replay.out == events.out)
    }

    @Test func `a paced replay writes the same lines as an unpaced one`() {
        // 100 times as fast with silences cut to 1 s: the tractor's 20 s in a fraction of a second.
        let paced = runBluetape(["replay", "--speed", "100", "--max-gap", "1", Self.tractor])
        #expect(paced.code == 0)
        #expect(paced.out == runBluetape(["replay", "--max", Self.tractor]).out)
    }

    @Test func `TCP beyond the loopback interface is refused with exit code 2`() {
        let (code, out, err) = runBluetape(["replay", "--to", "tcp:10.0.0.1:80", Self.tractor])
        #expect(code == 2)
        #expect(out.isEmpty)
        #expect(err.contains("error: replay serves TCP on the loopback interface only (127.0.0.1 or [::1]), not 10.0.0.1"))
        #expect(err.contains("usage: bluetape replay"))
    }

    @Test(arguments: [
        (["--speed", "0"], "--speed takes a number above zero"),
        (["--speed", "2", "--max"], "give --speed or --max, not both"),
        (["--max-gap", "soon"], "--max-gap takes seconds"),
        (["--clients", "2"], "--clients goes with --to"),
        (["--to", "/tmp/x.sock"], "--to takes unix:PATH or tcp:127.0.0.1:PORT"),
        (["--to", "tcp:0.0.0.0:9000"], "loopback interface only"),
        (["--type", "nonsense"], "unknown event type 'nonsense'"),
    ])
    func `wrong options are usage errors`(options: [String], message: String) {
        let (code, _, err) = runBluetape(["replay"] + options + [Self.tractor])
        #expect(code == 2)
        #expect(err.contains(message))
    }

    @Test func `a missing capture exits 3`() {
        let (code, _, err) = runBluetape(["replay", "/nonexistent/x.btsnoop"])
        #expect(code == 3)
        #expect(err.contains("/nonexistent/x.btsnoop: no such file"))
    }

    @Test func `a replay to a Unix socket serves every line to each client and removes the socket`() throws {
        let socket = TestPaths.temporaryDirectory() + "/replay.sock"
        let run = BackgroundRun(["replay", "--speed", "50", "--clients", "2", "--to", "unix:" + socket, Self.tractor])
        let first = try LineClient(.unix(path: socket))
        let second = try LineClient(.unix(path: socket))
        let lines = first.rest()
        let result = try #require(run.wait())
        #expect(result.code == 0)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("waiting for 2 clients on unix:\(socket)"))
        let expected = runBluetape(["events", "--format", "jsonl", Self.tractor]).out.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        #expect(lines == expected)
        #expect(second.rest() == expected)
        #expect(!TestPaths.exists(socket))
    }

    @Test func `a replay over TCP on the loopback interface serves readings`() throws {
        let port = freeLoopbackPort()
        let run = BackgroundRun(["replay", "--decode", "--max", "--to", "tcp:127.0.0.1:\(port)", TestPaths.captures + "/envsensor.btsnoop"])
        let client = try LineClient(.tcp(host: "127.0.0.1", port: port))
        let lines = client.rest()
        let result = try #require(run.wait())
        #expect(result.code == 0)
        let golden = TestPaths.readText(TestPaths.captures + "/envsensor.btsnoop.golden.jsonl") ?? ""
        #expect(lines == golden.split(separator: "\n").map(String.init))
    }

    @Test func `a stale socket file is replaced and anything else at the path is left alone`() throws {
        let directory = TestPaths.temporaryDirectory()
        let file = directory + "/not-a-socket"
        TestPaths.writeFile(file, Array("keep me".utf8))
        let refused = runBluetape(["replay", "--max", "--to", "unix:" + file, Self.tractor])
        #expect(refused.code == 2)
        #expect(refused.err.contains("exists and is not a socket"))
        #expect(TestPaths.readText(file) == "keep me")

        // A socket nobody listens on, as a killed replay leaves it.
        let stale = directory + "/stale.sock"
        makeStaleSocket(stale)
        #expect(TestPaths.exists(stale))
        let run = BackgroundRun(["replay", "--max", "--to", "unix:" + stale, Self.tractor])
        let lines = try LineClient(.unix(path: stale)).rest()
        #expect(try #require(run.wait()).code == 0)
        #expect(lines.count == 106)
    }

    @Test func `SIGTERM ends a looping replay cleanly with exit code 0 and removes the socket`() throws {
        let socket = TestPaths.temporaryDirectory() + "/replay.sock"
        let run = BackgroundRun(["replay", "--loop", "--to", "unix:" + socket, Self.tractor])
        let client = try LineClient(.unix(path: socket))
        // A line has arrived: the replay is under way, with its signal handlers installed.
        #expect(client.line() != nil)
        kill(getpid(), SIGTERM)
        let result = try #require(run.wait(seconds: 10))
        #expect(result.code == 0)
        #expect(!TestPaths.exists(socket))
        _ = client.rest()  // the stream ends: the replay closed its clients
    }
}
