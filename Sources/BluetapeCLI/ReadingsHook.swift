import GoldenDiff

/// The decoding pipeline that `diff` and `golden` run captures through: a capture's path and its
/// decode options (from golden.json) in, readings JSONL out, one canonical reading per line.
/// The program sets it at start-up; tests replace it with a fake that returns canned readings.
public enum ReadingsHook {
    nonisolated(unsafe) public static var decodeCapture:
        @Sendable (_ path: String, _ options: [String: String]) throws -> [UInt8] = {
            path, _ in throw InputError("\(path): decoding captures is not available in this build")
        }

    /// The hook as GoldenDiff calls it, with the tool's input errors turned into its own.
    static var decoder: CaptureDecoder {
        let decode = decodeCapture
        return { path, options in
            do {
                return try decode(path, options)
            } catch let error as InputError {
                throw GoldenError(error.message)
            }
        }
    }
}

extension CommandLineTool {
    /// Points `diff` and `golden` at the real decoding pipeline.
    public static func useBuiltInDecoding() {
        ReadingsHook.decodeCapture = { path, options in
            let setup = try DecodeSetup(goldenOptions: options)
            guard options["scrub"] != nil else { return try setup.readingsJSONL(path: path) }
            // golden.json's "scrub": the capture is scrubbed in memory, then decoded.
            let (reader, damage) = try ScrubbedCapture.inMemory(path: path, options: ScrubCommand.scrubOptions(golden: options))
            return try setup.readingsJSONL(reader, path: path, damage: damage)
        }
    }
}
