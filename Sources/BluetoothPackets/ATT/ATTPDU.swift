import ByteReading

/// ATT opcodes of Core v5.4, Vol 3, Part F, §3.4.8, with their Bluetape names.
public enum ATTOpcode {
    public static let errorResponse: UInt8 = 0x01
    public static let exchangeMTURequest: UInt8 = 0x02
    public static let exchangeMTUResponse: UInt8 = 0x03
    public static let findInformationRequest: UInt8 = 0x04
    public static let findInformationResponse: UInt8 = 0x05
    public static let findByTypeValueRequest: UInt8 = 0x06
    public static let findByTypeValueResponse: UInt8 = 0x07
    public static let readByTypeRequest: UInt8 = 0x08
    public static let readByTypeResponse: UInt8 = 0x09
    public static let readRequest: UInt8 = 0x0A
    public static let readResponse: UInt8 = 0x0B
    public static let readBlobRequest: UInt8 = 0x0C
    public static let readBlobResponse: UInt8 = 0x0D
    public static let readMultipleRequest: UInt8 = 0x0E
    public static let readMultipleResponse: UInt8 = 0x0F
    public static let readByGroupTypeRequest: UInt8 = 0x10
    public static let readByGroupTypeResponse: UInt8 = 0x11
    public static let writeRequest: UInt8 = 0x12
    public static let writeResponse: UInt8 = 0x13
    public static let prepareWriteRequest: UInt8 = 0x16
    public static let prepareWriteResponse: UInt8 = 0x17
    public static let executeWriteRequest: UInt8 = 0x18
    public static let executeWriteResponse: UInt8 = 0x19
    public static let handleValueNotification: UInt8 = 0x1B
    public static let handleValueIndication: UInt8 = 0x1D
    public static let handleValueConfirmation: UInt8 = 0x1E
    public static let readMultipleVariableRequest: UInt8 = 0x20
    public static let readMultipleVariableResponse: UInt8 = 0x21
    public static let multipleHandleValueNotification: UInt8 = 0x23
    public static let writeCommand: UInt8 = 0x52
    public static let signedWriteCommand: UInt8 = 0xD2

    /// The `op` name in events.
    public static func name(_ opcode: UInt8) -> String { names[Int(opcode)] }

    /// Every opcode's name, made once: one is taken for each attribute value decoded, and making
    /// it each time cost more than the decoder.
    private static let names: [String] = (0...255).map { opcode in
        staticName(UInt8(opcode)).map { "\($0)" } ?? "opcode_0x\(String(opcode, radix: 16))"
    }

    public static func staticName(_ opcode: UInt8) -> StaticString? {
        switch opcode {
        case 0x01: "error_rsp"
        case 0x02: "mtu_req"
        case 0x03: "mtu_rsp"
        case 0x04: "find_info_req"
        case 0x05: "find_info_rsp"
        case 0x06: "find_by_type_req"
        case 0x07: "find_by_type_rsp"
        case 0x08: "read_by_type_req"
        case 0x09: "read_by_type_rsp"
        case 0x0A: "read_req"
        case 0x0B: "read_rsp"
        case 0x0C: "read_blob_req"
        case 0x0D: "read_blob_rsp"
        case 0x0E: "read_multi_req"
        case 0x0F: "read_multi_rsp"
        case 0x10: "read_by_group_req"
        case 0x11: "read_by_group_rsp"
        case 0x12: "write_req"
        case 0x13: "write_rsp"
        case 0x16: "prepare_write_req"
        case 0x17: "prepare_write_rsp"
        case 0x18: "execute_write_req"
        case 0x19: "execute_write_rsp"
        case 0x1B: "notify"
        case 0x1D: "indicate"
        case 0x1E: "confirm"
        case 0x20: "read_multi_var_req"
        case 0x21: "read_multi_var_rsp"
        case 0x23: "multi_notify"
        case 0x52: "write_cmd"
        case 0xD2: "signed_write_cmd"
        default: nil
        }
    }

    /// The response (or confirmation) that answers a request, if it is one.
    public static func response(to request: UInt8) -> UInt8? {
        switch request {
        case 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20: request + 1
        case 0x1D: 0x1E
        default: nil
        }
    }

    /// True for the PDUs a server sends (responses, notifications, indications).
    public static func isFromServer(_ opcode: UInt8) -> Bool {
        switch opcode {
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x1B, 0x1D, 0x21, 0x23: true
        default: false
        }
    }
}

/// ATT error codes (§3.4.1.1).
public enum ATTErrorNames {
    public static func name(_ code: UInt8) -> String {
        switch code {
        case 0x01: "invalid_handle"
        case 0x02: "read_not_permitted"
        case 0x03: "write_not_permitted"
        case 0x04: "invalid_pdu"
        case 0x05: "insufficient_authentication"
        case 0x06: "request_not_supported"
        case 0x07: "invalid_offset"
        case 0x08: "insufficient_authorization"
        case 0x09: "prepare_queue_full"
        case 0x0A: "attribute_not_found"
        case 0x0B: "attribute_not_long"
        case 0x0C: "insufficient_encryption_key_size"
        case 0x0D: "invalid_attribute_value_length"
        case 0x0E: "unlikely_error"
        case 0x0F: "insufficient_encryption"
        case 0x10: "unsupported_group_type"
        case 0x11: "insufficient_resources"
        case 0x12: "database_out_of_sync"
        case 0x13: "value_not_allowed"
        case 0xFC: "write_request_rejected"
        case 0xFD: "cccd_improperly_configured"
        case 0xFE: "procedure_already_in_progress"
        case 0xFF: "out_of_range"
        default: code >= 0x80 && code <= 0x9F ? "application_error_0x\(String(code, radix: 16))" : "error_0x\(String(code, radix: 16))"
        }
    }
}

/// One ATT PDU, parsed. Values are borrowed from the packet they were read from.
public enum ATTPDU {
    case errorResponse(requestOpcode: UInt8, handle: UInt16, error: UInt8)
    case exchangeMTU(mtu: UInt16)
    case handleRange(start: UInt16, end: UInt16)
    case handleRangeWithType(start: UInt16, end: UInt16, type: BluetoothUUID)
    case findByTypeValueRequest(start: UInt16, end: UInt16, type: UInt16, value: UnsafeRawBufferPointer)
    case findInformationResponse([(handle: UInt16, uuid: BluetoothUUID)])
    case findByTypeValueResponse([(handle: UInt16, groupEnd: UInt16)])
    case readByTypeResponse([(handle: UInt16, value: UnsafeRawBufferPointer)])
    case readByGroupTypeResponse([(handle: UInt16, groupEnd: UInt16, value: UnsafeRawBufferPointer)])
    case handle(UInt16)
    case handleOffset(handle: UInt16, offset: UInt16)
    case handles([UInt16])
    /// A bare value: Read, Read Blob and Read Multiple Responses.
    case value(UnsafeRawBufferPointer)
    case handleValue(handle: UInt16, value: UnsafeRawBufferPointer)
    case signedWrite(handle: UInt16, value: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer)
    case prepareWrite(handle: UInt16, offset: UInt16, value: UnsafeRawBufferPointer)
    case executeWrite(flags: UInt8)
    case values([UnsafeRawBufferPointer])
    case multipleHandleValues([(handle: UInt16, value: UnsafeRawBufferPointer)])
    /// Write Response, Execute Write Response, Confirmation.
    case empty
    case unknown(UnsafeRawBufferPointer)

    /// Parses the parameters of an ATT PDU whose opcode has been read.
    public init(opcode: UInt8, parsing r: inout ByteReader) throws(DecodeError) {
        switch opcode {
        case ATTOpcode.errorResponse:
            self = .errorResponse(
                requestOpcode: try r.u8("att.error.request_opcode"), handle: try r.u16le("att.error.handle"),
                error: try r.u8("att.error.code"))
        case ATTOpcode.exchangeMTURequest, ATTOpcode.exchangeMTUResponse:
            self = .exchangeMTU(mtu: try r.u16le("att.mtu"))
        case ATTOpcode.findInformationRequest:
            self = .handleRange(start: try r.u16le("att.start_handle"), end: try r.u16le("att.end_handle"))
        case ATTOpcode.findInformationResponse:
            let format = try r.u8("att.find_info.format")
            guard format == 1 || format == 2 else {
                throw DecodeError(.badValue("format \(format) is neither 1 nor 2"), at: r.offset - 1, field: "att.find_info.format")
            }
            let size = format == 1 ? 2 : 16
            var entries: [(handle: UInt16, uuid: BluetoothUUID)] = []
            while !r.isAtEnd {
                let handle = try r.u16le("att.find_info.handle")
                entries.append((handle, try BluetoothUUID(reading: &r, size: size, "att.find_info.uuid")))
            }
            self = .findInformationResponse(entries)
        case ATTOpcode.findByTypeValueRequest:
            self = .findByTypeValueRequest(
                start: try r.u16le("att.start_handle"), end: try r.u16le("att.end_handle"),
                type: try r.u16le("att.attribute_type"), value: r.rest())
        case ATTOpcode.findByTypeValueResponse:
            var entries: [(handle: UInt16, groupEnd: UInt16)] = []
            while !r.isAtEnd {
                entries.append((try r.u16le("att.found_handle"), try r.u16le("att.group_end_handle")))
            }
            self = .findByTypeValueResponse(entries)
        case ATTOpcode.readByTypeRequest, ATTOpcode.readByGroupTypeRequest:
            let start = try r.u16le("att.start_handle")
            let end = try r.u16le("att.end_handle")
            let size = r.remaining
            guard size == 2 || size == 16 else {
                throw DecodeError(.badLength(declared: size, available: size), at: r.offset, field: "att.attribute_type")
            }
            self = .handleRangeWithType(start: start, end: end, type: try BluetoothUUID(reading: &r, size: size))
        case ATTOpcode.readByTypeResponse:
            let length = Int(try r.u8("att.read_by_type.length"))
            guard length >= 2 else {
                throw DecodeError(.badValue("entry length \(length) is below 2"), at: r.offset - 1, field: "att.read_by_type.length")
            }
            var entries: [(handle: UInt16, value: UnsafeRawBufferPointer)] = []
            while !r.isAtEnd {
                var entry = try r.sub(length, "att.read_by_type.entry")
                entries.append((try entry.u16le("att.read_by_type.handle"), entry.rest()))
            }
            self = .readByTypeResponse(entries)
        case ATTOpcode.readByGroupTypeResponse:
            let length = Int(try r.u8("att.read_by_group.length"))
            guard length >= 4 else {
                throw DecodeError(.badValue("entry length \(length) is below 4"), at: r.offset - 1, field: "att.read_by_group.length")
            }
            var entries: [(handle: UInt16, groupEnd: UInt16, value: UnsafeRawBufferPointer)] = []
            while !r.isAtEnd {
                var entry = try r.sub(length, "att.read_by_group.entry")
                let handle = try entry.u16le("att.read_by_group.handle")
                entries.append((handle, try entry.u16le("att.read_by_group.end_group_handle"), entry.rest()))
            }
            self = .readByGroupTypeResponse(entries)
        case ATTOpcode.readRequest:
            self = .handle(try r.u16le("att.handle"))
        case ATTOpcode.readBlobRequest:
            self = .handleOffset(handle: try r.u16le("att.handle"), offset: try r.u16le("att.offset"))
        case ATTOpcode.readMultipleRequest, ATTOpcode.readMultipleVariableRequest:
            var handles: [UInt16] = []
            while !r.isAtEnd { handles.append(try r.u16le("att.handle")) }
            self = .handles(handles)
        case ATTOpcode.readResponse, ATTOpcode.readBlobResponse, ATTOpcode.readMultipleResponse:
            self = .value(r.rest())
        case ATTOpcode.writeRequest, ATTOpcode.writeCommand, ATTOpcode.handleValueNotification,
            ATTOpcode.handleValueIndication:
            self = .handleValue(handle: try r.u16le("att.handle"), value: r.rest())
        case ATTOpcode.signedWriteCommand:
            let handle = try r.u16le("att.handle")
            guard r.remaining >= 12 else {
                throw DecodeError(.truncated(needed: 12, available: r.remaining), at: r.offset, field: "att.signature")
            }
            let value = try r.bytes(r.remaining - 12)
            self = .signedWrite(handle: handle, value: value, signature: r.rest())
        case ATTOpcode.prepareWriteRequest, ATTOpcode.prepareWriteResponse:
            self = .prepareWrite(handle: try r.u16le("att.handle"), offset: try r.u16le("att.offset"), value: r.rest())
        case ATTOpcode.executeWriteRequest:
            self = .executeWrite(flags: try r.u8("att.execute_write.flags"))
        case ATTOpcode.writeResponse, ATTOpcode.executeWriteResponse, ATTOpcode.handleValueConfirmation:
            self = .empty
        case ATTOpcode.readMultipleVariableResponse:
            var values: [UnsafeRawBufferPointer] = []
            while !r.isAtEnd {
                let length = Int(try r.u16le("att.value_length"))
                // The last value may be cut by the MTU; take what is there.
                values.append(try r.bytes(min(length, r.remaining), "att.value"))
            }
            self = .values(values)
        case ATTOpcode.multipleHandleValueNotification:
            var entries: [(handle: UInt16, value: UnsafeRawBufferPointer)] = []
            while !r.isAtEnd {
                let handle = try r.u16le("att.handle")
                let length = Int(try r.u16le("att.value_length"))
                entries.append((handle, try r.bytes(length, "att.value")))
            }
            self = .multipleHandleValues(entries)
        default:
            self = .unknown(r.rest())
        }
    }
}
