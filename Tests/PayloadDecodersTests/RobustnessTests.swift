import BluetoothPackets
import ByteReading
import PayloadDecoders
import TestSupport
import Testing

/// Damaged and random payloads: every decoder must answer (fields, an error, or "not mine") without
/// crashing, errors must point inside the payload, and every field it writes must be one it lists.
struct RobustnessTests {
    /// One valid payload per decoder (from the specs' worked examples) to mutate.
    static let seeds: [String: String] = [
        "envsensor": "34 12 29 09 9A 15 94 27 00 00 4A 01 2E FB FF FF",
        "combustion.advert": CombustionAdvertTests.probeAdvert + " 05",
        "combustion.status": CombustionStatusTests.status94 + " 78 56 34 12 E8 03",
        "combustion.uart": CombustionUARTTests.logResponse,
        "adafruit.uart": "32 33 2E 33 7C 35 35 2E 33",
        "sig.temperature_measurement": "06 6C 01 00 FF E8 07 0B 14 0A 1E 00 02",
        "sig.intermediate_temperature": "07 B6 03 00 FF E8 07 0B 14 0A 1E 00 02",
        "sig.temperature": "29 09",
        "sig.humidity": "9A 15",
        "sig.pressure": "02 76 0F 00",
        "sig.battery_level": "55",
        "sig.heart_rate": "19 8C 00 E8 03 00 02",
        "sig.text": "4E 6F 72 64 69 63",
        "ibeacon": AppleIBeaconTests.beacon,
        "eddystone.uid": EddystoneTests.uidFrame,
        "eddystone.url": EddystoneTests.urlFrame,
        "eddystone.tlm": EddystoneTests.tlmFrame,
        "eddystone.eid": "30 F6 01 23 45 67 89 AB CD EF",
        "bthome": "44 00 2A 01 5D 02 38 FF 3C 01 03 53 02 68 69",
    ]

    @Test func `every decoder has a seed`() {
        #expect(Set(Registry.builtIn.map(\.id)) == Set(Self.seeds.keys))
    }

    @Test(arguments: Registry.builtIn.map(\.id))
    func `damaged payloads never crash and errors point inside them`(id: String) throws {
        let decoder = try #require(Registry.builtIn.first { $0.id == id })
        let seed = hex(Self.seeds[id] ?? "")
        var generator = TestRandom(seed: UInt64(id.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        var inputs: [[UInt8]] = (0...seed.count).map { Array(seed.prefix($0)) }  // every prefix
        inputs.append(seed + [0x00])
        for _ in 0..<400 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            inputs.append(bytes)
            inputs.append(generator.bytes(Int.random(in: 0...64, using: &generator)))
        }
        var decodedSeed = false
        for bytes in inputs {
            for key in decoder.matches.prefix(1) {
                for operation in [ValueOperation.notify, .write] {
                    let payload: Payload =
                        switch key {
                        case .company(let company): .manufacturer(company, bytes)
                        case .serviceData(let uuid): Payload(.serviceData(uuid: uuid), bytes)
                        case .characteristic(let uuid): .attribute(uuid, operation, bytes)
                        }
                    for outcome in decoder.decode(payload) {
                        check(outcome, decoder, bytes)
                        if bytes == seed, case .fields = outcome { decodedSeed = true }
                    }
                }
            }
        }
        #expect(decodedSeed, "the seed of \(id) does not decode")
    }

    func check(_ outcome: DecodeOutcome, _ decoder: any PayloadDecoder, _ bytes: [UInt8]) {
        switch outcome {
        case .error(let error):
            #expect((0...bytes.count).contains(error.offset), "\(decoder.id): \(error) for \(Hex.encode(bytes))")
            #expect(!error.field.isEmpty, "\(decoder.id): \(error)")
        case .fields(let fields):
            let listed = Set(decoder.fields.map(\.name))
            for name in fields.names where !listed.contains(Self.withoutNumber(name)) {
                Issue.record("\(decoder.id) writes \(name), which it does not list")
            }
        }
    }

    /// "temperature_c_2" → "temperature_c" (BTHome's repeated objects).
    static func withoutNumber(_ name: String) -> String {
        guard let underscore = name.lastIndex(of: "_"), Int(name[name.index(after: underscore)...]) != nil else {
            return name
        }
        return String(name[..<underscore])
    }
}
