import BluetoothPackets
import ByteReading
import Testing

/// AD structures (Core v5.4, Vol 3, Part C, §11) with BlueZ's rules for the significant part.
struct AdvertisingDataTests {
    /// (type, hex data, offset) of each structure, and the error that stopped parsing.
    func structures(_ bytes: [UInt8]) -> (list: [String], error: DecodeError?) {
        var list: [String] = []
        let error = AdvertisingData(bytes).forEach { s in
            list.append("\(s.type):\(Hex.encode(s.data))@\(s.offset)")
        }
        return (list, error)
    }

    @Test func `structures come out in order with their offsets`() {
        // tshark reference frame 9: flags, manufacturer data (0xFFFF), TX power.
        let data = hex("02 01 04 13 FF FF FF 01 00 00 00 34 A2 0F 0B 0D 04 C3 6E D8 0E 71 E0 02 0A 04")
        let parsed = structures(data)
        #expect(parsed.list == ["1:04@0", "255:ffff0100000034a20f0b0d04c36ed80e71e0@3", "10:04@23"])
        #expect(parsed.error == nil)
    }

    @Test func `a zero length ends the significant part`() {
        // §11: the non-significant part after a zero length is padding; nothing after it is parsed.
        let parsed = structures(hex("02 01 06 00 03 FF 4C 00"))
        #expect(parsed.list == ["1:06@0"])
        #expect(parsed.error == nil)
    }

    @Test func `a length that runs past the data is reported at its length byte`() {
        let parsed = structures(hex("02 01 06 05 09 41 42"))
        #expect(parsed.list == ["1:06@0"])
        #expect(parsed.error == DecodeError(.badLength(declared: 5, available: 3), at: 3, field: "ad.length"))
    }

    @Test func `a length byte with nothing after it is an overrun too`() {
        let parsed = structures(hex("02 01 06 01"))
        #expect(parsed.list == ["1:06@0"])
        #expect(parsed.error == DecodeError(.badLength(declared: 1, available: 0), at: 3, field: "ad.length"))
    }

    @Test func `a structure of length one has a type and no data`() {
        let parsed = structures(hex("01 09 02 01 06"))
        #expect(parsed.list == ["9:@0", "1:06@2"])
        #expect(parsed.error == nil)
    }

    @Test func `the complete name wins over the shortened one`() {
        // Assigned Numbers §2.3: 0x08 shortened, 0x09 complete local name.
        #expect(AdvertisingData(hex("04 08 45 6E 76 05 09 45 6E 76 53")).localName == "EnvS")
        #expect(AdvertisingData(hex("04 08 45 6E 76")).localName == "Env")
        #expect(AdvertisingData(hex("02 01 06")).localName == nil)
    }

    @Test func `service UUIDs come from the 16-, 32- and 128-bit lists`() {
        // tshark reference frame 16 lists 0x180D and 0x180F; then a 32-bit and the Nordic UART UUID.
        let data = hex(
            """
            05 03 0D 18 0F 18
            05 05 78 56 34 12
            11 07 9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 01 00 40 6E
            """)
        #expect(
            AdvertisingData(data).serviceUUIDs.map(\.description) == [
                "180d", "180f", "12345678", "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
            ])
    }

    @Test func `service data is not a service UUID list`() {
        #expect(AdvertisingData(hex("05 16 1A 18 1B 07")).serviceUUIDs.isEmpty)
        #expect(ADType.uuidSize(ADType.serviceData128) == 16)
        #expect(ADType.uuidSize(ADType.manufacturerData) == nil)
    }
}
