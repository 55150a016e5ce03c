import Bluetape
import CaptureFiles
import GoldenDiff

extension CommandLineTool {
    /// How `diff` and `golden` decode a capture: its golden.json decode options in, canonical readings
    /// JSON Lines out, through the same library call `bluetape decode` makes.
    public static let builtInDecoding: CaptureDecoder = { path, options in
        let decoding: DecoderConfiguration
        do throws(DecoderConfigurationError) {
            decoding = try DecoderConfiguration(goldenOptions: options)
        } catch {
            // A usage error here is a golden.json decode option the decoders refuse.
            throw GoldenError(
                "golden.json: \(error.message(command: "golden update"))", kind: error.isUsage ? .setting : .input)
        }
        do {
            let capture = try Capture(path: path, formats: captureFormats)
            let readings = try capture.readingsJSONL(decoding)
            if let problem = capture.problems.items.first {
                throw DamagedCapture(readings: readings, message: "\(path): \(problem)")
            }
            return readings
        } catch let error as CaptureError {
            throw GoldenError(error.description)
        }
    }
}
