import BluetoothPackets
import PayloadDecoders
import Testing

struct RegistryTests {
    @Test func `decoder ids are unique`() {
        let ids = Registry.builtIn.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func `every decoder lists a match key, its fields and a summary`() {
        for decoder in Registry.builtIn {
            #expect(!decoder.matches.isEmpty, "\(decoder.id)")
            #expect(!decoder.fields.isEmpty, "\(decoder.id)")
            #expect(!decoder.summary.isEmpty, "\(decoder.id)")
            let names = decoder.fields.map(\.name)
            #expect(Set(names).count == names.count, "\(decoder.id) lists a field twice")
            for field in decoder.fields {
                #expect(!field.summary.isEmpty, "\(decoder.id).\(field.name)")
                let snakeCase = field.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }
                #expect(snakeCase && field.name.first?.isLetter == true, "\(decoder.id).\(field.name)")
            }
        }
    }

    @Test func `the built-in decoders are the ones the project documents`() {
        #expect(
            Registry.builtIn.map(\.id) == [
                "envsensor", "combustion.advert", "combustion.status", "combustion.uart", "adafruit.uart",
                "sig.temperature_measurement", "sig.intermediate_temperature", "sig.temperature", "sig.humidity",
                "sig.pressure", "sig.battery_level", "sig.heart_rate", "sig.text", "ibeacon", "eddystone.uid",
                "eddystone.url", "eddystone.tlm", "eddystone.eid", "bthome",
            ])
    }

    @Test func `a key is claimed by one decoder unless they tell their payloads apart`() {
        // Shared keys are expected only where decoders check a sub-type: the UART characteristics
        // (CA FE frames vs text) and Eddystone frame types.
        var owners: [MatchKey: [String]] = [:]
        for decoder in Registry.builtIn {
            for key in decoder.matches { owners[key, default: []].append(decoder.id) }
        }
        let shared = owners.filter { $0.value.count > 1 }.mapValues { $0.sorted() }
        #expect(
            shared == [
                .characteristic(CombustionUART.rx): ["adafruit.uart", "combustion.uart"],
                .characteristic(CombustionUART.tx): ["adafruit.uart", "combustion.uart"],
                .serviceData(BluetoothUUID(0xFEAA)): [
                    "eddystone.eid", "eddystone.tlm", "eddystone.uid", "eddystone.url",
                ],
            ])
    }

    @Test func `the 128-bit characteristics are the ones in the specs`() {
        // combustion.md §3
        #expect(CombustionStatus.characteristic.description == "00000101-caab-3792-3d44-97ae51c1407a")
        #expect(CombustionUART.rx.description == "6e400002-b5a3-f393-e0a9-e50e24dcca9e")
        #expect(CombustionUART.tx.description == "6e400003-b5a3-f393-e0a9-e50e24dcca9e")
        // On the air they are byte-reversed.
        #expect(CombustionUART.tx.wireBytes() == hex("9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 03 00 40 6E"))
    }

    @Test func `a UART value goes to exactly one of the two UART decoders`() {
        let decoders = Registry.builtIn.filter { $0.matches.contains(.characteristic(CombustionUART.tx)) }
        let frame = Payload.attribute(CombustionUART.tx, .notify, hex("CA FE 58 A7 06 01 01 00"))
        let text = Payload.attribute(CombustionUART.tx, .notify, Array("23.24".utf8))
        #expect(decoders.filter { !$0.decode(frame).isEmpty }.map(\.id) == ["combustion.uart"])
        #expect(decoders.filter { !$0.decode(text).isEmpty }.map(\.id) == ["adafruit.uart"])
    }

    @Test func `every encoder is found by its decoder's id`() {
        let decoderIDs = Set(Registry.builtIn.map(\.id))
        let encoderIDs = Registry.encoders().map(\.id)
        #expect(Set(encoderIDs).count == encoderIDs.count)
        #expect(Set(encoderIDs).isSubset(of: decoderIDs))
        for id in [
            "envsensor", "combustion.advert", "combustion.status", "combustion.uart", "adafruit.uart", "sig.heart_rate",
            "sig.temperature_measurement", "sig.battery_level", "ibeacon", "eddystone.uid", "eddystone.url",
            "eddystone.tlm", "bthome",
        ] {
            #expect(Registry.encoder(for: id)?.id == id)
        }
        #expect(Registry.encoder(for: "sig.text") == nil)
    }
}
