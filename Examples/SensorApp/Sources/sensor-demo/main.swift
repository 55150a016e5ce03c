import BluetoothPackets
import Bluetape
import PayloadDecoders
import Replay
import SensorDecoding

// A tiny stand-in for an app: decode what CoreBluetooth would deliver, then replay a recorded
// capture into the very same decoding, as an app's tests do. Arguments: the Bluetape checkout
// (for its layouts/ and captures/).
let root = CommandLine.arguments.dropFirst().first ?? "."
let decoder = try SensorDecoder(layoutFiles: [root + "/layouts/envsensor.json"])

// A heart-rate notification (payloads.md D.3) and an EnvSensor advertisement (A.3).
if case .success(let values)? = decoder.decode(CharacteristicValue(uuid: "2A37", bytes: [0x16, 0x48, 0x00, 0x04, 0x1A, 0x03])) {
    print("heart rate:", values.map(\.description).joined(separator: ", "))
}
let advert: [UInt8] = [0xFF, 0xFF, 0x34, 0x12, 0x29, 0x09, 0x9A, 0x15, 0x94, 0x27, 0x00, 0x00, 0x4A, 0x01, 0x2E, 0xFB, 0xFF, 0xFF]
if case .success(let values)? = decoder.decode(manufacturerData: advert) {
    print("envsensor:", values.map(\.description).joined(separator: ", "))
}

// A recorded session, replayed as fast as it can be read, into the app's decoding.
var heartRates = 0
for try await item in try Replay.events(from: root + "/captures/sig-heart-thermometer.btsnoop", options: .unpaced, clock: .instant) {
    guard case .att(let att) = item.value.body, let uuid = att.attribute?.uuid, let value = att.value else { continue }
    if case .success? = decoder.decode(CharacteristicValue(uuid: uuid.description, bytes: value)), uuid == BluetoothUUID(0x2A37) {
        heartRates += 1
    }
}
print("replayed heart-rate notifications decoded:", heartRates)

// The same capture through the one-call library: every reading, as `bluetape decode` gives them.
let capture = try Capture(path: root + "/captures/sig-heart-thermometer.btsnoop")
let readings = capture.readings(try DecoderConfiguration())
print("readings in the capture:", readings.reduce(0) { count, _ in count + 1 })
