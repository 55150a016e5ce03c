import Bluetape
import CaptureFiles
import CaptureModel
import GoldenDiff

extension CommandLineTool {
    /// How `diff` and `golden` decode a capture: its golden.json decode options in, canonical readings
    /// JSON Lines out, through the same library call `bluetape decode` makes.
    public static let builtInDecoding: CaptureDecoder = { path, options, write in
        // golden.json's "scrub" section arrives as `scrub` and `scrub.NAME` options.
        let scrubbing = options.filter { $0.key == "scrub" || $0.key.hasPrefix("scrub.") }
        let decoding: DecoderConfiguration
        do throws(DecoderConfigurationError) {
            decoding = try DecoderConfiguration(goldenOptions: options.filter { scrubbing[$0.key] == nil })
        } catch {
            // A usage error here is a golden.json decode option the decoders refuse.
            throw GoldenError(
                "golden.json: \(error.message(command: "golden update"))", kind: error.isUsage ? .setting : .input)
        }
        do {
            let capture: Capture
            var damage: CaptureProblem?
            if scrubbing.isEmpty {
                capture = try Capture(path: path, formats: captureFormats)
            } else {
                // The capture is scrubbed in memory, then decoded, as `bluetape scrub` would write it.
                let scrubbed = try scrubbedInMemory(path, scrubbing)
                capture = try Capture(bytes: scrubbed.bytes, name: path, formats: captureFormats)
                damage = scrubbed.damage
            }
            try capture.writeReadingsJSONL(decoding, write)
            if let problem = damage ?? capture.problems.items.first {
                throw DamagedCapture(message: "\(path): \(problem)")
            }
        } catch let error as CaptureError {
            throw GoldenError(error.description)
        }
    }

    private static func scrubbedInMemory(
        _ path: String, _ options: [String: String]
    ) throws(GoldenError) -> (bytes: [UInt8], damage: CaptureProblem?) {
        do {
            return try ScrubbedCapture.inMemory(path: path, options: ScrubCommand.scrubOptions(golden: options))
        } catch {
            throw GoldenError(error.message)
        }
    }
}
