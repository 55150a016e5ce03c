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

    @Test(arguments: [0, 1, 30, 31, 32, 251])
    func `data is kept whole inside the value up to 31 bytes and on the heap beyond`(count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let fromArray = AdvertisingData(bytes)
        let fromBuffer = bytes.withUnsafeBytes { AdvertisingData($0) }
        #expect(fromArray.bytes == bytes)
        #expect(fromBuffer.bytes == bytes)
        #expect(fromArray.count == count)
        #expect(fromArray.withUnsafeBytes { Array($0) } == bytes)
        #expect(fromArray == fromBuffer)
        #expect(fromArray.hashValue == fromBuffer.hashValue)
        // One byte more or less is different data, whichever way each is held.
        #expect(fromArray != AdvertisingData(bytes + [0]))
        if count > 0 { #expect(fromArray != AdvertisingData(Array(bytes.dropLast()))) }
    }

    @Test func `data is equal exactly when its bytes are, for every length and every differing byte`() {
        // Lengths 0–40 (inline and on the heap), zeros at the end, one byte changed at every place.
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            let data = AdvertisingData(bytes)
            #expect(data == AdvertisingData(bytes))
            #expect(data != AdvertisingData(bytes + [0]))
            #expect(AdvertisingData([UInt8](repeating: 0, count: count)) != AdvertisingData([UInt8](repeating: 0, count: count + 1)))
            for place in 0..<count {
                var changed = bytes
                changed[place] ^= 0x80
                #expect(data != AdvertisingData(changed), "length \(count), byte \(place)")
            }
        }
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

/// The typed reading of each AD structure (Core Specification Supplement, Part A, §1) that the event
/// outputs and the readings share.
struct ADStructureTests {
    /// Each structure's kind in words, as the tests compare them.
    func kinds(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { raw in
            AdvertisingData.structures(in: raw).map { s -> String in
                switch s.kind {
                case .flags(let flags): "flags \(flags)"
                case .uuids(let list, let complete): "uuids \(list.map(\.description)) complete \(complete)"
                case .localName(let name, let complete): "name \(String(decoding: name, as: UTF8.self)) complete \(complete)"
                case .txPower(let power): "tx \(power)"
                case .serviceData(let uuid, let data): "service \(uuid) \(Hex.encode(data))"
                case .manufacturerData(let company, let data): "company \(company) \(Hex.encode(data))"
                case .appearance(let value): "appearance \(value)"
                case .other: "other \(s.type)"
                }
            }
        }
    }

    @Test func `every kind the outputs lift`() {
        // btmon's frame 3101 (tshark-and-btmon.md §6): flags 0x06, complete 16-bit list 0xfeaa, service
        // data for 0xfeaa; then a name, TX power −8, Appearance 0x0341 and Apple manufacturer data.
        let data = hex(
            """
            02 01 06 03 03 aa fe 17 16 aa fe 00 ee 25 89 24 26 0b 05 94 b7 fc f0 4e 33 a7 27 58 5b 00 00
            04 08 45 6e 76 02 0a f8 03 19 41 03 05 ff 4c 00 12 02
            """)
        #expect(
            kinds(data) == [
                "flags 6", "uuids [\"feaa\"] complete true",
                "service feaa 00ee258924260b0594b7fcf04e33a727585b0000", "name Env complete false", "tx -8",
                "appearance 833", "company 76 1202",
            ])
    }

    @Test func `structures too short for their type are other, and keep their bytes`() {
        // Manufacturer data with one byte, a 16-bit list with one byte, service data with one byte, a
        // TX power of two bytes, an empty Flags.
        #expect(
            kinds(hex("02 FF 4C 02 03 11 02 16 1A 03 0A 01 02 01 01")) == [
                "other 255", "other 3", "other 22", "other 10", "other 1",
            ])
    }

    @Test func `a name's trailing NULs are not part of it`() {
        #expect(kinds(hex("05 09 45 6E 76 00")) == ["name Env complete true"])
        #expect(AdvertisingData(hex("06 09 45 6E 76 00 00")).localName == "Env")
    }

    @Test func `a list's trailing bytes too few for a UUID are left out`() {
        #expect(kinds(hex("04 02 0D 18 0F")) == ["uuids [\"180d\"] complete false"])
    }

    @Test func `the flags have their words`() {
        let words = ADFlags.bits.filter { 0x1A & (1 << $0.bit) != 0 }.map { "\($0.word)" }
        #expect(words == ["le_general_discoverable", "le_br_edr_controller", "le_br_edr_host"])
    }
}
