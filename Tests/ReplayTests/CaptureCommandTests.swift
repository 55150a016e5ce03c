import PcapFiles
import Testing
import TestSupport

@testable import BluetapeCLI

/// `bluetape capture`: live capture, and what it says where it cannot run.
struct CaptureCommandTests {
    /// True on machines like CI's, where the kernel lists no Bluetooth adapter.
    static let noAdapter = TestPaths.list("/sys/class/bluetooth").filter { $0.hasPrefix("hci") }.isEmpty

    @Test(.enabled(if: noAdapter, "this machine has a Bluetooth adapter"))
    func `without an adapter capture exits 3 with its message and writes nothing`() {
        let output = TestPaths.temporaryDirectory() + "/live.pcap"
        let (code, out, err) = runBluetape(["capture", "-o", output])
        #expect(code == 3)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("error: "))
        #expect(err.contains("Bluetooth"))
        #expect(!TestPaths.exists(output))
    }

    @Test func `capture needs -o with a pcap name`() {
        var (code, _, err) = runBluetape(["capture"])
        #expect(code == 2)
        #expect(err.contains("-o OUT.pcap"))
        (code, _, err) = runBluetape(["capture", "-o", "live.btsnoop"])
        #expect(code == 2)
        #expect(err.contains("ending in .pcap"))
    }

    @Test func `each missing piece is named`() {
        let interfaces = ["eth0", "any", "bluetooth-monitor"]
        #expect(LiveCaptureCheck.problem(isLinux: false, interfaces: [], adapters: [])?.contains("needs Linux") == true)
        #expect(
            LiveCaptureCheck.problem(isLinux: true, interfaces: ["eth0", "any"], adapters: ["hci0"])?
                .contains("no bluetooth-monitor interface") == true)
        #expect(
            LiveCaptureCheck.problem(isLinux: true, interfaces: interfaces, adapters: [])?
                .hasPrefix("no Bluetooth adapter") == true)
        #expect(LiveCaptureCheck.problem(isLinux: true, interfaces: interfaces, adapters: ["hci0"]) == nil)
    }

    @Test func `a permission failure says it needs CAP_NET_RAW or root`() {
        let denied = LiveCaptureCheck.openProblem(permissionDenied: true, message: "")
        #expect(denied.contains("needs CAP_NET_RAW or root"))
        let bound = LiveCaptureCheck.openProblem(
            permissionDenied: false, message: "Can't attach to interface: Operation not permitted")
        #expect(bound.contains("needs CAP_NET_RAW or root"))
        let noSockets = LiveCaptureCheck.openProblem(
            permissionDenied: false, message: "Can't create raw socket: Address family not supported by protocol")
        #expect(noSockets.contains("no Bluetooth sockets"))
    }
}
