import ByteReading

/// Where a decoder puts the fields of an outcome, one after another: `Fields` for an app, or a
/// `FieldPacker` for output on its way to JSON. A decoder that reads its payload into any of
/// them (generic over this) gives both from one reading of the bytes.
public protocol FieldWriting {
    mutating func append(_ name: String, _ value: FieldValue)
    /// A string value written in place: `write` puts at most `maximumCount` bytes of UTF-8 where
    /// it points and answers how many (a serial, a UUID: no string is made for it on the way to
    /// JSON).
    mutating func appendText(_ name: String, maximumCount: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int)
    /// A list of `count` values, `element(i)` each in order, written in place (no list is made
    /// for it on the way to JSON).
    mutating func appendList(_ name: String, count: Int, _ element: (Int) -> FieldValue)
}

extension FieldWriting {
    public mutating func appendText(
        _ name: String, maximumCount: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        append(name, .string(String(unsafeUninitializedCapacity: maximumCount) { write($0.baseAddress!) }))
    }

    public mutating func appendList(_ name: String, count: Int, _ element: (Int) -> FieldValue) {
        append(name, .list((0..<count).map(element)))
    }
}

extension Fields: FieldWriting {}

/// What `PayloadDecoder.decode(_:packingInto:)` gives.
public enum PackedOutcome {
    /// Nothing: the payload has the matched key but is not this decoder's.
    case none
    /// One outcome, its fields written into the packer.
    case fields
    /// One outcome, an error; nothing was written into the packer.
    case error(DecodeError)
    /// The outcomes as `decode(_:)` gives them, where they are not one set of packed fields.
    case outcomes([DecodeOutcome])
}

extension PayloadDecoder {
    /// For a decoder that has no packing path of its own: its outcomes as they are.
    public func decode(_ payload: Payload, packingInto packer: FieldPacker) -> PackedOutcome {
        .outcomes(decode(payload))
    }

    /// Runs `read` over the payload bytes into new fields (room made for about `capacity`) and
    /// turns its result or error into one outcome. (Inlined, so that a generic `read` passed in
    /// is made for `Fields`, not run through the generic path.)
    @inline(__always)
    public func decoding(
        _ bytes: [UInt8], capacity: Int, _ read: (inout ByteReader, inout Fields) throws(DecodeError) -> Void
    ) -> DecodeOutcome {
        decoding(bytes) { (reader: inout ByteReader) throws(DecodeError) -> Fields in
            var fields = Fields(capacity: capacity)
            try read(&reader, &fields)
            return fields
        }
    }

    /// Runs `read` over the payload bytes into `packer`, as `decoding(_:capacity:_:)` does into
    /// new fields: one outcome, its fields packed or an error (and what it had written taken back).
    @inline(__always)
    public func packing(
        _ bytes: [UInt8], into packer: FieldPacker, _ read: (inout ByteReader, inout FieldPacker) throws(DecodeError) -> Void
    ) -> PackedOutcome {
        var packer = packer
        do {
            try ByteReader.reading(bytes) { (reader: inout ByteReader) throws(DecodeError) in try read(&reader, &packer) }
            return .fields
        } catch {
            packer.discardOutcome()
            return .error(error)
        }
    }
}
