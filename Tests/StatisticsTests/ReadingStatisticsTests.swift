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
}
