/// The one list of built-in decoders and encoders. Adding a decoder: write its file, add one line
/// to `builtIn` (and to `encoders` when it can also encode).
public enum Registry {
    public static func builtIn(_ options: DecoderOptions = DecoderOptions()) -> [any PayloadDecoder] {
        [
            EnvSensor(company: options.envSensorCompany),
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
    }

    /// Encoders, each under the id of the decoder that reads its bytes back.
    public static func encoders(_ options: DecoderOptions = DecoderOptions()) -> [any PayloadEncoder] {
        [
            EnvSensor(company: options.envSensorCompany),
            CombustionAdvert(),
            CombustionStatus(),
            CombustionUART(),
            AdafruitUART(),
            SIGTemperatureMeasurement(),
            SIGTemperatureMeasurement(intermediate: true),
            SIGBatteryLevel(),
            SIGHeartRate(),
            AppleIBeacon(),
            EddystoneUID(),
            EddystoneURL(),
            EddystoneTLM(),
            EddystoneEID(),
            BTHome(),
        ]
    }

    public static func encoder(for id: String, _ options: DecoderOptions = DecoderOptions()) -> (any PayloadEncoder)? {
        encoders(options).first { $0.id == id }
    }
}
