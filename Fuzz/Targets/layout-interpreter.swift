// The layout interpreter: payloads decoded by compiled layouts. Byte 0 picks the layout, the rest
// is the payload. Layouts come from the directories in BLUETAPE_FUZZ_LAYOUTS (colon-separated;
// scripts/fuzz passes layouts/, the examples of layouts/README.md and Fuzz/seeds/layout-loader).

import ByteReading
import Layouts
import PayloadDecoders

#if canImport(Glibc)
    import Glibc
#endif

private let layouts: [Layout] = {
    let directories = getenv("BLUETAPE_FUZZ_LAYOUTS").map { String(cString: $0) } ?? ""
    var loaded: [Layout] = []
    for directory in directories.split(separator: ":").map(String.init) {
        guard let dir = opendir(directory) else { continue }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        for name in names.sorted() where name.hasSuffix(".json") {
            if let layout = try? Layout.load(path: directory + "/" + name, requireParameters: false) {
                loaded.append(layout)
            }
        }
    }
    if loaded.isEmpty { fuzzFailure("no layouts: set BLUETAPE_FUZZ_LAYOUTS (scripts/fuzz does)") }
    return loaded
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let layout = layouts[Int(data[0]) % layouts.count]
    let payload = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    switch layout.decode(buffer: payload) {
    case .fields(let fields):
        let listed = Set(layout.fields.map(\.name))
        for field in fields.entries where !listed.contains(field.name) {
            fuzzFailure("\(layout.id) wrote the unlisted field \(field.name)")
        }
    case .error(let error):
        if error.offset < 0 || error.offset > payload.count {
            fuzzFailure("\(layout.id) located an error at \(error.offset) in \(payload.count) bytes: \(error)")
        }
        blackHole(error.description)
    }
    return 0
}
