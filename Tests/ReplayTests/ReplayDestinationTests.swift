import Replay
import Testing

/// `--to`: Unix sockets, and TCP on the loopback interface only.
struct ReplayDestinationTests {
    @Test(arguments: [
        ("unix:/tmp/bluetape.sock", ReplayDestination.unix(path: "/tmp/bluetape.sock")),
        ("tcp:127.0.0.1:9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("tcp:127.1.2.3:0", .tcp(host: "127.1.2.3", port: 0)),
        ("tcp:localhost:9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("tcp:[::1]:9000", .tcp(host: "::1", port: 9000)),
    ])
    func `loopback and Unix destinations are accepted`(text: String, destination: ReplayDestination) throws {
        #expect(try ReplayDestination.parse(text) == destination)
    }

    @Test(arguments: ["tcp:10.0.0.1:80", "tcp:0.0.0.0:9000", "tcp:192.168.1.20:9000", "tcp:example.com:80", "tcp:[::]:9000", "tcp::9000"])
    func `any other TCP address is refused`(text: String) {
        let error = #expect(throws: DestinationError.self) { try ReplayDestination.parse(text) }
        #expect(error?.message.contains("loopback interface only") == true)
    }

    @Test(arguments: ["tcp:127.0.0.1:70000", "tcp:127.0.0.1", "unix:", "stdout", "udp:127.0.0.1:9"])
    func `malformed destinations are refused`(text: String) {
        #expect(throws: DestinationError.self) { try ReplayDestination.parse(text) }
    }
}
