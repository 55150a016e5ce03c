import BluetoothPackets
import ByteReading
import TestSupport
import Testing

import PayloadDecoders

struct CombustionUARTTests {
    let decoder = CombustionUART()

    func request(_ text: String) -> Payload { .attribute(CombustionUART.rx, .write, hex(text)) }
    func response(_ text: String) -> Payload { .attribute(CombustionUART.tx, .notify, hex(text)) }

    /// combustion.md §9.6, one record of a Read Logs response.
    static let logResponse =
        "CA FE 44 72 04 01 18 2A 00 00 00 84 C3 71 60 0E F4 01 4B 80 0C 58 42 6A EA 29 45 A5 09 34 0A"

    @Test func `the CRC is CRC-16 CCITT-FALSE`() {
        // combustion.md §5.3 check value.
        #expect(CRC16.ccittFalse(Array("123456789".utf8)) == 0x29B1)
    }

    // MARK: - §9.6, every message

    @Test func `read session info request`() {
        expectFields(
            decodeFields(decoder, request("CA FE 5C 48 03 00")),
            ["message_type": 3, "message": "read_session_info", "direction": "request"])
    }

    @Test func `read session info response`() {
        expectFields(
            decodeFields(decoder, response("CA FE CA 21 03 01 06 78 56 34 12 E8 03")),
            [
                "message_type": 3, "message": "read_session_info", "direction": "response", "success": true,
                "session_id": 0x1234_5678, "sample_period_ms": 1000,
            ])
    }

    @Test func `read logs request for records 0 to 99`() {
        expectFields(
            decodeFields(decoder, request("CA FE FD A7 04 08 00 00 00 00 63 00 00 00")),
            [
                "message_type": 4, "message": "read_logs", "direction": "request", "start_sequence": 0,
                "end_sequence": 99,
            ])
    }

    @Test func `read logs response with one record`() {
        expectFields(
            decodeFields(decoder, response(Self.logResponse)),
            [
                "message_type": 4, "message": "read_logs", "direction": "response", "success": true,
                "sequence": 42,
                "t1_c": 25.0, "t2_c": 25.5, "t3_c": 26.0, "t4_c": 30.0,
                "t5_c": 40.0, "t6_c": 60.0, "t7_c": 100.0, "t8_c": 150.0,
                "virtual_core": "T3", "virtual_surface": "T5", "virtual_ambient": "T8",
                "prediction_state": "predicting", "prediction_mode": "time_to_removal", "prediction_type": "removal",
                "prediction_set_point_c": 65.0, "prediction_value_s": 1234, "estimated_core_c": 45.3,
            ])
    }

    @Test func `set prediction request`() {
        expectFields(
            decodeFields(decoder, request("CA FE 70 C2 05 02 8A 06")),
            [
                "message_type": 5, "message": "set_prediction", "direction": "request",
                "prediction_set_point_c": 65.0, "prediction_mode": "time_to_removal",
            ])
    }

    @Test func `set prediction response`() {
        expectFields(
            decodeFields(decoder, response("CA FE 5D 14 05 01 00")),
            ["message_type": 5, "message": "set_prediction", "direction": "response", "success": true])
    }

    @Test func `set probe id request`() {
        expectFields(
            decodeFields(decoder, request("CA FE FE F8 01 01 03")),
            ["message_type": 1, "message": "set_probe_id", "direction": "request", "probe_id": 4])
    }

    @Test func `set probe id response that failed`() {
        expectFields(
            decodeFields(decoder, response("CA FE AC FB 01 00 00")),
            ["message_type": 1, "message": "set_probe_id", "direction": "response", "success": false])
    }

    @Test func `set probe color request`() {
        expectFields(
            decodeFields(decoder, request("CA FE EC 81 02 01 01")),
            ["message_type": 2, "message": "set_probe_color", "direction": "request", "color": 1])
    }

    @Test func `read over temperature request and response`() {
        expectFields(
            decodeFields(decoder, request("CA FE A9 B7 06 00")),
            ["message_type": 6, "message": "read_over_temperature", "direction": "request"])
        expectFields(
            decodeFields(decoder, response("CA FE 58 A7 06 01 01 00")),
            [
                "message_type": 6, "message": "read_over_temperature", "direction": "response", "success": true,
                "over_temperature": false,
            ])
    }

    @Test func `encoding writes every worked example byte for byte`() throws {
        let requests = [
            "CA FE 5C 48 03 00", "CA FE FD A7 04 08 00 00 00 00 63 00 00 00", "CA FE 70 C2 05 02 8A 06",
            "CA FE FE F8 01 01 03", "CA FE EC 81 02 01 01", "CA FE A9 B7 06 00",
        ]
        let responses = [
            "CA FE CA 21 03 01 06 78 56 34 12 E8 03", Self.logResponse, "CA FE 5D 14 05 01 00",
            "CA FE AC FB 01 00 00", "CA FE 58 A7 06 01 01 00",
        ]
        for text in requests {
            let fields = try #require(decodeFields(decoder, request(text)))
            #expect(try decoder.encode(fields) == hex(text), "\(text)")
        }
        for text in responses {
            let fields = try #require(decodeFields(decoder, response(text)))
            #expect(try decoder.encode(fields) == hex(text), "\(text)")
        }
    }

    @Test func `encoding takes the message by name`() throws {
        let bytes = try decoder.encode([
            Field("message", "set_probe_id"), Field("direction", "request"), Field("probe_id", 4),
        ])
        #expect(bytes == hex("CA FE FE F8 01 01 03"))
    }

    // MARK: - Several messages, errors

    @Test func `one notification with several log records gives one outcome each`() {
        let second = Array(hex(Self.logResponse))
        let outcomes = decoder.decode(.attribute(CombustionUART.tx, .notify, hex(Self.logResponse) + second))
        #expect(outcomes.count == 2)
        guard outcomes.count == 2, case .fields(let first) = outcomes[0], case .fields(let again) = outcomes[1] else {
            return
        }
        #expect(first == again)
        #expect(first["sequence"] == 42)
    }

    @Test func `a bad CRC is an error and the next message is still read`() {
        let bad = hex("CA FE 5D 15 05 01 00")
        let outcomes = decoder.decode(.attribute(CombustionUART.tx, .notify, bad + hex("CA FE 58 A7 06 01 01 00")))
        #expect(outcomes.count == 2)
        #expect(
            outcomes.first == .error(DecodeError(.badChecksum(expected: 0x155D, computed: 0x145D), at: 2, field: "crc"))
        )
        if outcomes.count == 2, case .fields(let fields) = outcomes[1] {
            #expect(fields["message"] == "read_over_temperature")
        } else {
            Issue.record("second message not decoded: \(outcomes)")
        }
    }

    @Test func `the response CRC covers the success byte`() {
        // The spec's wording leaves the success byte out (§8.3); that CRC does not match.
        let withoutSuccess = CRC16.ccittFalse(hex("05 00"))
        let bytes: [UInt8] = [0xCA, 0xFE, UInt8(withoutSuccess & 0xFF), UInt8(withoutSuccess >> 8), 0x05, 0x01, 0x00]
        let error = decodeError(decoder, .attribute(CombustionUART.tx, .notify, bytes))
        #expect(error?.field == "crc")
    }

    @Test func `an unknown message type is an error at the type byte`() {
        let frame = framed(type: 0x0D, success: nil, payload: [])
        let error = decodeError(decoder, .attribute(CombustionUART.rx, .write, frame))
        #expect(error == DecodeError(.badValue("unknown message type 0x0D"), at: 4, field: "message_type"))
    }

    @Test func `a message cut short is a truncation`() {
        let cut = Array(hex(Self.logResponse).prefix(20))
        let error = decodeError(decoder, .attribute(CombustionUART.tx, .notify, cut))
        #expect(error == DecodeError(.truncated(needed: 24, available: 13), at: 7, field: "payload"))
        let header = decodeError(decoder, .attribute(CombustionUART.tx, .notify, hex("CA FE 5D 14 05")))
        #expect(header == DecodeError(.truncated(needed: 1, available: 0), at: 5, field: "success"))
    }

    @Test func `bytes after a message that are not a message are an error`() {
        let outcomes = decoder.decode(.attribute(CombustionUART.tx, .notify, hex("CA FE 5D 14 05 01 00 00 00")))
        #expect(outcomes.count == 2)
        #expect(outcomes.last == .error(DecodeError(.badValue("no CA FE sync"), at: 7, field: "sync")))
    }

    @Test func `a payload longer than its message is trailing bytes`() {
        let frame = framed(type: 0x06, success: true, payload: [0x01, 0x00])
        let error = decodeError(decoder, .attribute(CombustionUART.tx, .notify, frame))
        #expect(error == DecodeError(.trailingBytes(count: 1), at: 8, field: "payload"))
    }

    @Test func `a payload shorter than its message is a truncation`() {
        let frame = framed(type: 0x03, success: true, payload: [0x78, 0x56, 0x34, 0x12])
        let error = decodeError(decoder, .attribute(CombustionUART.tx, .notify, frame))
        #expect(error == DecodeError(.truncated(needed: 2, available: 0), at: 11, field: "sample_period_ms"))
    }

    @Test func `a probe id above 7 is an error`() {
        let frame = framed(type: 0x01, success: nil, payload: [0x08])
        let error = decodeError(decoder, .attribute(CombustionUART.rx, .write, frame))
        #expect(error == DecodeError(.badValue("probe id 8 is not 0…7"), at: 6, field: "probe_id"))
    }

    @Test func `a failed response keeps its payload as hex`() {
        let frame = framed(type: 0x04, success: false, payload: [0xAB, 0xCD])
        let fields = decodeFields(decoder, .attribute(CombustionUART.tx, .notify, frame))
        #expect(fields?["success"] == false)
        #expect(fields?["payload"] == "abcd")
        #expect(fields?["sequence"] == nil)
    }

    @Test func `values without the CA FE sync are not this decoder's`() {
        #expect(decoder.decode(.attribute(CombustionUART.tx, .notify, Array("23.24".utf8))) == [])
        #expect(decoder.decode(.attribute(CombustionUART.tx, .notify, [])) == [])
        #expect(decoder.decode(.attribute(CombustionUART.tx, .notify, [0xCA])) == [])
    }

    @Test func `encoding rejects unknown messages and missing payload fields`() {
        #expect(
            encodeError(decoder, [Field("direction", "request"), Field("message_type", 0x0D)])
                == EncodeError(.outOfRange("a probe message type"), field: "message_type"))
        #expect(
            encodeError(
                decoder, [Field("direction", "request"), Field("message", "read_logs"), Field("start_sequence", 0)])
                == EncodeError(.missing, field: "end_sequence"))
        #expect(
            encodeError(decoder, [Field("direction", "response"), Field("message", "read_logs")])
                == EncodeError(.missing, field: "success"))
        #expect(
            encodeError(decoder, [Field("direction", "sideways"), Field("message", "read_logs")])?.field == "direction")
    }

    @Test func `decode of encode gives requests and responses back`() {
        var generator = TestRandom(seed: 0x0A27)
        // Payload sizes by message type (§5.4); nil: no payload.
        let requestSizes: [UInt8: Int] = [0x01: 1, 0x02: 1, 0x04: 8, 0x05: 2, 0x07: 10, 0x09: 1, 0x0B: 44]
        let responseSizes: [UInt8: Int] = [0x03: 6, 0x04: 24, 0x06: 1]
        var requests: [[UInt8]] = []
        var responses: [[UInt8]] = []
        for round in 0..<20 {
            for type in UInt8(1)...12 {
                var requestPayload = generator.bytes(requestSizes[type] ?? 0)
                if type == 0x01 || type == 0x02 { requestPayload = [UInt8(round % 8)] }
                requests.append(framed(type: type, success: nil, payload: requestPayload))
                responses.append(framed(type: type, success: true, payload: generator.bytes(responseSizes[type] ?? 0)))
            }
            responses.append(framed(type: 0x04, success: false, payload: generator.bytes(round % 3)))
        }
        #expect(expectRoundTrips(decoder, requests, .write) == requests.count)
        #expect(expectRoundTrips(decoder, responses, .notify) == responses.count)
    }

    @Test func `decode of encode gives the session and alarm messages back`() {
        let alarms = Fields(
            ["high", "low"].flatMap { kind in
                [
                    Field("\(kind)_alarm_set", .list((0..<11).map { .bool($0 % 2 == 0) })),
                    Field("\(kind)_alarm_tripped", .list((0..<11).map { .bool($0 == 3) })),
                    Field("\(kind)_alarm_alarming", .list((0..<11).map { .bool($0 > 8) })),
                    Field("\(kind)_alarm_c", .list((0..<11).map { .double(Double($0 * 70 - 200) / 10) })),
                ]
            })
        expectRoundTrip(
            decoder,
            Fields(
                [
                    Field("message_type", 11), Field("message", "set_probe_high_low_alarm"),
                    Field("direction", "request"),
                ]
                    + alarms.entries),
            .write)
        expectRoundTrip(
            decoder,
            [
                Field("message_type", 3), Field("message", "read_session_info"), Field("direction", "response"),
                Field("success", true), Field("session_id", 0xFFFF_FFFF), Field("sample_period_ms", 0),
            ])
    }

    /// A frame with a correct CRC, for payloads the spec has no example of.
    func framed(type: UInt8, success: Bool?, payload: [UInt8]) -> [UInt8] {
        let covered = [type] + (success.map { [$0 ? 1 : 0] } ?? []) + [UInt8(payload.count)] + payload
        let crc = CRC16.ccittFalse(covered)
        return [0xCA, 0xFE, UInt8(crc & 0xFF), UInt8(crc >> 8)] + covered
    }
}
