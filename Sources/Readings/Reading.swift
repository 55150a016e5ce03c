import ByteReading
import BluetoothPackets
import BluetoothTracking
import PayloadDecoders

/// One decoded payload: the contract of `bluetape decode` (DESIGN.md, "Readings").
public struct Reading: Sendable {
    public var frame: Int
    /// Microseconds since the Unix epoch.
    public var timestamp: Int64
    public var address: BluetoothAddress?
    /// The decoder's id; nil for a payload no decoder matched (`decode --all`).
    public var decoder: String?
    /// "adv", or the ATT operation that carried the value ("notify", "write_req", …).
    public var source: String
    public var match: Match
    /// Position of this reading among several from one payload (0-based); nil when it was the only one.
    public var index: Int?
    public var outcome: Outcome
    /// How many copies a de-duplicated reading stands for (a device repeating the same payload).
    public var repeats: Int?

    public enum Match: Sendable, Hashable {
        case company(UInt16)
        case serviceData(BluetoothUUID)
        case characteristic(BluetoothUUID?)
    }

    public enum Outcome: Sendable {
        case fields(Fields)
        /// Boxed: an error is rare and 48 bytes long. Unboxed it made a `Reading` 161 bytes, and
        /// every move of one (into the outbox and out) a call to memcpy; now it is moved inline.
        indirect case error(DecodeError)
        /// An unmatched payload's bytes.
        case undecoded([UInt8])
    }
}
