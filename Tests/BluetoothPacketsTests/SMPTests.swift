import BluetoothPackets
import ByteReading
import Testing

/// One row of the association-model tables: both sides' features and the method they select.
struct PairingCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// IO capability, OOB flag, AuthReq of the initiator (Pairing Request) and the responder (Pairing Response).
    var initiator: (io: UInt8, oob: UInt8, auth: UInt8)
    var responder: (io: UInt8, oob: UInt8, auth: UInt8)
    var method: String
    var testDescription: String { name }
}

/// SMP pairing features and method selection (Core v5.4, Vol 3, Part H, §2.3.5.1, tables 2.6–2.8).
struct SMPTests {
    // IO capabilities (§3.5.1).
    static let displayOnly: UInt8 = 0
    static let displayYesNo: UInt8 = 1
    static let keyboardOnly: UInt8 = 2
    static let noInputNoOutput: UInt8 = 3
    static let keyboardDisplay: UInt8 = 4
    // AuthReq (§3.5.1): bits 0–1 bonding, bit 2 MITM, bit 3 SC.
    static let bondMITM: UInt8 = 0x05
    static let bondMITMSC: UInt8 = 0x0D
    static let bondOnly: UInt8 = 0x01
    static let bondSC: UInt8 = 0x09

    static let cases: [PairingCase] = [
        // Table 2.8, legacy pairing.
        PairingCase(
            name: "legacy: KeyboardDisplay and KeyboardDisplay use passkey entry",
            initiator: (keyboardDisplay, 0, bondMITM), responder: (keyboardDisplay, 0, bondMITM),
            method: "passkey_entry"),
        PairingCase(
            name: "legacy: DisplayYesNo and DisplayYesNo fall back to just works",
            initiator: (displayYesNo, 0, bondMITM), responder: (displayYesNo, 0, bondMITM), method: "just_works"),
        PairingCase(
            name: "legacy: DisplayYesNo initiator and KeyboardDisplay responder use passkey entry",
            initiator: (displayYesNo, 0, bondMITM), responder: (keyboardDisplay, 0, bondMITM), method: "passkey_entry"),
        PairingCase(
            name: "legacy: DisplayOnly initiator and KeyboardOnly responder use passkey entry",
            initiator: (displayOnly, 0, bondMITM), responder: (keyboardOnly, 0, bondMITM), method: "passkey_entry"),
        PairingCase(
            name: "legacy: DisplayYesNo initiator and DisplayOnly responder use just works",
            initiator: (displayYesNo, 0, bondMITM), responder: (displayOnly, 0, bondMITM), method: "just_works"),
        PairingCase(
            name: "legacy: KeyboardOnly on both sides use passkey entry",
            initiator: (keyboardOnly, 0, bondMITM), responder: (keyboardOnly, 0, bondMITM), method: "passkey_entry"),
        PairingCase(
            name: "legacy: NoInputNoOutput on either side is just works",
            initiator: (keyboardDisplay, 0, bondMITM), responder: (noInputNoOutput, 0, bondMITM), method: "just_works"),
        PairingCase(
            name: "legacy: without MITM on either side the IO capabilities are ignored",
            initiator: (keyboardDisplay, 0, bondOnly), responder: (keyboardDisplay, 0, bondOnly), method: "just_works"),
        // Table 2.6: legacy OOB needs OOB data on both sides.
        PairingCase(
            name: "legacy: OOB data on both sides is OOB",
            initiator: (noInputNoOutput, 1, bondOnly), responder: (noInputNoOutput, 1, bondOnly), method: "oob"),
        PairingCase(
            name: "legacy: OOB data on one side only is not OOB",
            initiator: (keyboardOnly, 1, bondMITM), responder: (displayOnly, 0, bondMITM), method: "passkey_entry"),
        // Table 2.8, LE Secure Connections.
        PairingCase(
            name: "SC: KeyboardDisplay and KeyboardDisplay use numeric comparison",
            initiator: (keyboardDisplay, 0, bondMITMSC), responder: (keyboardDisplay, 0, bondMITMSC),
            method: "numeric_comparison"),
        PairingCase(
            name: "SC: DisplayYesNo and DisplayYesNo use numeric comparison",
            initiator: (displayYesNo, 0, bondMITMSC), responder: (displayYesNo, 0, bondMITMSC),
            method: "numeric_comparison"),
        PairingCase(
            name: "SC: KeyboardDisplay initiator and DisplayYesNo responder use numeric comparison",
            initiator: (keyboardDisplay, 0, bondMITMSC), responder: (displayYesNo, 0, bondMITMSC),
            method: "numeric_comparison"),
        PairingCase(
            name: "SC: KeyboardOnly initiator and DisplayYesNo responder use passkey entry",
            initiator: (keyboardOnly, 0, bondMITMSC), responder: (displayYesNo, 0, bondMITMSC), method: "passkey_entry"),
        PairingCase(
            name: "SC: DisplayOnly and DisplayOnly use just works",
            initiator: (displayOnly, 0, bondMITMSC), responder: (displayOnly, 0, bondMITMSC), method: "just_works"),
        PairingCase(
            name: "SC: NoInputNoOutput responder is just works",
            initiator: (keyboardDisplay, 0, bondMITMSC), responder: (noInputNoOutput, 0, bondMITMSC),
            method: "just_works"),
        // Table 2.7: with Secure Connections one side's OOB data is enough.
        PairingCase(
            name: "SC: OOB data on one side is OOB",
            initiator: (keyboardDisplay, 1, bondSC), responder: (keyboardDisplay, 0, bondSC), method: "oob"),
        // Secure Connections only when both sides set SC: this is legacy.
        PairingCase(
            name: "SC on one side only is legacy pairing",
            initiator: (displayYesNo, 0, bondMITMSC), responder: (displayYesNo, 0, bondMITM), method: "just_works"),
    ]

    static func features(_ side: (io: UInt8, oob: UInt8, auth: UInt8)) throws -> SMP.PairingFeatures {
        // §3.5.1 Pairing Request after its code: IO, OOB, AuthReq, max key size, key distributions.
        try reading([side.io, side.oob, side.auth, 16, 0x07, 0x07]) { r throws(DecodeError) in
            try SMP.PairingFeatures(parsing: &r)
        }
    }

    @Test(arguments: cases)
    func `the association model follows the spec's tables`(row: PairingCase) throws {
        let method = SMP.pairingMethod(
            initiator: try Self.features(row.initiator), responder: try Self.features(row.responder))
        #expect(method == row.method)
    }

    @Test func `pairing request features are read field by field`() throws {
        // btmon "Pairing Request": IO KeyboardDisplay, no OOB, bonding + MITM + SC + CT2 (0x2d), 16 bytes.
        let features = try reading(hex("04 00 2D 10 0F 0F")) { r throws(DecodeError) in
            try SMP.PairingFeatures(parsing: &r)
        }
        #expect(features.ioCapability == 4)
        #expect(!features.oobDataPresent)
        #expect(features.bonding)
        #expect(features.mitm)
        #expect(features.secureConnections)
        #expect(features.maxKeySize == 16)
    }

    @Test func `a pairing request without its key distributions is truncated`() {
        let error = parseError(hex("04 00 2D 10 0F")) { r throws(DecodeError) in
            _ = try SMP.PairingFeatures(parsing: &r)
        }
        #expect(
            error == DecodeError(.truncated(needed: 1, available: 0), at: 5, field: "smp.responder_key_distribution"))
    }

    @Test func `SMP codes and failure reasons have names`() {
        #expect(SMP.name(0x01) == "pairing_req")
        #expect(SMP.name(0x0C) == "pairing_public_key")
        #expect(SMP.failure(0x04) == "confirm_value_failed")
        #expect(SMP.failure(0x20) == "reason_0x20")
    }
}
