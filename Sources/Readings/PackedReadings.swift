import BluetoothPackets
import FieldJSON
import JSON
import PayloadDecoders

/// Readings packed into plain bytes: how they cross from the thread that decodes them to the one
/// that writes their JSON.
///
/// A `Reading` holds its fields in arrays and strings on the heap. Handed to another thread and
/// given back to be freed, each of those is touched by both cores, its reference counts and
/// memory moving between them. Packed, a reading is bytes written on one thread and read on the
/// other, and the `Reading` is freed where it was made, at once. The texts that repeat (decoder
/// ids, sources, field names) are sent once and named by a number after that, so the writing
/// side escapes each once. The bytes live only within one run: numbers are in native byte order.
///
/// A packed reading: its length (UInt32), flags (UInt8), frame and time (Int64 each), then as the
/// flags say the address (UInt64), the decoder id (a text), the source (a text), the match (a
/// company UInt16, or a UUID's two UInt64 halves), index and repeats (Int64 each), then the
/// outcome: fields (a UInt32 count, each a name as a text and a value), an error as its JSON, or
/// undecoded bytes (UInt32 length and bytes). A text is a UInt16 number; with its top bit set, the
/// text follows (UInt32 length and UTF-8) and the number names it from then on. A value is a tag
/// byte and its payload: Int64, Double, a UTF-8 string with its UInt32 length, or a list with its
/// UInt32 count.
public final class PackedReadings: @unchecked Sendable {
    // Used by one thread at a time (handed over under the hand-over's lock): checking each
    // access at run time cost as much as the packing.
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes in use.
    public var count: Int { used }
    /// Readings packed.
    public var readings: Int { packed }
    // Read by the computed properties above from other modules: a stored property read from
    // another module is checked for exclusive access at run time, a call for every reading.
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var packed = 0

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 256)
        base = .allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// Forgets the readings, keeping the memory.
    public func removeAll() {
        used = 0
        packed = 0
    }

    /// Calls `body` with each reading in the order they were packed, until it returns false;
    /// whether it never did.
    @discardableResult
    public func forEach(_ body: (PackedReading) -> Bool) -> Bool {
        var offset = 0
        while offset < used {
            let length = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            guard body(PackedReading(base: base + offset)) else { return false }
            offset += length
        }
        return true
    }

    enum Flag {
        static let address: UInt8 = 1
        static let decoder: UInt8 = 2
        static let index: UInt8 = 4
        static let repeats: UInt8 = 8
        static let company: UInt8 = 0 << 4
        static let serviceData: UInt8 = 1 << 4
        static let characteristic: UInt8 = 2 << 4
        static let unknownCharacteristic: UInt8 = 3 << 4
        static let match: UInt8 = 3 << 4
        static let fields: UInt8 = 0 << 6
        static let error: UInt8 = 1 << 6
        static let undecoded: UInt8 = 2 << 6
        static let outcome: UInt8 = 3 << 6
    }

    enum Tag {
        static let int: UInt8 = 0
        static let double: UInt8 = 1
        static let string: UInt8 = 2
        static let `false`: UInt8 = 3
        static let `true`: UInt8 = 4
        static let null: UInt8 = 5
        static let list: UInt8 = 6
    }

    /// A text's number with this bit set: the text follows.
    static let definition: UInt16 = 0x8000
    /// A text sent in full every time (past the numbers there are).
    static let unnumbered: UInt16 = 0x7FFF

    // MARK: Writing (for `ReadingPacker`)

    /// Where a reading starts: room for its length and flags, written by `finishReading`.
    func startReading() -> Int {
        let start = used
        reserve(5)
        used += 5
        return start
    }

    func finishReading(at start: Int, flags: UInt8) {
        base.storeBytes(of: UInt32(used - start), toByteOffset: start, as: UInt32.self)
        base.storeBytes(of: flags, toByteOffset: start + 4, as: UInt8.self)
        packed += 1
    }

    @inline(__always)
    func reserve(_ extra: Int) {
        if used + extra > capacity { grow(used + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newBase.copyMemory(from: base, byteCount: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func put<T: BitwiseCopyable>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        putReserved(value)
    }

    /// A numbered name, a value's tag and its eight bytes (`ReadingPacker`).
    @inline(__always)
    func putField(_ number: UInt16, _ tag: UInt8, _ payload: UInt64) {
        reserve(11)
        let target = base + used
        target.storeBytes(of: number, as: UInt16.self)
        target.storeBytes(of: tag, toByteOffset: 2, as: UInt8.self)
        target.storeBytes(of: payload, toByteOffset: 3, as: UInt64.self)
        used += 11
    }

    /// A numbered name and a value that is its tag alone.
    @inline(__always)
    func putField(_ number: UInt16, _ tag: UInt8) {
        reserve(3)
        let target = base + used
        target.storeBytes(of: number, as: UInt16.self)
        target.storeBytes(of: tag, toByteOffset: 2, as: UInt8.self)
        used += 3
    }

    /// `put` where `reserve` has made room already.
    @inline(__always)
    func putReserved<T: BitwiseCopyable>(_ value: T) {
        base.storeBytes(of: value, toByteOffset: used, as: T.self)
        used += MemoryLayout<T>.size
    }

    /// A length of type `L` and the bytes.
    @inline(__always)
    func put<L: FixedWidthInteger & BitwiseCopyable>(_ bytes: UnsafeRawBufferPointer, length: L.Type) {
        let n = min(bytes.count, Int(L.max))
        reserve(MemoryLayout<L>.size + n)
        base.storeBytes(of: L(n), toByteOffset: used, as: L.self)
        used += MemoryLayout<L>.size
        guard let source = bytes.baseAddress, n > 0 else { return }
        let target = base + used
        // Names, ids and values are a few bytes long: a loop beats a call to memcpy.
        if n <= 32 {
            for i in 0..<n {
                target.storeBytes(of: source.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self)
            }
        } else {
            target.copyMemory(from: source, byteCount: n)
        }
        used += n
    }

    /// A string's length (of type `L`) and UTF-8 bytes.
    @inline(__always)
    func put<L: FixedWidthInteger & BitwiseCopyable>(_ text: borrowing String, length: L.Type) {
        // Contiguous for every native string, small ones copied to the stack: no copy of the string.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { put(UnsafeRawBufferPointer($0), length: L.self) }
        if done == nil {
            var text = copy text
            text.withUTF8 { put(UnsafeRawBufferPointer($0), length: L.self) }
        }
    }
}

/// Packs readings on the thread that decodes them, keeping the texts already sent.
public final class ReadingPacker {
    // Used by the decoding thread alone: checking each access at run time cost a tenth of it.
    /// Every text sent, by its number.
    @exclusivity(unchecked) private var numbers: [String: UInt16] = [:]
    /// Per decoder, the field names it gave last, by position, with their numbers: a decoder gives
    /// the same names in the same order almost every time, the same string each time.
    private struct DecoderTexts {
        var id: String
        var idBits: StringBits
        var number: UInt16
        /// Kept so that the representations in `keys` stay theirs.
        var names: [String] = []
        var keys: [NameKey] = []
    }
    struct NameKey {
        var bits: StringBits
        var number: UInt16
    }
    /// A string's representation (two words): equal for two copies of one string, which are then
    /// known equal without a call, a retain or a release.
    struct StringBits: Equatable {
        var first: UInt64
        var second: UInt64
        static let none = StringBits(first: 0, second: 0)
    }
    private let nameOffset: Int = {
        precondition(MemoryLayout<String>.size == MemoryLayout<StringBits>.size)
        return MemoryLayout<Field>.offset(of: \Field.name)!
    }()
    private let valueOffset = MemoryLayout<Field>.offset(of: \Field.value)!

    @exclusivity(unchecked) private var decoders: [DecoderTexts] = []
    @exclusivity(unchecked) private var lastDecoder = 0
    /// The sources met (a handful: "adv" and the ATT operations), by representation.
    @exclusivity(unchecked) private var sources: [(bits: StringBits, text: String, number: UInt16)] = []

    public init() {}

    /// Packs `reading` after the others in `chunk`.
    public func pack(_ reading: borrowing Reading, into chunk: PackedReadings) {
        let start = chunk.startReading()
        var flags: UInt8 = 0
        chunk.put(Int64(reading.frame))
        chunk.put(reading.timestamp)
        if let address = reading.address {
            flags |= PackedReadings.Flag.address
            chunk.put(address.value)
        }
        var slot: Int?
        if reading.decoder != nil {
            flags |= PackedReadings.Flag.decoder
            slot = decoderSlot(reading.decoder!, chunk)
        }
        putSource(reading.source, chunk)
        switch reading.match {
        case .company(let company):
            flags |= PackedReadings.Flag.company
            chunk.put(company)
        case .serviceData(let uuid):
            flags |= PackedReadings.Flag.serviceData
            chunk.put(uuid.high)
            chunk.put(uuid.low)
        case .characteristic(let uuid?):
            flags |= PackedReadings.Flag.characteristic
            chunk.put(uuid.high)
            chunk.put(uuid.low)
        case .characteristic(nil):
            flags |= PackedReadings.Flag.unknownCharacteristic
        }
        if let index = reading.index {
            flags |= PackedReadings.Flag.index
            chunk.put(Int64(index))
        }
        if let repeats = reading.repeats {
            flags |= PackedReadings.Flag.repeats
            chunk.put(Int64(repeats))
        }
        switch reading.outcome {
        case .fields(let fields):
            flags |= PackedReadings.Flag.fields
            putFields(fields, decoder: slot, chunk)
        case .error(let error):
            flags |= PackedReadings.Flag.error
            var w = JSONWriter(capacity: 128)
            FieldJSON.write(error, to: &w)
            w.withBytes { chunk.put($0, length: UInt32.self) }
        case .undecoded(let bytes):
            flags |= PackedReadings.Flag.undecoded
            bytes.withUnsafeBytes { chunk.put($0, length: UInt32.self) }
        }
        chunk.finishReading(at: start, flags: flags)
    }

    private func putFields(_ fields: borrowing Fields, decoder slot: Int?, _ chunk: PackedReadings) {
        fields.entries.withUnsafeBufferPointer { entries in
            chunk.put(UInt32(entries.count))
            guard let slot else {
                for position in entries.indices {
                    number(of: entries[position].name, chunk)
                    put(valueOf: entries.baseAddress! + position, chunk)
                }
                return
            }
            let fieldBase = UnsafeRawPointer(entries.baseAddress)
            func nameBits(_ position: Int) -> StringBits {
                fieldBase!.load(
                    fromByteOffset: position * MemoryLayout<Field>.stride + nameOffset, as: StringBits.self)
            }
            // The names the decoder gave last time, while they come again: their numbers went out.
            var position = 0
            decoders[slot].keys.withUnsafeBufferPointer { keys in
                let known = min(keys.count, entries.count)
                while position < known, keys[position].bits == nameBits(position) {
                    put(keys[position].number, valueOf: entries.baseAddress! + position, chunk)
                    position += 1
                }
            }
            // The rest: looked up by value, and kept for next time.
            while position < entries.count {
                let name = entries[position].name
                let key = NameKey(bits: nameBits(position), number: number(of: name, chunk))
                if key.number == PackedReadings.unnumbered {
                    // Not kept (one past the numbers): the name goes out in full each time.
                } else if position < decoders[slot].keys.count {
                    decoders[slot].names[position] = name
                    decoders[slot].keys[position] = key
                } else {
                    decoders[slot].names.append(name)
                    decoders[slot].keys.append(key)
                }
                put(valueOf: entries.baseAddress! + position, chunk)
                position += 1
            }
        }
    }

    /// A value where it lies (switched on in place: a copy retained and released what it holds).
    private func put(_ value: UnsafePointer<FieldValue>, _ chunk: PackedReadings) {
        chunk.reserve(9)
        switch value.pointee {
        case .int(let i):
            chunk.putReserved(PackedReadings.Tag.int)
            chunk.putReserved(i)
        case .double(let d):
            chunk.putReserved(PackedReadings.Tag.double)
            chunk.putReserved(d)
        case .bool(let b): chunk.putReserved(b ? PackedReadings.Tag.true : PackedReadings.Tag.false)
        case .null: chunk.putReserved(PackedReadings.Tag.null)
        case .string(let text):
            chunk.putReserved(PackedReadings.Tag.string)
            chunk.put(text, length: UInt32.self)
        case .list(let list):
            chunk.putReserved(PackedReadings.Tag.list)
            chunk.put(UInt32(list.count))
            list.withUnsafeBufferPointer { elements in
                for i in elements.indices { put(elements.baseAddress! + i, chunk) }
            }
        }
    }

    /// A field whose name has its number: number, tag and value written at once when the value
    /// is a number, a truth or null (most are; one check for room and one move on for all three).
    @inline(__always)
    private func put(_ number: UInt16, valueOf field: UnsafePointer<Field>, _ chunk: PackedReadings) {
        let value = UnsafeRawPointer(field).advanced(by: valueOffset).assumingMemoryBound(to: FieldValue.self)
        switch value.pointee {
        case .int(let i): chunk.putField(number, PackedReadings.Tag.int, UInt64(bitPattern: i))
        case .double(let d): chunk.putField(number, PackedReadings.Tag.double, d.bitPattern)
        case .bool(let b): chunk.putField(number, b ? PackedReadings.Tag.true : PackedReadings.Tag.false)
        case .null: chunk.putField(number, PackedReadings.Tag.null)
        default:
            chunk.put(number)
            put(value, chunk)
        }
    }

    /// The value of the field at `field`.
    @inline(__always)
    private func put(valueOf field: UnsafePointer<Field>, _ chunk: PackedReadings) {
        put(UnsafeRawPointer(field).advanced(by: valueOffset).assumingMemoryBound(to: FieldValue.self), chunk)
    }

    /// A string's representation, read where it lies (no copy, so no retain).
    @inline(__always)
    static func bits(_ text: borrowing String) -> StringBits {
        withUnsafeBytes(of: text) { $0.loadUnaligned(as: StringBits.self) }
    }

    /// Sends the decoder's id (by number once sent) and answers its place in `decoders`.
    private func decoderSlot(_ id: borrowing String, _ chunk: PackedReadings) -> Int {
        let bits = Self.bits(id)
        var slot = -1
        if lastDecoder < decoders.count, decoders[lastDecoder].idBits == bits {
            slot = lastDecoder
        } else if let found = decoders.firstIndex(where: { $0.idBits == bits }) {
            slot = found
        } else if let found = decoders.firstIndex(where: { $0.id == id }) {
            slot = found
        } else {
            let text = copy id
            decoders.append(DecoderTexts(id: text, idBits: bits, number: numbers[text] ?? newNumber(for: text)))
            slot = decoders.count - 1
        }
        lastDecoder = slot
        putReference(decoders[slot].number, id, chunk)
        return slot
    }

    /// Sends a reading's source, by number once sent.
    private func putSource(_ source: borrowing String, _ chunk: PackedReadings) {
        let bits = Self.bits(source)
        for i in sources.indices where sources[i].bits == bits {
            putReference(sources[i].number, source, chunk)
            return
        }
        let text = copy source
        let number = number(of: text, chunk)
        // A handful in a capture; a source made anew for each reading is not kept.
        if sources.count < 64 { sources.append((bits, text, number)) }
    }

    /// A number for a text not sent yet (its definition goes out with its first reference).
    private func newNumber(for text: String) -> UInt16 {
        guard numbers.count < Int(PackedReadings.unnumbered) else { return PackedReadings.unnumbered }
        let number = UInt16(numbers.count)
        numbers[text] = number
        sent.append(false)
        return number
    }

    /// Whether each number's text has gone out.
    @exclusivity(unchecked) private var sent: [Bool] = []

    /// `text` as its number, sending it with the number the first time; returns the number.
    @discardableResult
    private func number(of text: String, _ chunk: PackedReadings) -> UInt16 {
        let number = numbers[text] ?? newNumber(for: text)
        putReference(number, text, chunk)
        return number
    }

    @inline(__always)
    private func putReference(_ number: UInt16, _ text: borrowing String, _ chunk: PackedReadings) {
        if number != PackedReadings.unnumbered, sent[Int(number)] {
            chunk.put(number)
            return
        }
        chunk.put(number | PackedReadings.definition)
        chunk.put(text, length: UInt32.self)
        if number != PackedReadings.unnumbered { sent[Int(number)] = true }
    }
}

/// One packed reading, lent from its `PackedReadings`.
public struct PackedReading {
    let base: UnsafeRawPointer
}

/// Writes packed readings as JSON, keeping each text the packer numbered, escaped once.
public struct PackedReadingJSON {
    /// Each numbered text as a JSON string (`"temperature_c"`), one after another.
    private var texts: [UInt8] = []
    private var spans: [Range<Int>] = []

    public init() {}

    /// `reading` as canonical JSON, one line: what `bluetape decode` and golden files hold.
    /// `leading`: a member to put first (`"capture":"a.btsnoop",`), already encoded.
    public mutating func write(_ reading: PackedReading, to w: inout JSONWriter, leading: [UInt8]? = nil) {
        var r = Cursor(reading.base)
        r.offset = 4
        let flags: UInt8 = r.take()
        w.beginObject()
        if let leading { w.raw(leading) }
        w.key("frame")
        w.int(r.take() as Int64)
        w.key("ts")
        w.timestamp(micros: r.take())
        if flags & PackedReadings.Flag.address != 0 {
            let address = BluetoothAddress(r.take() as UInt64)
            w.key("addr")
            w.quoted(upTo: BluetoothAddress.textLength) { address.writeText(to: $0) }
        }
        w.key("decoder")
        if flags & PackedReadings.Flag.decoder != 0 { writeText(&r, &w, asKey: false) } else { w.null() }
        w.key("source")
        writeText(&r, &w, asKey: false)
        switch flags & PackedReadings.Flag.match {
        case PackedReadings.Flag.company:
            w.key("company")
            w.int(r.take() as UInt16)
        case PackedReadings.Flag.unknownCharacteristic:
            w.key("uuid")
            w.null()
        default:
            w.key("uuid")
            let uuid = BluetoothUUID(high: r.take(), low: r.take())
            w.quoted(upTo: BluetoothUUID.maximumTextLength) { uuid.writeText(to: $0) }
        }
        if flags & PackedReadings.Flag.index != 0 {
            w.key("index")
            w.int(r.take() as Int64)
        }
        let repeats: Int64 = flags & PackedReadings.Flag.repeats != 0 ? r.take() : 1
        switch flags & PackedReadings.Flag.outcome {
        case PackedReadings.Flag.fields:
            w.key("fields")
            w.beginObject()
            for _ in 0..<(r.take() as UInt32) {
                writeText(&r, &w, asKey: true)
                r.writeValue(to: &w)
            }
            w.endObject()
        case PackedReadings.Flag.error:
            w.key("error")
            w.rawJSON(r.bytes())
        default:
            w.key("data")
            w.hex(r.bytes())
        }
        if repeats > 1 {
            w.key("repeats")
            w.int(repeats)
        }
        w.endObject()
        w.newline()
    }

    /// A text: its number, after its definition the first time.
    @inline(__always)
    private mutating func writeText(_ r: inout Cursor, _ w: inout JSONWriter, asKey: Bool) {
        var number: UInt16 = r.take()
        if number & PackedReadings.definition != 0 {
            number &= ~PackedReadings.definition
            let utf8 = r.text(UInt32.self)
            if number == PackedReadings.unnumbered {
                if asKey { w.key(validUTF8: utf8) } else { w.string(validUTF8: utf8) }
                return
            }
            var encoded = JSONWriter(capacity: utf8.count + 8)
            encoded.appendEscaped(utf8: utf8)
            let start = texts.count
            encoded.withBytes { texts.append(contentsOf: $0) }
            while spans.count <= Int(number) { spans.append(0..<0) }
            spans[Int(number)] = start..<texts.count
        }
        let span = spans[Int(number)]
        texts.withUnsafeBytes { all in
            let quoted = UnsafeRawBufferPointer(rebasing: all[span])
            if asKey { w.key(quoted: quoted) } else { w.rawJSON(quoted) }
        }
    }

    /// Reads a packed reading front to back.
    struct Cursor {
        let base: UnsafeRawPointer
        var offset = 0
        init(_ base: UnsafeRawPointer) { self.base = base }

        @inline(__always)
        mutating func take<T: BitwiseCopyable>() -> T {
            let value = base.loadUnaligned(fromByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
            return value
        }

        @inline(__always)
        mutating func text<L: FixedWidthInteger & BitwiseCopyable>(_ length: L.Type) -> UnsafeBufferPointer<UInt8> {
            let n = Int(take() as L)
            defer { offset += n }
            return UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: UInt8.self), count: n)
        }

        mutating func bytes() -> UnsafeRawBufferPointer {
            let n = Int(take() as UInt32)
            defer { offset += n }
            return UnsafeRawBufferPointer(start: base + offset, count: n)
        }

        mutating func writeValue(to w: inout JSONWriter) {
            switch take() as UInt8 {
            case PackedReadings.Tag.int: w.int(take() as Int64)
            case PackedReadings.Tag.double: w.double(take())
            case PackedReadings.Tag.string: w.string(validUTF8: text(UInt32.self))
            case PackedReadings.Tag.false: w.bool(false)
            case PackedReadings.Tag.true: w.bool(true)
            case PackedReadings.Tag.list:
                w.beginArray()
                for _ in 0..<(take() as UInt32) { writeValue(to: &w) }
                w.endArray()
            default: w.null()
            }
        }
    }
}
