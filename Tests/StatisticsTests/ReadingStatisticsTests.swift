import BluetoothPackets
import PayloadDecoders
import Statistics
import Testing

@testable import Readings

/// Field names and decoder ids are recognised first by their string's representation, then by
/// their text: the same text in strings made apart (a layout, a decoder that builds its names)
/// must land where the same string does.
struct ReadingStatisticsTests {
    /// The text of `literal` in a string of its own, not the literal's storage.
    static func fresh(_ literal: String) -> String { String(decoding: Array(literal.utf8), as: UTF8.self) }

    static func reading(_ id: String, _ fields: [(String, FieldValue)], frame: Int) -> Reading {
        Reading(
            frame: frame, timestamp: Int64(frame) * 1_000, address: BluetoothAddress(0xC2_10_30_F9_70_C7),
            decoder: id, source: "adv", match: .company(0xFFFF),
            outcome: .fields(Fields(fields.map { Field($0.0, $0.1) })))
    }

    @Test func `names in strings made apart count as one field`() {
        let id = "combustion.advert.long-id"
        let temperature = "temperature_in_celsius_of_the_probe"
        let humidity = "humidity_percent_relative"
        var statistics = ReadingStatistics()
        for frame in 1...40 {
            // Every other reading its own strings, every third the fields the other way round.
            let name = frame % 2 == 0 ? Self.fresh(temperature) : temperature
            let other = frame % 2 == 0 ? humidity : Self.fresh(humidity)
            var fields: [(String, FieldValue)] = [(name, .double(Double(frame) / 4)), (other, .int(Int64(frame)))]
            if frame % 3 == 0 { fields.reverse() }
            statistics.add(Self.reading(frame % 2 == 0 ? id : Self.fresh(id), fields, frame: frame))
        }
        statistics.finish()
        #expect(statistics.decoders.count == 1)
        let decoder = statistics.decoders[0]
        #expect(decoder.id == id && decoder.readings == 40 && decoder.devices == 1)
        #expect(decoder.fields.map(\.name) == [temperature, humidity])
        #expect(decoder.fields[0].values.count == 40 && decoder.fields[1].values.count == 40)
        #expect(decoder.fields[0].values.minimum == 0.25 && decoder.fields[0].values.maximum == 10)
        #expect(decoder.fields[1].values.sum == Double((1...40).reduce(0, +)))
    }

    /// `stats` reads the fields where the decoders packed them: the same statistics as from the
    /// readings' own fields.
    @Test func `packed fields give the statistics the readings' own fields give`() {
        var own = ReadingStatistics()
        var packed = ReadingStatistics()
        let packer = FieldPacker()
        for frame in 1...300 {
            var fields: [(String, FieldValue)] = [
                ("temperature_c", .double(Double(frame % 17) / 4 - 1)), ("label", .string("x\(frame % 3)")),
                ("count", .int(Int64(frame))),
            ]
            if frame % 5 == 0 { fields.swapAt(0, 2) }
            if frame % 7 == 0 { fields.append(("late_\(frame % 2)", .double(.infinity))) }
            let reading = Self.reading(frame % 4 == 0 ? "other" : "sensor", fields, frame: frame)
            own.add(reading)
            guard case .fields(let readingFields) = reading.outcome else { continue }
            let span = packer.pack(readingFields, row: frame % 4 == 0 ? 1 : 0)
            var emptied = reading
            emptied.outcome = .fields(Fields())
            packed.add(emptied, packedIn: packer, span: span)
        }
        own.finish()
        packed.finish()
        #expect(packed.decoders.map(\.id) == own.decoders.map(\.id))
        for (a, b) in zip(packed.decoders, own.decoders) {
            #expect(a.readings == b.readings && a.devices == b.devices)
            #expect(a.fields.map(\.name) == b.fields.map(\.name))
            for (x, y) in zip(a.fields, b.fields) {
                #expect(x.other == y.other && x.values.count == y.values.count, "\(x.name)")
                #expect(x.values.minimum == y.values.minimum && x.values.maximum == y.values.maximum, "\(x.name)")
                #expect(x.values.sum == y.values.sum && x.values.median == y.values.median, "\(x.name)")
            }
        }
    }
}
