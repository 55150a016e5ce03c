import CaptureFiles
import CaptureModel
import Testing
import TestSupport

/// The readers against Wireshark's own figures for the real third-party captures.
@Suite(.enabled(if: TestPaths.sharedCaptures != nil, "../shared/captures is not present"))
struct SharedCaptureTests {
    static let files = TestPaths.sharedCaptureFiles

    @Test(arguments: files)
    func `record count equals the MANIFEST's packet count`(path: String) throws {
        let name = String(path.split(separator: "/").last!)
        let expected = try #require(WiresharkReference.manifestPackets[name], "\(name) is not in the MANIFEST")
        let summary = CaptureSummary(reading: try CaptureReader(path: path, formats: testFormats))
        #expect(summary.records == expected)
        #expect(summary.damaged == 0)
    }

    @Test(arguments: files.filter { !WiresharkReference.unreadableByWireshark.contains(String($0.split(separator: "/").last!)) })
    func `first and last time equal capinfos`(path: String) throws {
        let name = String(path.split(separator: "/").last!)
        let reference = try #require(WiresharkReference.capinfos[name])
        let summary = CaptureSummary(reading: try CaptureReader(path: path, formats: testFormats))
        #expect(summary.records == reference.packets)
        guard let first = summary.firstTimestamp, let last = summary.lastTimestamp else {
            #expect(reference.earliest == "n/a")
            return
        }
        // capinfos prints nanoseconds for nanosecond files; records keep microseconds.
        #expect(seconds(first) == String(reference.earliest.prefix(seconds(first).count)))
        #expect(seconds(last) == String(reference.latest.prefix(seconds(last).count)))
    }

    @Test(arguments: files.filter { !$0.hasSuffix(".pklg") })
    func `reading, writing and reading again gives the same records`(path: String) throws {
        let original = try CaptureReader(path: path, formats: testFormats)
        let records = original.readAll()
        let format: CaptureWriter.Format
        switch original.linkType {
        case .btsnoopMonitor, .linuxMonitor: format = .btsnoop(.btsnoopMonitor)
        case let link where link.isLinkLayer: format = .pcap(link)
        case .ppi: return  // PPI is unwrapped on reading; its records are written as their inner type
        default: format = .btsnoop(.btsnoopUART)
        }
        let rewritten = try CaptureReader(bytes: CaptureFactory.capture(format, records), formats: testFormats)
        let again = rewritten.readAll()
        #expect(again.count == records.count)
        for (a, b) in zip(records, again) where !a.sameContent(as: b) {
            Issue.record("frame \(a.frame) differs after the round trip")
            break
        }
    }

    @Test(arguments: files.filter { $0.hasSuffix(".log") || $0.hasSuffix(".cfa") || $0.hasSuffix(".btsnoop") || $0.hasSuffix(".snoop") })
    func `a btsnoop file written back is byte-identical`(path: String) throws {
        let reader = try CaptureReader(path: path, formats: testFormats)
        let bytes = try #require(TestPaths.readFile(path))
        let rewritten = try CaptureFactory.capture(.btsnoop(reader.linkType), reader.readAll())
        #expect(rewritten.count == bytes.count)
        let firstDifference = zip(rewritten, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing byte at offset \(firstDifference ?? -1)")
    }

    func seconds(_ micros: Int64) -> String {
        "\(micros / 1_000_000).\(String(String(micros % 1_000_000 + 1_000_000).dropFirst()))"
    }
}

extension StoredRecord {
    /// Equal in everything a record means, whatever format framed it.
    func sameContent(as other: StoredRecord) -> Bool {
        timestamp == other.timestamp && direction == other.direction && kind == other.kind && adapter == other.adapter
            && payload == other.payload && originalLength == other.originalLength
    }
}
