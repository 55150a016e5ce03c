import BluetoothPackets
import Layouts
import PayloadDecoders
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct PerformanceTests {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    @Test func `decoding many envsensor payloads is a tight loop`() throws {
        let layout = try Shipped.envSensor()
        // A release build must decode a million in well under a second; a debug build is many
        // times slower, so there the count is smaller and the rate is only printed.
        #if DEBUG
            let count = 200_000
        #else
            let count = 1_000_000
        #endif
        var payload = Payload(
            .manufacturerData(company: 0xFFFF), hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF"))
        var nonceSum: Int64 = 0
        let start = Self.now()
        for i in 0..<count {
            payload.bytes[0] = UInt8(truncatingIfNeeded: i)
            for outcome in layout.decode(payload) {
                if case .fields(let f) = outcome, case .int(let nonce)? = f.entries.first?.value {
                    nonceSum += nonce & 0xFF
                }
            }
        }
        let seconds = Self.now() - start
        print("layout decode: \(Int(Double(count) / seconds)) payloads/s")
        #if !DEBUG
            #expect(seconds < 1.0)
        #endif
        #expect(nonceSum == Int64(count / 256) * (255 * 256 / 2) + Int64((0..<(count % 256)).reduce(0, +)))
    }
}
