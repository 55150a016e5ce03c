import BluetoothPackets
import ByteReading
import Testing

/// One ATT PDU on the wire and what it parses to.
struct ATTVector: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: String
    var parsed: String
    var testDescription: String { name }
}

/// Every PDU kind of `ATTPDU`, laid out as Core v5.4, Vol 3, Part F, §3.4 draws them.
struct ATTPDUTests {
    static let vectors: [ATTVector] = [
        // §3.4.1.1 Error Response: request opcode, handle in error, error code.
        ATTVector(name: "error response", bytes: "01 0A 03 00 02", parsed: "error request 0xa handle 0x0003 code 0x2"),
        // §3.4.2.1/2 Exchange MTU Request and Response: Rx MTU.
        ATTVector(name: "exchange MTU request", bytes: "02 F7 00", parsed: "mtu 247"),
        ATTVector(name: "exchange MTU response", bytes: "03 17 00", parsed: "mtu 23"),
        // §3.4.3.1 Find Information Request: starting and ending handle.
        ATTVector(name: "find information request", bytes: "04 0F 00 FF FF", parsed: "range 0x000f-0xffff"),
        // §3.4.3.2 Find Information Response, format 0x01: handle + 16-bit UUID pairs.
        ATTVector(
            name: "find information response with 16-bit UUIDs", bytes: "05 01 0F 00 02 29 10 00 01 29",
            parsed: "info 0x000f=2902 0x0010=2901"),
        // Format 0x02: handle + 128-bit UUID (Nordic UART RX, little-endian on the wire).
        ATTVector(
            name: "find information response with a 128-bit UUID",
            bytes: "05 02 12 00 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 02 00 40 6E",
            parsed: "info 0x0012=6e400002-b5a3-f393-e0a9-e50e24dcca9e"),
        // §3.4.3.3 Find By Type Value Request: range, 16-bit type, value (primary service 0x180D).
        ATTVector(
            name: "find by type value request", bytes: "06 01 00 FF FF 00 28 0D 18",
            parsed: "range 0x0001-0xffff type 0x2800 value 0d18"),
        // §3.4.3.4 Find By Type Value Response: found handle, group end handle.
        ATTVector(
            name: "find by type value response", bytes: "07 0C 00 0F 00 20 00 24 00",
            parsed: "found 0x000c-0x000f 0x0020-0x0024"),
        // §3.4.4.1 Read By Type Request with a 16-bit and with a 128-bit type.
        ATTVector(name: "read by type request", bytes: "08 01 00 FF FF 03 28", parsed: "range 0x0001-0xffff type 2803"),
        ATTVector(
            name: "read by type request with a 128-bit type",
            bytes: "08 01 00 FF FF 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 03 00 40 6E",
            parsed: "range 0x0001-0xffff type 6e400003-b5a3-f393-e0a9-e50e24dcca9e"),
        // §3.4.4.2 Read By Type Response: length 7, two characteristic declarations (btmon #537).
        ATTVector(
            name: "read by type response", bytes: "09 07 02 00 02 03 00 00 2A 04 00 02 05 00 01 2A",
            parsed: "by_type 0x0002=020300002a 0x0004=020500012a"),
        // §3.4.4.3/4 Read Request and Read Response (the device name "HRM", btmon #567).
        ATTVector(name: "read request", bytes: "0A 03 00", parsed: "handle 0x0003"),
        ATTVector(name: "read response", bytes: "0B 48 52 4D", parsed: "value 48524d"),
        // §3.4.4.5/6 Read Blob Request (handle, offset) and Response.
        ATTVector(name: "read blob request", bytes: "0C 03 00 16 00", parsed: "handle 0x0003 offset 22"),
        ATTVector(name: "read blob response", bytes: "0D 35 37 30 31", parsed: "value 35373031"),
        // §3.4.4.7/8 Read Multiple Request (handles) and Response (values run together).
        ATTVector(name: "read multiple request", bytes: "0E 03 00 0E 00", parsed: "handles 0x0003 0x000e"),
        ATTVector(name: "read multiple response", bytes: "0F 48 52 4D 06 52", parsed: "value 48524d0652"),
        // §3.4.4.9 Read By Group Type Request, §3.4.4.10 Response with length 6 (two services).
        ATTVector(
            name: "read by group type request", bytes: "10 01 00 FF FF 00 28", parsed: "range 0x0001-0xffff type 2800"),
        ATTVector(
            name: "read by group type response", bytes: "11 06 01 00 05 00 00 18 0C 00 0F 00 0D 18",
            parsed: "by_group 0x0001-0x0005=0018 0x000c-0x000f=0d18"),
        // §3.4.5.1/2 Write Request and Response (CCCD, notifications on).
        ATTVector(name: "write request", bytes: "12 0F 00 01 00", parsed: "handle 0x000f value 0100"),
        ATTVector(name: "write response", bytes: "13", parsed: "empty"),
        // §3.4.5.3 Write Command, §3.4.5.4 Signed Write Command (12-byte signature at the end).
        ATTVector(name: "write command", bytes: "52 12 00 68 69", parsed: "handle 0x0012 value 6869"),
        ATTVector(
            name: "signed write command", bytes: "D2 12 00 68 69 01 02 03 04 05 06 07 08 09 0A 0B 0C",
            parsed: "handle 0x0012 value 6869 signature 0102030405060708090a0b0c"),
        // §3.4.6.1/2 Prepare Write Request and Response: handle, offset, part value.
        ATTVector(
            name: "prepare write request", bytes: "16 12 00 12 00 41 42", parsed: "handle 0x0012 offset 18 value 4142"),
        ATTVector(
            name: "prepare write response", bytes: "17 12 00 12 00 41 42", parsed: "handle 0x0012 offset 18 value 4142"),
        // §3.4.6.3/4 Execute Write Request (flags) and Response.
        ATTVector(name: "execute write request", bytes: "18 01", parsed: "flags 1"),
        ATTVector(name: "execute write response", bytes: "19", parsed: "empty"),
        // §3.4.7.1/2/3 Notification, Indication, Confirmation (btmon #592 and #649).
        ATTVector(name: "notification", bytes: "1B 0E 00 06 52", parsed: "handle 0x000e value 0652"),
        ATTVector(
            name: "indication", bytes: "1D 23 00 73 34 B8 4B D0 EB 6A FE",
            parsed: "handle 0x0023 value 7334b84bd0eb6afe"),
        ATTVector(name: "confirmation", bytes: "1E", parsed: "empty"),
        // §3.4.4.11 Read Multiple Variable Request; §3.4.4.12 Response: (length, value) tuples.
        ATTVector(name: "read multiple variable request", bytes: "20 03 00 0E 00", parsed: "handles 0x0003 0x000e"),
        ATTVector(
            name: "read multiple variable response", bytes: "21 03 00 48 52 4D 02 00 06 52",
            parsed: "values 48524d 0652"),
        // The last value of a Read Multiple Variable Response may be cut by the MTU (§3.4.4.12).
        ATTVector(
            name: "read multiple variable response cut by the MTU", bytes: "21 05 00 48 52", parsed: "values 4852"),
        // §3.4.7.4 Multiple Handle Value Notification (0x23): (handle, length, value) tuples.
        ATTVector(
            name: "multiple handle value notification", bytes: "23 0E 00 02 00 06 52 20 00 01 00 FF",
            parsed: "multiple 0x000e=0652 0x0020=ff"),
        // An opcode ATT does not define is data, not an error.
        ATTVector(name: "unknown opcode", bytes: "30 01 02", parsed: "unknown 0102"),
    ]

    @Test(arguments: vectors)
    func `every ATT PDU kind parses as the spec lays it out`(vector: ATTVector) throws {
        #expect(try attText(hex(vector.bytes)) == vector.parsed)
    }

    @Test func `every opcode the parser knows has a name and the requests their responses`() {
        #expect(ATTOpcode.name(0x23) == "multi_notify")
        #expect(ATTOpcode.name(0x21) == "read_multi_var_rsp")
        #expect(ATTOpcode.name(0x52) == "write_cmd")
        #expect(ATTOpcode.name(0x30) == "opcode_0x30")
        #expect(ATTOpcode.response(to: 0x0A) == 0x0B)
        #expect(ATTOpcode.response(to: 0x20) == 0x21)
        #expect(ATTOpcode.response(to: 0x1D) == 0x1E)
        #expect(ATTOpcode.response(to: 0x52) == nil)
        #expect(ATTOpcode.isFromServer(0x23))
        #expect(!ATTOpcode.isFromServer(0x1E))
    }

    @Test func `a find information format other than 1 or 2 is an error at the format byte`() {
        // §3.4.3.2: the format is 0x01 or 0x02; anything else leaves the entry size unknown.
        let error = parseError(hex("05 03 0F 00 02 29")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.badValue("format 3 is neither 1 nor 2"), at: 1, field: "att.find_info.format"))
    }

    @Test func `a find information entry cut short is truncated`() {
        let error = parseError(hex("05 01 0F 00 02")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.truncated(needed: 2, available: 1), at: 4, field: "att.find_info.uuid"))
    }

    @Test func `a read by type response entry length below 2 is an error`() {
        let error = parseError(hex("09 01 02")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.badValue("entry length 1 is below 2"), at: 1, field: "att.read_by_type.length"))
    }

    @Test func `a read by type response whose data is not a whole number of entries is truncated`() {
        let error = parseError(hex("09 07 02 00 02 03 00 00 2A 04 00")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.truncated(needed: 7, available: 2), at: 9, field: "att.read_by_type.entry"))
    }

    @Test func `a read by type request with a 4-byte type is a bad length`() {
        // §3.4.4.1: the attribute type is a 2- or 16-octet UUID.
        let error = parseError(hex("08 01 00 FF FF 03 28 00 00")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.badLength(declared: 4, available: 4), at: 5, field: "att.attribute_type"))
    }

    @Test func `a multiple handle value notification whose length runs past the PDU is truncated`() {
        let error = parseError(hex("23 0E 00 05 00 06 52")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.truncated(needed: 5, available: 2), at: 5, field: "att.value"))
    }

    @Test func `a signed write without room for the signature is truncated`() {
        let error = parseError(hex("D2 12 00 01 02 03")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.truncated(needed: 12, available: 3), at: 3, field: "att.signature"))
    }

    @Test func `an error response without its error code is truncated`() {
        let error = parseError(hex("01 0A 03 00")) { r throws(DecodeError) in
            let opcode = try r.u8()
            _ = try ATTPDU(opcode: opcode, parsing: &r)
        }
        #expect(error == DecodeError(.truncated(needed: 1, available: 0), at: 4, field: "att.error.code"))
    }

    @Test func `error codes have their spec names`() {
        // §3.4.1.1, the error codes table.
        #expect(ATTErrorNames.name(0x05) == "insufficient_authentication")
        #expect(ATTErrorNames.name(0x0A) == "attribute_not_found")
        #expect(ATTErrorNames.name(0x80) == "application_error_0x80")
        #expect(ATTErrorNames.name(0xFD) == "cccd_improperly_configured")
        #expect(ATTErrorNames.name(0x14) == "error_0x14")
    }
}
