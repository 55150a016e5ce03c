import GoldenDiff

/// The decoding pipeline that `diff` and `golden` run captures through: a capture's path and its
/// decode options (from golden.json) in, readings JSONL out, one canonical reading per line.
/// The program sets it at start-up; tests replace it with a fake that returns canned readings.
public enum ReadingsHook {
    nonisolated(unsafe) public static var decodeCapture:
        @Sendable (_ path: String, _ options: [String: String]) throws -> [UInt8] = {
            path, _ in throw InputError("\(path): decoding captures is not available in this build")
        }

    /// The hook as GoldenDiff calls it, with the tool's input and usage errors turned into its own
    /// (a usage error here is a golden.json decode option the decoders refuse).
    static var decoder: CaptureDecoder {
        let decode = decodeCapture
        return { path, options in
            do {
                return try decode(path, options)
            } catch let error as InputError {
                throw GoldenError(error.message)
            } catch let error as UsageError {
                throw GoldenError(error.message, kind: .setting)
            }
        }
    }
}

extension CommandLineTool {
    /// Points `diff` and `golden` at the real decoding pipeline.
    public static func useBuiltInDecoding() {
        ReadingsHook.decodeCapture = { path, options in
            try DecodeSetup(goldenOptions: options).readingsJSONL(path: path)
        }
    }
}
