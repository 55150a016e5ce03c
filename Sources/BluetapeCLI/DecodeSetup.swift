import Bluetape
import BluetoothTracking
import FileAccess
import Layouts
import PayloadDecoders
import Readings

/// The decoding options of `decode`, `check`, `diff`, `payload`, `replay`, `capture` and the
/// others, read into the library's `DecoderConfiguration`.
struct DecodeSetup: Sendable {
    var configuration: DecoderConfiguration

    static let options: [OptionSpec] = [
        .value("decoder", "IDS", "Only these decoders (comma-separated ids; see 'bluetape decoders')."),
        .value("layout", "L.json", "Also decode with this layout (repeatable)."),
        .value("layouts", "DIR", "Also decode with every layout in DIR."),
        .value(
            "param", "NAME=VALUE",
            "Set a parameter of every decoder or layout that declares NAME; ID.NAME=VALUE sets it for one (repeatable)."),
        .value("gatt", "MAP.json", "A GATT map for handles whose discovery is not in the capture."),
        .value(
            "bindkey", "ADDR=HEX",
            "A device's encryption key, ADDRESS=32 hex digits: shorthand for --param bindkey=ADDR=HEX (repeatable)."),
    ]

    /// The options of `options` named here, for commands that take only some of them.
    static func options(_ names: Set<String>) -> [OptionSpec] { options.filter { names.contains($0.name) } }

    init(_ arguments: ParsedArguments) throws {
        var parameters: [ParameterAssignment] = []
        for text in arguments.all("param") {
            guard let assignment = ParameterAssignment(text) else {
                throw UsageError("--param takes NAME=VALUE or DECODER.NAME=VALUE, not '\(text)'")
            }
            parameters.append(assignment)
        }
        for key in arguments.all("bindkey") {
            parameters.append(ParameterAssignment(name: "bindkey", value: key))
        }
        var paths = arguments.all("layout")
        for directory in arguments.all("layouts") {
            guard let names = try? WholeFile.list(directory) else {
                throw InputError("\(directory): not a readable directory (--layouts takes a directory of layout files)")
            }
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            paths += names.filter { $0.hasSuffix(".json") }.map { prefix + $0 }
        }
        let ids = arguments.list("decoder")
        do {
            configuration = try DecoderConfiguration(
                layouts: paths, parameters: parameters, only: ids.isEmpty ? nil : Set(ids))
        } catch {
            throw error.isUsage
                ? UsageError(error.message(command: arguments.command)) as any Error
                : InputError(error.message(command: arguments.command))
        }
        if let path = arguments.value("gatt") { configuration.tracker.gattMap = try loadGATTMap(path) }
        configuration.pipeline.includeUndecoded = arguments.has("all")
        configuration.pipeline.allRepeats = arguments.has("all-repeats")
    }

    var layouts: [Layout] { configuration.layouts }
    var allDecoders: [any PayloadDecoder] { configuration.decoders }
}

/// A GATT map file for `--gatt`; one that cannot be used is bad input (exit 3).
func loadGATTMap(_ path: String) throws(InputError) -> GATTMap {
    do {
        return try GATTMapFile.load(path: path)
    } catch {
        throw InputError(error.message)
    }
}
