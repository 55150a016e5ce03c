import ByteReading
import PayloadDecoders
import Testing

// The decoder of the README's "Adding a decoder", word for word: it must compile and behave as the
// README says, or the README is wrong.

/// The Acme pump's status, manufacturer data under the company id it is configured with.
public struct AcmePump: PayloadDecoder {
    var company: UInt16 = 0x1234
    public var id: String { "acme.pump" }
    public var summary: String { "Acme pump: flow and a sequence number" }
    public var matches: [MatchKey] { [.company(company)] }
    public var fields: [FieldDescription] { [FieldDescription("sequence", "repeats in every copy"), FieldDescription("flow_lpm", unit: "L/min", "flow")] }

    // `--param acme.pump.company=0xABCD`, or "param.acme.pump.company" in golden.json.
    public var parameters: [DecoderParameter] {
        [DecoderParameter(name: "company", kind: .integer, defaultValue: "0x1234", summary: "company id")]
    }
    public func configured(with values: DecoderParameterValues) throws(DecoderParameterError) -> any PayloadDecoder {
        guard let company = values.integer("company") else { return self }
        guard (0...0xFFFF).contains(company) else {
            throw DecoderParameterError(decoder: id, parameter: "company", reason: "not a 16-bit id")
        }
        return AcmePump(company: UInt16(company))
    }
    // Copies of one advertisement within a few seconds are one reading with "repeats".
    public var dedupKey: [String]? { ["sequence"] }

    public func decode(_ payload: Payload) -> [DecodeOutcome] {
        [decoding(payload.bytes) { r throws(DecodeError) in
            [Field("sequence", .int(Int64(try r.u8("sequence")))),
             Field("flow_lpm", .double(DecimalRounding.rounded(Double(try r.u16le("flow_lpm")) * 0.1, decimals: 1)))]
        }]
    }
}

struct AddingADecoderTests {
    @Test func `the README's decoder decodes, takes its parameter and names its dedup key`() throws {
        let pump = AcmePump()
        // sequence 7, flow 123 × 0.1 = 12.3 L/min (0.1 × 123 is 12.3000000000000007 in binary).
        let outcome = pump.decode(Payload(.manufacturerData(company: 0x1234), [0x07, 0x7B, 0x00]))
        #expect(outcome == [.fields([Field("sequence", 7), Field("flow_lpm", 12.3)])])
        let moved = try pump.configured(with: DecoderParameterValues(["company": ["0xABCD"]]))
        #expect(moved.matches == [.company(0xABCD)])
        #expect(pump.dedupKey == ["sequence"])
        #expect(throws: DecoderParameterError.self) { try pump.configured(with: DecoderParameterValues(["company": ["65536"]])) }
    }
}
