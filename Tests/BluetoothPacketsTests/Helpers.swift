import BluetoothPackets
import ByteReading
import Testing

/// Bytes from hex as the specs and tshark print them ("1B 0E 00 06 52").
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        Issue.record("not hex: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

/// Runs `body` with a reader over `bytes`. Parsed values borrow the bytes, so they are checked inside.
func reading<T>(_ bytes: [UInt8], _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
    try ByteReader.reading(bytes, body)
}

/// The error `body` throws over `bytes`, or nil (recorded as an issue) when it throws none.
func parseError(
    _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (inout ByteReader) throws(DecodeError) -> Void
) -> DecodeError? {
    do {
        try reading(bytes, body)
    } catch {
        return error
    }
    Issue.record("expected a DecodeError", sourceLocation: sourceLocation)
    return nil
}

/// An ATT PDU (opcode first) parsed and written as one line, values in hex: one string to compare.
func attText(_ pdu: [UInt8]) throws(DecodeError) -> String {
    try reading(pdu) { r throws(DecodeError) in
        let opcode = try r.u8("att.opcode")
        return describe(try ATTPDU(opcode: opcode, parsing: &r))
    }
}

func describe(_ pdu: ATTPDU) -> String {
    func h(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
    func x(_ bytes: UnsafeRawBufferPointer) -> String { Hex.encode(bytes) }
    switch pdu {
    case .errorResponse(let request, let handle, let error):
        return "error request 0x\(String(request, radix: 16)) handle \(h(handle)) code 0x\(String(error, radix: 16))"
    case .exchangeMTU(let mtu):
        return "mtu \(mtu)"
    case .handleRange(let start, let end):
        return "range \(h(start))-\(h(end))"
    case .handleRangeWithType(let start, let end, let type):
        return "range \(h(start))-\(h(end)) type \(type)"
    case .findByTypeValueRequest(let start, let end, let type, let value):
        return "range \(h(start))-\(h(end)) type \(h(type)) value \(x(value))"
    case .findInformationResponse(let entries):
        return "info " + entries.map { "\(h($0.handle))=\($0.uuid)" }.joined(separator: " ")
    case .findByTypeValueResponse(let entries):
        return "found " + entries.map { "\(h($0.handle))-\(h($0.groupEnd))" }.joined(separator: " ")
    case .readByTypeResponse(let entries):
        return "by_type " + entries.map { "\(h($0.handle))=\(x($0.value))" }.joined(separator: " ")
    case .readByGroupTypeResponse(let entries):
        return "by_group " + entries.map { "\(h($0.handle))-\(h($0.groupEnd))=\(x($0.value))" }.joined(separator: " ")
    case .handle(let handle):
        return "handle \(h(handle))"
    case .handleOffset(let handle, let offset):
        return "handle \(h(handle)) offset \(offset)"
    case .handles(let handles):
        return "handles " + handles.map(h).joined(separator: " ")
    case .value(let value):
        return "value \(x(value))"
    case .handleValue(let handle, let value):
        return "handle \(h(handle)) value \(x(value))"
    case .signedWrite(let handle, let value, let signature):
        return "handle \(h(handle)) value \(x(value)) signature \(x(signature))"
    case .prepareWrite(let handle, let offset, let value):
        return "handle \(h(handle)) offset \(offset) value \(x(value))"
    case .executeWrite(let flags):
        return "flags \(flags)"
    case .values(let values):
        return "values " + values.map(x).joined(separator: " ")
    case .multipleHandleValues(let entries):
        return "multiple " + entries.map { "\(h($0.handle))=\(x($0.value))" }.joined(separator: " ")
    case .empty:
        return "empty"
    case .unknown(let bytes):
        return "unknown \(x(bytes))"
    }
}
