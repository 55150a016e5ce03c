/// The one list of built-in decoders. Adding a decoder: write its file, add one line here.
public enum Registry {
    public static func builtIn(_ options: DecoderOptions = DecoderOptions()) -> [any PayloadDecoder] {
        [
        ]
    }
}
