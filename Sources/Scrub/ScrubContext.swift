import BluetoothPackets
import ByteReading

/// What the rules share while a capture is scrubbed: the options, the pseudonyms, what the first
/// pass learned, and the counts.
///
/// Rules read the original bytes through a `ByteReader` and write into `out`, a copy of the same
/// bytes, at the reader's offsets. In the first pass (`learning`) they only collect addresses and
/// names; in the second they replace them.
final class ScrubContext {
    let options: ScrubOptions
    var learning = true
    var addresses: AddressPseudonyms
    var names = NamePseudonyms()
    var facts = LearnedFacts()
    var statistics = ScrubStatistics()
    /// The frame of the record being processed (ATT transactions remember where they started).
    var frame = 0
    /// Keys zeroed in the first pass, for the sweep to find their copies (fuzzed or mangled
    /// packets repeat them where no rule looks).
    var keys = KeyRegister()
    /// The sweeps' lookup structures, rebuilt when more addresses, names or keys are known.
    var cachedAddressFilter: (count: Int, filter: BitSet65536)?
    var cachedNameIndex: (count: Int, index: NameIndex)?
    var cachedKeyIndex: (count: Int, index: NameIndex)?

    init(options: ScrubOptions) {
        self.options = options
        addresses = AddressPseudonyms(hash: KeyedHash(seed: options.seed), keepOUI: options.keepOUI)
        facts = LearnedFacts(options: options)
    }

    /// Replaces the six-byte (little-endian) address under the reader with its pseudonym.
    @discardableResult
    func address(_ r: inout ByteReader, _ out: inout [UInt8]) throws(DecodeError) -> BluetoothAddress {
        let offset = r.offset
        let original = try BluetoothAddress(reading: &r)
        replace(original.value, at: offset, &out)
        return original
    }

    /// Writes the pseudonym of `address` over the six bytes at `offset` (little-endian).
    func replace(_ address: UInt64, at offset: Int, _ out: inout [UInt8], bigEndian: Bool = false) {
        if learning {
            addresses.note(address)
            return
        }
        let pseudonym = addresses.pseudonym(address)
        guard pseudonym != address else { return }
        for i in 0..<6 {
            let byte = UInt8(truncatingIfNeeded: pseudonym >> UInt64(8 * i))
            out[offset + (bigEndian ? 5 - i : i)] = byte
        }
        statistics.addressesReplaced += 1
    }

    /// Zeroes the next `count` bytes (as many as there are): key material.
    func zero(_ r: inout ByteReader, _ count: Int, _ out: inout [UInt8]) {
        let start = r.offset
        let n = min(count, r.remaining)
        guard let bytes = try? r.bytes(n) else { return }
        if learning { keys.note(bytes) }
        guard !learning, bytes.contains(where: { $0 != 0 }) else { return }
        for i in start..<start + n { out[i] = 0 }
        statistics.keysZeroed += 1
    }

    /// Blanks the next `count` bytes: a characteristic value given with `--values`.
    func blank(_ r: inout ByteReader, _ count: Int, _ out: inout [UInt8]) {
        let start = r.offset
        let n = min(count, r.remaining)
        guard (try? r.skip(n)) != nil, !learning, n > 0 else { return }
        for i in start..<start + n { out[i] = 0 }
        statistics.valuesBlanked += 1
    }

    /// A device name of exactly `count` bytes (an AD structure, an attribute value).
    func name(_ r: inout ByteReader, _ count: Int, _ out: inout [UInt8]) {
        let start = r.offset
        let n = min(count, r.remaining)
        guard let bytes = try? r.bytes(n), options.names else { return }
        if learning {
            names.note(bytes)
        } else if let number = names.number(bytes) ?? names.note(bytes) {
            write(NamePseudonyms.fitted(number, length: n), at: start, &out)
        }
    }

    /// A name in a fixed field of `field` bytes, ended by a NUL when shorter (HCI's 248-byte names):
    /// the pseudonym takes the room it needs, and the rest of the field is zeroed.
    func terminatedName(_ r: inout ByteReader, field: Int, _ out: inout [UInt8]) {
        let start = r.offset
        let n = min(field, r.remaining)
        guard let bytes = try? r.bytes(n), options.names else { return }
        let name = bytes.prefix { $0 != 0 }
        if learning {
            names.note(name)
            return
        }
        guard let number = names.number(name) ?? names.note(name) else { return }
        var replacement = NamePseudonyms.full(number)
        if replacement.count > n { replacement = NamePseudonyms.fitted(number, length: n) }
        replacement += [UInt8](repeating: 0, count: n - replacement.count)
        write(replacement, at: start, &out)
    }

    /// Writes the replacement bytes a name's plan gives (one part of a long value).
    func write(_ bytes: [UInt8], at offset: Int, _ out: inout [UInt8]) {
        let n = min(bytes.count, out.count - offset)
        guard n > 0, !learning else { return }
        var changed = false
        for i in 0..<n where out[offset + i] != bytes[i] {
            out[offset + i] = bytes[i]
            changed = true
        }
        if changed { statistics.namesReplaced += 1 }
    }
}
