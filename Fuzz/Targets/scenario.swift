// The scenario parser, and the synthesizer on what it accepts: any bytes as a scenario file,
// resolved against captures/ (where the shipped scenarios live, so their layout paths work). A
// scenario that parses is synthesized, its first 300 records written as btsnoop and as pcap.

import CaptureFiles
import CaptureModel
import Synthesis

private let directory: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/captures"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let scenario: Scenario
    do {
        scenario = try Scenario.parse(bytes: fuzzBytes(data, size), name: "fuzz.json", directory: directory)
    } catch {
        blackHole(error.description)
        return 0
    }
    do {
        let btsnoop = try CaptureWriter(format: .btsnoop(.btsnoopUART))
        let pcap = try CaptureWriter(format: .pcap(.h4WithPHDR))
        try Synthesizer(scenario).run(limit: 300) { record in
            try btsnoop.write(record)
            try pcap.write(record)
        }
        blackHole((btsnoop.bytes.count, pcap.bytes.count))
    } catch {
        blackHole("\(error)")
    }
    return 0
}
