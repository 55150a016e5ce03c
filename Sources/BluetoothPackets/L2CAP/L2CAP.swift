import ByteReading

/// Fixed L2CAP channels on LE (Core v5.4, Vol 3, Part A, §2.1).
public enum L2CAPChannel {
    public static let signaling: UInt16 = 0x0001
    public static let attribute: UInt16 = 0x0004
    public static let leSignaling: UInt16 = 0x0005
    public static let securityManager: UInt16 = 0x0006
}

/// LE signalling packets (Core v5.4, Vol 3, Part A, §4).
public struct SignalingPacket {
    public var code: UInt8
    public var identifier: UInt8
    public var data: ByteReader

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        code = try r.u8("l2cap.signal.code")
        identifier = try r.u8("l2cap.signal.identifier")
        let length = Int(try r.u16le("l2cap.signal.length"))
        data = try r.sub(length, "l2cap.signal.data")
    }

    public static func name(_ code: UInt8) -> String {
        switch code {
        case 0x01: "command_reject"
        case 0x02: "connection_req"
        case 0x03: "connection_rsp"
        case 0x04: "configure_req"
        case 0x05: "configure_rsp"
        case 0x06: "disconnection_req"
        case 0x07: "disconnection_rsp"
        case 0x08: "echo_req"
        case 0x09: "echo_rsp"
        case 0x0A: "information_req"
        case 0x0B: "information_rsp"
        case 0x12: "conn_param_update_req"
        case 0x13: "conn_param_update_rsp"
        case 0x14: "le_credit_conn_req"
        case 0x15: "le_credit_conn_rsp"
        case 0x16: "flow_control_credit"
        case 0x17: "credit_conn_req"
        case 0x18: "credit_conn_rsp"
        case 0x19: "credit_reconfigure_req"
        case 0x1A: "credit_reconfigure_rsp"
        default: "code_0x\(String(code, radix: 16))"
        }
    }
}

/// Security Manager Protocol (Core v5.4, Vol 3, Part H, §3).
public enum SMP {
    public static func name(_ code: UInt8) -> String {
        switch code {
        case 0x01: "pairing_req"
        case 0x02: "pairing_rsp"
        case 0x03: "pairing_confirm"
        case 0x04: "pairing_random"
        case 0x05: "pairing_failed"
        case 0x06: "encryption_info"
        case 0x07: "central_identification"
        case 0x08: "identity_info"
        case 0x09: "identity_address_info"
        case 0x0A: "signing_info"
        case 0x0B: "security_req"
        case 0x0C: "pairing_public_key"
        case 0x0D: "pairing_dhkey_check"
        case 0x0E: "keypress_notification"
        default: "code_0x\(String(code, radix: 16))"
        }
    }

    public static func failure(_ reason: UInt8) -> String {
        switch reason {
        case 0x01: "passkey_entry_failed"
        case 0x02: "oob_not_available"
        case 0x03: "authentication_requirements"
        case 0x04: "confirm_value_failed"
        case 0x05: "pairing_not_supported"
        case 0x06: "encryption_key_size"
        case 0x07: "command_not_supported"
        case 0x08: "unspecified_reason"
        case 0x09: "repeated_attempts"
        case 0x0A: "invalid_parameters"
        case 0x0B: "dhkey_check_failed"
        case 0x0C: "numeric_comparison_failed"
        case 0x0D: "br_edr_pairing_in_progress"
        case 0x0E: "cross_transport_key_not_allowed"
        case 0x0F: "key_rejected"
        default: "reason_0x\(String(reason, radix: 16))"
        }
    }

    /// Pairing Request and Pairing Response parameters.
    public struct PairingFeatures: Hashable, Sendable {
        /// 0 DisplayOnly, 1 DisplayYesNo, 2 KeyboardOnly, 3 NoInputNoOutput, 4 KeyboardDisplay.
        public var ioCapability: UInt8
        public var oobDataPresent: Bool
        public var authRequirements: UInt8
        public var maxKeySize: UInt8

        public var bonding: Bool { authRequirements & 0x03 != 0 }
        public var mitm: Bool { authRequirements & 0x04 != 0 }
        public var secureConnections: Bool { authRequirements & 0x08 != 0 }

        public init(parsing r: inout ByteReader) throws(DecodeError) {
            ioCapability = try r.u8("smp.io_capability")
            oobDataPresent = try r.u8("smp.oob_data_flag") != 0
            authRequirements = try r.u8("smp.auth_req")
            maxKeySize = try r.u8("smp.max_encryption_key_size")
            _ = try r.u8("smp.initiator_key_distribution")
            _ = try r.u8("smp.responder_key_distribution")
        }
    }

    /// The association model both sides' features select (Vol 3, Part H, §2.3.5.1, tables 2.6–2.8).
    public static func pairingMethod(initiator: PairingFeatures, responder: PairingFeatures) -> String {
        let secure = initiator.secureConnections && responder.secureConnections
        if secure ? (initiator.oobDataPresent || responder.oobDataPresent)
            : (initiator.oobDataPresent && responder.oobDataPresent)
        {
            return "oob"
        }
        guard initiator.mitm || responder.mitm else { return "just_works" }
        let i = initiator.ioCapability
        let r = responder.ioCapability
        guard i <= 4, r <= 4, i != 3, r != 3 else { return "just_works" }
        // Rows: initiator I/O capability; columns: responder. P passkey, N numeric comparison (SC only), J just works.
        let table: [[Character]] = [
            ["J", "J", "P", "J", "P"],  // DisplayOnly
            ["J", "N", "P", "J", "N"],  // DisplayYesNo
            ["P", "P", "P", "J", "P"],  // KeyboardOnly
            ["J", "J", "J", "J", "J"],  // NoInputNoOutput
            ["P", "N", "P", "J", "N"],  // KeyboardDisplay
        ]
        switch table[Int(i)][Int(r)] {
        case "P": return "passkey_entry"
        case "N": return secure ? "numeric_comparison" : (i == 4 && r == 4 || i == 1 && r == 4 || i == 4 && r == 1 ? "passkey_entry" : "just_works")
        default: return "just_works"
        }
    }
}
