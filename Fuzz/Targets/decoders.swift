// Every built-in decoder. Byte 0 picks the decoder, byte 1 which of its match keys (and, for a
// characteristic, the operation); the rest is the payload. Every outcome must locate its error
// inside the payload and only write fields the decoder lists (a repeated BTHome object is listed
// once: "temperature_c_2" is "temperature_c").

import BluetoothPackets
import ByteReading
import PayloadDecoders

private let decoders = Registry.builtIn
private let operations: [ValueOperation] = [.notify, .indicate, .read, .write]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = fuzzBytes(data, size)
    guard input.count >= 2 else { return 0 }
    let decoder = decoders[Int(input[0]) % decoders.count]
    let key = decoder.matches[Int(input[1]) % decoder.matches.count]
    let bytes = Array(input.dropFirst(2))
    let source: PayloadSource =
        switch key {
        case .company(let company): .manufacturerData(company: company)
        case .serviceData(let uuid): .serviceData(uuid: uuid)
        case .characteristic(let uuid): .attribute(uuid: uuid, operation: operations[Int(input[1] >> 4) % 4])
        }
    let listed = Set(decoder.fields.map(\.name))
    for outcome in decoder.decode(Payload(source, bytes)) {
        switch outcome {
        case .fields(let fields):
            for field in fields.entries where !listed.contains(withoutNumber(field.name)) {
                fuzzFailure("\(decoder.id) wrote the unlisted field \(field.name)")
            }
        case .error(let error):
            if error.offset < 0 || error.offset > bytes.count {
                fuzzFailure("\(decoder.id) located an error at \(error.offset) in \(bytes.count) bytes: \(error)")
            }
            blackHole(error.description)
        }
    }
    return 0
}

private func withoutNumber(_ name: String) -> String {
    guard let underscore = name.lastIndex(of: "_"), Int(name[name.index(after: underscore)...]) != nil else {
        return name
    }
    return String(name[..<underscore])
}
