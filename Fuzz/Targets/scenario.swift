// The scenario parser: any bytes as a scenario file, resolved against captures/ (where the shipped
// scenarios live, so their layout paths work).

import Synthesis

private let directory: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/captures"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    do {
        blackHole(try Scenario.parse(bytes: fuzzBytes(data, size), name: "fuzz.json", directory: directory))
    } catch {
        blackHole(error.description)
    }
    return 0
}
