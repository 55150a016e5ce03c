/// The one list of built-in decoders. Adding a decoder: write its file, add one line to `builtIn`.
/// Encoders are the decoders that can also encode.
public enum Registry {
    public static let builtIn: [any PayloadDecoder] = [
        EnvSensor(),
        CombustionAdvert(),
        CombustionStatus(),
        CombustionUART(),
        AdafruitUART(),
        SIGTemperatureMeasurement(),
        SIGTemperatureMeasurement(intermediate: true),
        SIGTemperature(),
        SIGHumidity(),
        SIGPressure(),
        SIGBatteryLevel(),
        SIGHeartRate(),
        SIGText(),
        AppleIBeacon(),
        EddystoneUID(),
        EddystoneURL(),
        EddystoneTLM(),
        EddystoneEID(),
        BTHome(),
    ]

    /// The decoders among `decoders` that can also encode, each under its id.
    public static func encoders(_ decoders: [any PayloadDecoder] = builtIn) -> [any PayloadEncoder] {
        decoders.compactMap { $0 as? any PayloadEncoder }
    }

    public static func encoder(for id: String, in decoders: [any PayloadDecoder] = builtIn) -> (any PayloadEncoder)? {
        encoders(decoders).first { $0.id == id }
    }
}
