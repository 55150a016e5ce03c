import FieldJSON
import ByteReading
import JSON
import PayloadDecoders
import Readings

/// `bluetape payload DECODER HEX`: decode one payload given by hand, without a capture.
enum PayloadCommand: Command {
    static let spec = CommandSpec(
        name: "payload",
        abstract: "Decode one payload given as hex with a decoder or layout, without a capture.",
        arguments: "DECODER HEX [--op notify|indicate|read|write] [--layout L.json]",
        discussion: """
            Prints the fields as JSON (or the located error, with exit code 1). HEX is what the decoder
            is given: manufacturer data after the company id, service data after the UUID, or the
            characteristic value. --op says how a characteristic value travelled (default notify).
            """,
        options: [.value("op", "OP", "notify (default), indicate, read or write.")]
            + DecodeSetup.options(["layout", "layouts", "param", "bindkey"]))

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 2 else { throw UsageError("give a decoder id and the payload as hex") }
        let setup = try DecodeSetup(arguments)
        let id = arguments.positionals[0]
        guard let decoder = setup.allDecoders.first(where: { $0.id == id }) else {
            throw UsageError("unknown decoder '\(id)'; 'bluetape decoders' lists them")
        }
        guard let bytes = Hex.decode(arguments.positionals[1]) else {
            throw UsageError("'\(arguments.positionals[1])' is not hex")
        }
        let operation: ValueOperation
        switch arguments.value("op") ?? "notify" {
        case "notify": operation = .notify
        case "indicate": operation = .indicate
        case "read": operation = .read
        case "write": operation = .write
        case let other: throw UsageError("--op is notify, indicate, read or write, not '\(other)'")
        }
        let source: PayloadSource
        switch decoder.matches.first {
        case .company(let company)?: source = .manufacturerData(company: company)
        case .serviceData(let uuid)?: source = .serviceData(uuid: uuid)
        case .characteristic(let uuid)?:
            // A decoder on several characteristics: pick the one the operation goes to.
            let all = decoder.matches.compactMap { if case .characteristic(let u) = $0 { u } else { nil } }
            source = .attribute(uuid: operation == .write ? all.first! : all.last ?? uuid, operation: operation)
        case nil: throw UsageError("decoder '\(id)' matches nothing")
        }
        let outcomes = decoder.decode(Payload(source, bytes))
        if outcomes.isEmpty {
            context.stderr.line("\(id): this payload is not one of the decoder's (another sub-type)")
            return .differences
        }
        var failed = false
        for outcome in outcomes {
            var w = JSONWriter(capacity: 512)
            switch outcome {
            case .fields(let fields): FieldJSON.write(fields, to: &w)
            case .error(let error):
                failed = true
                w.beginObject()
                w.key("error")
                FieldJSON.write(error, to: &w)
                w.endObject()
            }
            w.newline()
            context.stdout.write(w.bytes)
        }
        return failed ? .differences : .success
    }
}
