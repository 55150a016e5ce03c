/// The last look through every record before it is written: copies of known addresses (in either
/// byte order, and as text like "C2:6B:30:F9:0E:C7") and known names wherever the rules did not
/// reach, such as inside manufacturer data, vendor packets or a tool's log notes.
///
/// In the first pass the sweep only collects addresses written as text, so that they are known
/// (and replaced in binary too) in the second.
extension ScrubContext {
    func sweep(_ bytes: inout [UInt8], range: Range<Int>) {
        guard range.count >= 6 else { return }
        sweepText(&bytes, range: range)
        guard !learning else { return }
        sweepAddresses(&bytes, range: range)
        if options.names { sweepNames(&bytes, range: range) }
        if keys.count > 0 { sweepKeys(&bytes, range: range) }
    }

    // MARK: Addresses in binary

    private func sweepAddresses(_ bytes: inout [UInt8], range: Range<Int>) {
        guard addresses.count > 0 else { return }
        let filter = addressFilter()
        var i = range.lowerBound
        while i + 6 <= range.upperBound {
            let pair = Int(bytes[i]) | Int(bytes[i + 1]) << 8
            guard filter.contains(pair) else {
                i += 1
                continue
            }
            var little: UInt64 = 0
            var big: UInt64 = 0
            for k in 0..<6 {
                little |= UInt64(bytes[i + k]) << UInt64(8 * k)
                big = big << 8 | UInt64(bytes[i + k])
            }
            if addresses.contains(little), AddressPseudonyms.isDistinctive(little) {
                replace(little, at: i, &bytes)
                i += 6
            } else if addresses.contains(big), AddressPseudonyms.isDistinctive(big) {
                replace(big, at: i, &bytes, bigEndian: true)
                i += 6
            } else {
                i += 1
            }
        }
    }

    /// The first two bytes of every known address in either order: most windows are rejected by
    /// one bit test before a set lookup.
    private func addressFilter() -> BitSet65536 {
        if let cached = cachedAddressFilter, cached.count == addresses.count { return cached.filter }
        var filter = BitSet65536()
        for address in addresses.distinctive {
            filter.insert(Int(address & 0xFFFF))
            filter.insert(Int((address >> 40) & 0xFF) | Int((address >> 32) & 0xFF) << 8)
        }
        cachedAddressFilter = (addresses.count, filter)
        return filter
    }

    // MARK: Addresses as text

    private func sweepText(_ bytes: inout [UInt8], range: Range<Int>) {
        var i = range.lowerBound
        while i + 17 <= range.upperBound {
            guard bytes[i + 2] == UInt8(ascii: ":"), let value = Self.addressText(bytes, at: i),
                i == range.lowerBound || !Self.isAddressCharacter(bytes[i - 1]),
                i + 17 == range.upperBound || !Self.isAddressCharacter(bytes[i + 17])
            else {
                i += 1
                continue
            }
            if learning {
                addresses.note(value)
            } else if addresses.contains(value) {
                let pseudonym = addresses.pseudonym(value)
                let lower = (0..<17).contains { bytes[i + $0] >= UInt8(ascii: "a") && bytes[i + $0] <= UInt8(ascii: "f") }
                let digits = Array((lower ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
                for k in 0..<6 {
                    let byte = Int((pseudonym >> UInt64(40 - 8 * k)) & 0xFF)
                    bytes[i + 3 * k] = digits[byte >> 4]
                    bytes[i + 3 * k + 1] = digits[byte & 0xF]
                }
                statistics.addressesReplaced += 1
            }
            i += 17
        }
    }

    /// "HH:HH:HH:HH:HH:HH" at `i`, most significant byte first.
    private static func addressText(_ bytes: [UInt8], at i: Int) -> UInt64? {
        var value: UInt64 = 0
        for k in 0..<6 {
            let at = i + 3 * k
            guard let high = hexValue(bytes[at]), let low = hexValue(bytes[at + 1]) else { return nil }
            if k < 5, bytes[at + 2] != UInt8(ascii: ":") { return nil }
            value = value << 8 | UInt64(high << 4 | low)
        }
        return value
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A hex digit or colon next to the text means it is part of something longer (a key dump).
    private static func isAddressCharacter(_ c: UInt8) -> Bool { c == UInt8(ascii: ":") || hexValue(c) != nil }

    // MARK: Names

    /// Names shorter than this (or too uniform, `NamePseudonyms.isDistinctive`) are only replaced
    /// where the format says they are names: a short byte run turns up by chance anywhere.
    static let sweptNameLength = 4

    private func sweepNames(_ bytes: inout [UInt8], range: Range<Int>) {
        let index = nameIndex()
        find(index, in: &bytes, range: range) { match, at, bytes in
            write(NamePseudonyms.fitted(match.number, length: match.bytes.count), at: at, &bytes)
        }
    }

    /// Copies of zeroed keys are zeroed too.
    private func sweepKeys(_ bytes: inout [UInt8], range: Range<Int>) {
        if cachedKeyIndex?.count != keys.count {
            cachedKeyIndex = (keys.count, NameIndex(keys.order.enumerated().map { ($0.element, $0.offset) }))
        }
        find(cachedKeyIndex!.index, in: &bytes, range: range) { match, at, bytes in
            for i in at..<at + match.bytes.count { bytes[i] = 0 }
            statistics.keysZeroed += 1
        }
    }

    /// Calls `replace` for each occurrence of an indexed byte string, left to right.
    private func find(
        _ index: NameIndex, in bytes: inout [UInt8], range: Range<Int>,
        _ replace: ((bytes: [UInt8], number: Int), Int, inout [UInt8]) -> Void
    ) {
        guard !index.byPrefix.isEmpty else { return }
        var i = range.lowerBound
        while i + Self.sweptNameLength <= range.upperBound {
            let pair = Int(bytes[i]) | Int(bytes[i + 1]) << 8
            guard index.filter.contains(pair) else {
                i += 1
                continue
            }
            let prefix = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            let match = index.byPrefix[prefix]?.first { name in
                i + name.bytes.count <= range.upperBound && bytes[i..<i + name.bytes.count].elementsEqual(name.bytes)
            }
            guard let match else {
                i += 1
                continue
            }
            replace(match, i, &bytes)
            i += match.bytes.count
        }
    }

    private func nameIndex() -> NameIndex {
        if let cached = cachedNameIndex, cached.count == names.count { return cached.index }
        let index = NameIndex(names.order.enumerated().filter { NamePseudonyms.isDistinctive($0.element) }.map { ($0.element, $0.offset + 1) })
        cachedNameIndex = (names.count, index)
        return index
    }
}

/// Byte strings of 4 bytes or more, found by their first four.
struct NameIndex {
    var byPrefix: [UInt32: [(bytes: [UInt8], number: Int)]] = [:]
    var filter = BitSet65536()

    init(_ entries: [(bytes: [UInt8], number: Int)]) {
        for entry in entries where entry.bytes.count >= 4 {
            let b = entry.bytes
            byPrefix[UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24, default: []].append(entry)
            filter.insert(Int(b[0]) | Int(b[1]) << 8)
        }
        // Longest first, so that a name that starts another is not taken for it.
        for key in byPrefix.keys { byPrefix[key]!.sort { $0.bytes.count > $1.bytes.count } }
    }
}

/// 65,536 bits: a set of 16-bit values.
struct BitSet65536 {
    private var words = [UInt64](repeating: 0, count: 1024)

    mutating func insert(_ value: Int) { words[value >> 6] |= 1 << UInt64(value & 63) }

    @inline(__always)
    func contains(_ value: Int) -> Bool { words[value >> 6] & (1 << UInt64(value & 63)) != 0 }
}
