// The layout loader: any bytes as a layout document. A layout that loads is then used the ways a
// loaded layout is: its test vectors are generated and decoded, random field values are encoded
// and decoded back, and the input itself is decoded as a payload.

import JSON
import Layouts
import PayloadDecoders

private struct Counter: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return state ^ (state >> 29)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    let layout: Layout
    do {
        layout = try Layout.parse(bytes: bytes, name: "fuzz.json", requireParameters: false)
    } catch {
        for issue in error.issues where issue.line < 1 { fuzzFailure("issue without a line: \(issue)") }
        blackHole(error.description)
        return 0
    }
    for vector in layout.vectors().prefix(64) {
        blackHole(layout.decode(bytes: vector.bytes))
    }
    var generator = Counter(state: UInt64(bytes.count))
    for _ in 0..<4 {
        let fields = layout.randomFields(using: &generator)
        if let encoded = try? layout.encode(fields) { blackHole(layout.decode(bytes: encoded)) }
    }
    blackHole(layout.decode(bytes: Array(bytes.suffix(32))))
    return 0
}
