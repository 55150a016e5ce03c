import BluetoothPackets
import Layouts
import PayloadDecoders
import Testing

/// Speed is measured by scripts/bench (`decode --layout`), not here: this checks that a long
/// run of payloads through one layout keeps decoding each one on its own.
struct ManyPayloadsTests {
    @Test func `every nonce of a long run of envsensor payloads decodes`() throws {
        let layout = try Shipped.envSensor()
        let count = 100_000
        var payload = Payload(
            .manufacturerData(company: 0xFFFF), hex("34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF"))
        var nonceSum: Int64 = 0
        for i in 0..<count {
            payload.bytes[0] = UInt8(truncatingIfNeeded: i)
            for outcome in layout.decode(payload) {
                if case .fields(let f) = outcome, case .int(let nonce)? = f.entries.first?.value {
                    nonceSum += nonce & 0xFF
                }
            }
        }
        #expect(nonceSum == Int64(count / 256) * (255 * 256 / 2) + Int64((0..<(count % 256)).reduce(0, +)))
    }
}
