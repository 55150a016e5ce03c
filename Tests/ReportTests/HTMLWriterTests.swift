import JSON
import Testing

@testable import Report
@testable import Statistics

/// Numbers in the page's markup are written straight into its bytes; they read as the text the
/// charts had before (`String(_:)`, and tenths without a trailing ".0").
struct HTMLWriterNumberTests {
    static func written(_ body: (inout HTMLWriter) -> Void) -> String {
        var writer = HTMLWriter(capacity: 32)
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The same through a JSONWriter, the byte buffer a series' numbers are written to.
    static func writtenAsBytes(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 32)
        body(&writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Tenths as a person writes them: "-0.5", "12", "-3.2".
    static func expected(tenths: Int) -> String {
        let magnitude = tenths.magnitude
        let text = magnitude % 10 == 0 ? "\(magnitude / 10)" : "\(magnitude / 10).\(magnitude % 10)"
        return (tenths < 0 ? "-" : "") + text
    }

    @Test func `coordinates have one decimal and no trailing zero`() {
        #expect(HTMLWriter.coordinate(12.5) == "12.5")
        #expect(HTMLWriter.coordinate(40) == "40")
        #expect(HTMLWriter.coordinate(-0.5) == "-0.5")
        #expect(HTMLWriter.coordinate(-0.04) == "0")
        #expect(HTMLWriter.coordinate(.nan) == "0")
        for tenths in -30_000...30_000 {
            let value = Double(tenths) / 10
            #expect(Self.written { $0.number(value) } == Self.expected(tenths: tenths), "\(value)")
        }
    }

    /// Halves round away from zero, as `rounded()` does: 0.25 is "0.3", -0.25 is "-0.3".
    @Test func `coordinates round as rounded() does`() {
        for hundredths in -30_000...30_000 {
            let value = Double(hundredths) / 100
            let tenths = Int((value * 10).rounded())
            #expect(Self.written { $0.number(value) } == Self.expected(tenths: tenths), "\(value)")
            #expect(Self.writtenAsBytes { $0.number(value) } == Self.expected(tenths: tenths), "\(value)")
        }
        for value in [0x1p52, 0x1p52 + 1, 1e17, -1e17, 4.5e15, -4.5e15] {
            #expect(Self.written { $0.number(value) } == Self.expected(tenths: Int((value * 10).rounded())), "\(value)")
        }
    }

    /// A value in the hover's list reads as it did when made from `description`: integers in
    /// full, short texts as they are, long ones (46.199999999999996) to 7 significant digits.
    @Test func `hover values read as description made them`() {
        func expected(_ value: Double) -> String {
            if value == value.rounded(), value.magnitude < 1e15 { return String(Int64(value)) }
            let text = value.description
            return text.utf8.count <= 9 && !text.contains("e") ? text : Formatting.short(value, significant: 7)
        }
        var values: [Double] = [
            46.199999999999996, 0.1 + 0.2, 21.35, -12.87, 1013.1, 0.001, 0.0009, 1e-7, 123456.78, 1234567.8,
            0.5, -0.5, 1e15 + 0.5, 9.87654321e14, .pi, .nan, .infinity, -.infinity, -0.0,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let raw = Double(Int64(bitPattern: state) >> 40)
            values.append(raw / [10, 100, 1000, 20, 1024, 3, 1e6][Int(state % 7)])
            values.append(Double(Int(state % 8192) - 400) * 0.05)
        }
        for value in values {
            #expect(Self.written { $0.hoverValue(value) } == expected(value), "\(value)")
            #expect(Self.writtenAsBytes { $0.hoverValue(value) } == expected(value), "\(value)")
        }
    }

    @Test func `integers read as String writes them`() {
        var values: [Int64] = [0, 9, 10, -1, -10, 99, 100, .max, .min, .min + 1]
        var state: UInt64 = 88_172_645_463_325_252
        for _ in 0..<20_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            values.append(Int64(bitPattern: state) >> (state % 63))
        }
        for value in values {
            #expect(Self.written { $0.integer(value) } == String(value))
            #expect(Self.written { $0.integer(Int(truncatingIfNeeded: value)) } == String(Int(truncatingIfNeeded: value)))
        }
    }
}

/// A connection's ATT errors read the same in every run: most frequent first, then by opcode and
/// code, never in a dictionary's order (which Swift changes from process to process).
struct ErrorSummaryTests {
    @Test func `equal counts are listed by opcode and code`() {
        // Read By Type (0x08) twice, then six errors once each, entered in no particular order.
        typealias ATTError = ConnectionStatistics.ATTError
        let once: [(UInt8, UInt8)] = [(0x12, 0x01), (0x04, 0x0A), (0x10, 0x0A), (0x06, 0x0A), (0x0A, 0x02), (0x04, 0x01)]
        var errors: [ATTError: Int] = [ATTError(requestOpcode: 0x08, code: 0x0A): 2]
        for (opcode, code) in once { errors[ATTError(requestOpcode: opcode, code: code)] = 1 }
        let summary = StatisticsTables.errorSummary(errors)
        let opcodes = summary.split(separator: ", ").map { String($0.prefix { $0 != ":" }) }
        #expect(
            opcodes == [
                "read_by_type_req", "find_info_req", "find_info_req", "find_by_type_req", "read_req",
                "read_by_group_req", "write_req",
            ])
        #expect(
            summary.hasPrefix(
                "read_by_type_req: attribute_not_found 2, find_info_req: invalid_handle 1, "
                    + "find_info_req: attribute_not_found 1"))
    }
}
