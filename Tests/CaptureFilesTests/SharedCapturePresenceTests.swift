import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Wireshark cross-checks and real-capture sweeps need ../shared/captures. Elsewhere they are
/// skipped, and say so; in CI they must run, so a missing folder fails there instead of passing
/// on nothing.
/// CI systems set CI (GitHub Actions, GitLab, …); "false" or "0" opt out.
private let runningInCI: Bool = {
    guard let value = getenv("CI").map({ String(cString: $0).lowercased() }) else { return false }
    return !value.isEmpty && value != "false" && value != "0"
}()

@Suite(.enabled(if: runningInCI, "CI is not set: tests needing ../shared/captures skip when it is absent"))
struct SharedCapturePresenceTests {
    @Test func `the shared captures are present`() {
        #expect(
            TestPaths.sharedCaptures != nil,
            "CI is set but \(TestPaths.packageRoot)/../shared/captures is missing: the real-capture tests would pass on nothing")
        #expect(TestPaths.sharedCaptureFiles.count >= 30, "../shared/captures holds \(TestPaths.sharedCaptureFiles.count) captures")
    }
}
