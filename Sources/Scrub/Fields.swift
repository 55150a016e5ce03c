import ByteReading

/// How a command's or event's parameters are laid out, as far as scrubbing cares: the fields to
/// skip, the addresses to map, the keys to zero, the names and advertising data to rewrite.
indirect enum Field {
    case skip(Int)
    case address
    /// Key material (a key, a random value, a confirm value, a passkey): zeroed.
    case key(Int)
    /// A NUL-terminated name in a fixed field of this many bytes.
    case name(Int)
    /// Advertising data filling a fixed field of this many bytes (an extended inquiry response).
    case advertisingData(Int)
    /// A length (of `lengthSize` bytes, little-endian), then that many bytes of advertising data, in
    /// a field of `field` bytes (as many as the length says when nil).
    case sizedAdvertisingData(lengthSize: Int, field: Int?)
    /// A count (of `countSize` bytes, little-endian), then that many entries.
    case repeated(countSize: Int, [Field])
}

extension ScrubContext {
    /// Applies `fields` in order from the reader's position; stops where the bytes end.
    func apply(_ fields: [Field], _ r: inout ByteReader, _ out: inout [UInt8]) {
        for field in fields {
            guard apply(field, &r, &out) else { return }
        }
    }

    private func apply(_ field: Field, _ r: inout ByteReader, _ out: inout [UInt8]) -> Bool {
        switch field {
        case .skip(let n):
            return (try? r.skip(n)) != nil
        case .address:
            return (try? address(&r, &out)) != nil
        case .key(let n):
            zero(&r, n, &out)
            return !r.isAtEnd
        case .name(let n):
            terminatedName(&r, field: n, &out)
            return !r.isAtEnd
        case .advertisingData(let n):
            guard let region = try? r.sub(min(n, r.remaining)) else { return false }
            advertisingData(region, &out)
            return !r.isAtEnd
        case .sizedAdvertisingData(let lengthSize, let field):
            guard let length = try? r.unsigned(size: lengthSize, .little) else { return false }
            let n = min(Int(length), field ?? Int(length), r.remaining)
            guard let region = try? r.sub(n) else { return false }
            advertisingData(region, &out)
            if let field { _ = try? r.skip(min(field - n, r.remaining)) }
            return !r.isAtEnd
        case .repeated(let countSize, let entry):
            guard let count = try? r.unsigned(size: countSize, .little) else { return false }
            for _ in 0..<count {
                let before = r.offset
                apply(entry, &r, &out)
                if r.offset == before || r.isAtEnd { break }
            }
            return !r.isAtEnd
        }
    }
}
