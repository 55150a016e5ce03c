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
