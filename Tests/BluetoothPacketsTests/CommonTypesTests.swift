import BluetoothPackets
import ByteReading
import TestSupport
import Testing

/// UUIDs (Core v5.4, Vol 3, Part B, §2.5.1) and device addresses (Vol 6, Part B, §1.3).
struct BluetoothUUIDTests {
    static let nordicUART = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
    /// The Nordic UART service UUID as it travels: least significant byte first.
    static let nordicUARTWire = "9e ca dc 24 0e e5 a9 e0 93 f3 a3 b5 01 00 40 6e"

    @Test(arguments: [
        "2a37", "2A37", "0x2A37", "00002a37-0000-1000-8000-00805f9b34fb", "00002A3700001000800000805F9B34FB",
    ])
    func `every text form of a SIG UUID is the same UUID, printed short`(text: String) throws {
        let uuid = try #require(BluetoothUUID(text))
        #expect(uuid == BluetoothUUID(0x2A37))
        #expect(uuid.shortValue == 0x2A37)
        #expect(uuid.description == "2a37")
    }

    @Test func `a 128-bit UUID prints in the canonical lower-case form`() throws {
        let uuid = try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(uuid.description == Self.nordicUART)
        #expect(uuid.shortValue == nil)
        #expect(BluetoothUUID("6e400001b5a3f393e0a9e50e24dcca9e") == uuid)
    }

    @Test func `the Nordic UART UUID is written least significant byte first`() throws {
        let uuid = try #require(BluetoothUUID(Self.nordicUART))
        #expect(uuid.wireBytes() == hex(Self.nordicUARTWire))
        #expect(uuid.wireBytes(size: 16) == hex(Self.nordicUARTWire))
    }

    @Test func `the Nordic UART UUID is read from its wire bytes`() throws {
        let uuid = try reading(hex(Self.nordicUARTWire)) { r throws(DecodeError) in
            try BluetoothUUID(reading: &r, size: 16)
        }
        #expect(uuid.description == Self.nordicUART)
    }

    @Test func `a 16-bit UUID is two bytes on the wire and the base UUID in full`() throws {
        let uuid = BluetoothUUID(0x2A37)
        #expect(uuid.wireBytes() == [0x37, 0x2A])
        // 00002A37-0000-1000-8000-00805F9B34FB, least significant byte first.
        #expect(uuid.wireBytes(size: 16) == hex("FB 34 9B 5F 80 00 00 80 00 10 00 00 37 2A 00 00"))
        let read = try reading(hex("37 2A")) { r throws(DecodeError) in try BluetoothUUID(reading: &r, size: 2) }
        #expect(read == uuid)
    }

    @Test func `a 32-bit SIG UUID prints eight digits and is four bytes on the wire`() throws {
        let uuid = BluetoothUUID(0x1234_5678)
        #expect(uuid.description == "12345678")
        #expect(uuid.wireBytes() == [0x78, 0x56, 0x34, 0x12])
        #expect(BluetoothUUID("12345678") == uuid)
        #expect(BluetoothUUID("12345678-0000-1000-8000-00805f9b34fb")?.description == "12345678")
    }

    @Test(arguments: [
        "2a3", "2a37a", "xyz1", "", "0x", "2a-37",
        "6e400001-b5a3-f393-e0a9e50e24dcca9e", "6e400001b5a3-f393-e0a9-e50e24dc-ca9e",
        "6e400001-b5a3-f393-e0a9-e50e24dcca9",
    ])
    func `text that is not a UUID is refused`(text: String) {
        #expect(BluetoothUUID(text) == nil)
    }

    @Test func `a UUID taken from bytes in place is the one read from them`() throws {
        for (wire, size) in [(Self.nordicUARTWire, 16), ("37 2A", 2), ("78 56 34 12", 4)] {
            let bytes = hex(wire + " EE")  // a byte past the UUID, not part of it
            let read = try reading(bytes) { r throws(DecodeError) in try BluetoothUUID(reading: &r, size: size) }
            bytes.withUnsafeBytes { #expect(BluetoothUUID(littleEndian: $0, size: size) == read) }
        }
        #expect(hex("78 56 34 12").withUnsafeBytes { BluetoothUUID(littleEndian: $0, size: 4) }.description == "12345678")
    }

    @Test func `a UUID size other than 2, 4 or 16 is a bad length`() {
        let error = parseError(hex("01 02 03")) { r throws(DecodeError) in
            _ = try BluetoothUUID(reading: &r, size: 3)
        }
        #expect(error == DecodeError(.badLength(declared: 3, available: 3), at: 0, field: "uuid"))
    }

    @Test func `assigned names know the SIG and Nordic UUIDs`() throws {
        #expect(AssignedNames.uuid(BluetoothUUID(0x2A37)) == "Heart Rate Measurement")
        #expect(AssignedNames.uuid(try #require(BluetoothUUID(Self.nordicUART))) == "Nordic UART Service")
        #expect(AssignedNames.uuid(BluetoothUUID(0xABCD)) == nil)
        #expect(AssignedNames.company(0x004C) == "Apple, Inc.")
    }
}

struct BluetoothAddressTests {
    @Test func `an address read from the wire prints most significant byte first, upper case`() throws {
        // tshark reference frame 9: c2:6b:30:f9:0e:c7, on the wire c7 0e f9 30 6b c2.
        let address = try reading(hex("C7 0E F9 30 6B C2")) { r throws(DecodeError) in
            try BluetoothAddress(reading: &r)
        }
        #expect(address.description == "C2:6B:30:F9:0E:C7")
        #expect(address.value == 0xC26B_30F9_0EC7)
        #expect(address.wireBytes == hex("C7 0E F9 30 6B C2"))
    }

    @Test func `leading zero bytes are printed`() {
        #expect(BluetoothAddress(0x001A_7D1A_FDC9).description == "00:1A:7D:1A:FD:C9")
        #expect(BluetoothAddress(0).description == "00:00:00:00:00:00")
    }

    @Test(arguments: ["C2:6B:30:F9:0E:C7", "c2:6b:30:f9:0e:c7", "C2-6B-30-F9-0E-C7", "C26B30F90EC7"])
    func `the printed forms of an address parse back`(text: String) {
        #expect(BluetoothAddress(text) == BluetoothAddress(0xC26B_30F9_0EC7))
    }

    @Test(arguments: ["C2:6B:30:F9:0E", "C2:6B:30:F9:0E:C7:00", "G2:6B:30:F9:0E:C7", ""])
    func `text that is not six bytes is not an address`(text: String) {
        #expect(BluetoothAddress(text) == nil)
    }

    @Test func `an address keeps only 48 bits`() {
        #expect(BluetoothAddress(0xFFFF_0011_2233_4455).description == "00:11:22:33:44:55")
    }

    @Test func `address types have the HCI names`() {
        // Vol 4, Part E, §7.7.65.10: 0 public, 1 random, 2 public identity, 3 random identity.
        #expect(
            [0, 1, 2, 3, 0xFF, 7].map { AddressType(rawValue: $0).name } == [
                "public", "random", "public_identity", "random_identity", "anonymous", "type_7",
            ])
    }
}

/// UUIDs and addresses print as their digits do one by one (`String(_:radix:)`), for every digit.
struct PrintedFormTests {
    static func hex(_ value: UInt64, _ digits: Int, uppercase: Bool = false) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: digits - text.count) + text
    }

    @Test func `UUIDs print in the canonical and short forms, every digit`() {
        var generator = TestRandom(seed: 7)
        for round in 0..<20_000 {
            // Each nibble value in each place, then random ones.
            let nibble = UInt64(round % 16) * 0x1111_1111_1111_1111
            let (high, low) = round < 16 ? (nibble, ~nibble) : (generator.next(), generator.next())
            let uuid = BluetoothUUID(high: high, low: low)
            let expected = [
                Self.hex(high >> 32, 8), Self.hex(high >> 16 & 0xFFFF, 4), Self.hex(high & 0xFFFF, 4),
                Self.hex(low >> 48, 4), Self.hex(low & 0xFFFF_FFFF_FFFF, 12),
            ].joined(separator: "-")
            #expect(uuid.canonicalDescription == expected)
            let short = UInt32(truncatingIfNeeded: generator.next())
            #expect(BluetoothUUID(short).description == Self.hex(UInt64(short), short <= 0xFFFF ? 4 : 8))
            let sixteen = UInt16(truncatingIfNeeded: generator.next())
            #expect(BluetoothUUID(UInt32(sixteen)).description == Self.hex(UInt64(sixteen), 4))
        }
    }

    @Test func `addresses print upper case with colons, every digit`() {
        var generator = TestRandom(seed: 11)
        for round in 0..<20_000 {
            let value = round < 16 ? UInt64(round) * 0x1111_1111_1111 : generator.next() & 0xFFFF_FFFF_FFFF
            let digits = Self.hex(value, 12, uppercase: true)
            let expected = stride(from: 0, to: 12, by: 2).map { offset in
                String(digits.dropFirst(offset).prefix(2))
            }.joined(separator: ":")
            #expect(BluetoothAddress(value).description == expected)
        }
    }
}
