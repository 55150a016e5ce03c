import PayloadDecoders
import SensorDecoding
import Testing

struct SensorDecoderTests {
    /// ../shared/specs/payloads.md D.3: flags 0x16, 72 bpm, RR 1024/1024 s and 794/1024 s.
    @Test func `a heart-rate notification decodes as the spec's worked example`() throws {
        let decoder = try SensorDecoder()
        let values = try #require(decoder.decode(CharacteristicValue(uuid: "2A37", bytes: [0x16, 0x48, 0x00, 0x04, 0x1A, 0x03])))
        let fields = try values.get()
        #expect(fields.first { $0.name == "heart_rate_bpm" }?.value == .int(72))
    }

    @Test func `a short value names the field and the byte`() throws {
        let decoder = try SensorDecoder()
        let result = try #require(decoder.decode(CharacteristicValue(uuid: "2A37", bytes: [0x01])))
        guard case .failure(let error) = result else { Issue.record("decoded a one-byte 16-bit heart rate"); return }
        #expect(error.offset == 1)
    }

    @Test func `a characteristic no decoder knows gives nothing`() throws {
        #expect(try SensorDecoder().decode(CharacteristicValue(uuid: "FFF1", bytes: [1, 2, 3])) == nil)
    }
}
