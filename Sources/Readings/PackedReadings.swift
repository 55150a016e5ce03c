import BluetoothPackets
import ByteReading
import FieldJSON
import JSON
import PayloadDecoders

/// Readings packed into plain bytes: how they cross from the thread that decodes them to the one
/// that writes their JSON.
///
/// A `Reading` holds its fields in arrays and strings on the heap. Handed to another thread and
/// given back to be freed, each of those is touched by both cores, its reference counts and
/// memory moving between them. Packed, a reading is bytes written on one thread and read on the
/// other, and the `Reading` is freed where it was made, at once; when the decoders pack the fields
/// themselves (`FieldPacker`), their bytes are copied in as they are. The texts that repeat
/// (decoder ids, sources, field names) are sent once and named by a number after that, so the
/// writing side escapes each once. The bytes live only within one run: numbers are in native
/// byte order.
///
/// A packed reading: its length (UInt32), flags (UInt8), frame and time (Int64 each), then as the
/// flags say the address (UInt64), the decoder id (a text), the source (a text), the match (a
/// company UInt16, or a UUID's two UInt64 halves), index and repeats (Int64 each), then the
/// outcome: fields, an error as its JSON, or undecoded bytes (UInt32 length and bytes). A text is
/// a UInt16 number; with its top bit set, the text follows (UInt32 length and UTF-8) and the
/// number names it from then on. Fields are the field names numbered since the reading before
/// (a UInt16 count, each a UInt32 length and UTF-8, numbered on from the last), then the fields'
/// count and byte length (UInt32 each) and their bytes as `FieldPacker` writes them.
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
        base = RawBytes.grow(base, used: used, capacity: &capacity, needed: needed)
    }

    @inline(__always)
    func put<T: BitwiseCopyable>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        putReserved(value)
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
        RawBytes.copy(n, from: source, to: base + used)
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
    /// A decoder's id and its number.
    private struct DecoderText {
        var id: String
        var idBits: StringBits
        var number: UInt16
    }
    @exclusivity(unchecked) private var decoders: [DecoderText] = []
    @exclusivity(unchecked) private var lastDecoder = 0
    /// The sources met (a handful: "adv" and the ATT operations), by representation.
    @exclusivity(unchecked) private var sources: [(bits: StringBits, text: String, number: UInt16)] = []
    /// Where fields are packed: the pipeline's, whose spans the readings come with, or this
    /// packer's own for readings that hold their fields.
    private let fields: FieldPacker
    private let ownsFields: Bool
    /// Field names sent so far (the writer numbers them as they come).
    @exclusivity(unchecked) private var namesSent = 0

    /// A packer for readings that hold their fields.
    public init() {
        fields = FieldPacker(capacity: 4096)
        ownsFields = true
    }

    /// A packer for the readings of a pipeline that packs fields into `fields`.
    public init(sharing fields: FieldPacker) {
        self.fields = fields
        ownsFields = false
    }

    /// Starts a chunk that names its texts anew, as if none had been sent: its readings can be
    /// written out by a `PackedReadingJSON` that has seen no other chunk (reset), on any thread.
    public func startChunk() {
        namesSent = 0
        for number in sent.indices { sent[number] = false }
    }

    /// Packs `reading` after the others in `chunk`. `span`: where its fields lie in the shared
    /// field packer, for a reading from a pipeline that packs them.
    public func pack(_ reading: borrowing Reading, fields span: FieldPacker.Span = .none, into chunk: PackedReadings) {
        let start = chunk.startReading()
        var flags: UInt8 = 0
        chunk.put(Int64(reading.frame))
        chunk.put(reading.timestamp)
        if let address = reading.address {
            flags |= PackedReadings.Flag.address
            chunk.put(address.value)
        }
        var slot = -1
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
        case .fields(let readingFields):
            flags |= PackedReadings.Flag.fields
            if !span.isNone {
                putFields(span, chunk)
            } else {
                // Fields the reading holds: packed here for as long as it takes to copy them (under
                // the decoder's place among the ids sent, when this packer has its own).
                let own = fields.pack(readingFields, row: ownsFields ? slot : -1)
                putFields(own, chunk)
                fields.discardOutcome()
            }
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

    /// The names numbered since the last reading, then the fields as they lie.
    private func putFields(_ span: FieldPacker.Span, _ chunk: PackedReadings) {
        let names = fields.nameCount
        chunk.put(UInt16(names - namesSent))
        while namesSent < names {
            chunk.put(fields.name(namesSent), length: UInt32.self)
            namesSent += 1
        }
        chunk.put(UInt32(span.fields))
        chunk.put(fields.bytes(span), length: UInt32.self)
    }

    /// Sends the decoder's id (by number once sent) and answers its place among those sent.
    private func decoderSlot(_ id: borrowing String, _ chunk: PackedReadings) -> Int {
        let bits = StringBits(id)
        var slot = -1
        if lastDecoder < decoders.count, decoders[lastDecoder].idBits == bits {
            slot = lastDecoder
        } else if let found = decoders.firstIndex(where: { $0.idBits == bits }) {
            slot = found
        } else if let found = decoders.firstIndex(where: { $0.id == id }) {
            slot = found
        } else {
            let text = copy id
            decoders.append(DecoderText(id: text, idBits: bits, number: numbers[text] ?? newNumber(for: text)))
            slot = decoders.count - 1
        }
        lastDecoder = slot
        putReference(decoders[slot].number, id, chunk)
        return slot
    }

    /// Sends a reading's source, by number once sent.
    private func putSource(_ source: borrowing String, _ chunk: PackedReadings) {
        let bits = StringBits(source)
        for i in sources.indices where sources[i].bits == bits {
            putReference(sources[i].number, source, chunk)
            return
        }
        let text = copy source
        let number = numbers[text] ?? newNumber(for: text)
        putReference(number, text, chunk)
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
    /// Each numbered text (decoder ids, sources) as a JSON string (`"adv"`), one after another.
    private var texts: [UInt8] = []
    private var spans: [Range<Int>] = []
    /// Each field name as a JSON key after a comma (`,"temperature_c":`), by its number.
    private var names: [UInt8] = []
    private var nameSpans: [Range<Int>] = []

    public init() {}

    /// Forgets the texts learned, for a chunk that names its own (`ReadingPacker.startChunk`).
    public mutating func reset() {
        texts.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
        nameSpans.removeAll(keepingCapacity: true)
    }

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
        if flags & PackedReadings.Flag.decoder != 0 { writeText(&r, &w) } else { w.null() }
        w.key("source")
        writeText(&r, &w)
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
            for _ in 0..<(r.take() as UInt16) { learnName(r.text(UInt32.self)) }
            let count = Int(r.take() as UInt32)
            w.key("fields")
            writeFields(r.bytes(), count: count, to: &w)
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

    /// A field name numbered on from the last, escaped once, with the comma before it and the
    /// colon after it: one copy for each field written.
    private mutating func learnName(_ utf8: UnsafeBufferPointer<UInt8>) {
        var encoded = JSONWriter(capacity: utf8.count + 8)
        encoded.raw(UInt8(ascii: ","))
        encoded.appendEscaped(utf8: utf8)
        encoded.raw(UInt8(ascii: ":"))
        let start = names.count
        encoded.withBytes { names.append(contentsOf: $0) }
        nameSpans.append(start..<names.count)
    }

    /// Fields as `FieldPacker` writes them, as a JSON object.
    private func writeFields(_ bytes: UnsafeRawBufferPointer, count: Int, to w: inout JSONWriter) {
        w.beginObject()
        var reader = FieldReader(bytes)
        names.withUnsafeBytes { names in
            nameSpans.withUnsafeBufferPointer { spans in
                for _ in 0..<count {
                    let number = reader.number()
                    if number == FieldPacker.unnumbered {
                        w.key(validUTF8: reader.text())
                    } else {
                        w.key(commaPrefixed: UnsafeRawBufferPointer(rebasing: names[spans[Int(number)]]))
                    }
                    Self.writeValue(&reader, to: &w)
                }
            }
        }
        w.endObject()
    }

    private static func writeValue(_ reader: inout FieldReader, to w: inout JSONWriter) {
        switch reader.take(UInt8.self) {
        case FieldPacker.Tag.int: w.int(reader.take(Int64.self))
        case FieldPacker.Tag.double: w.double(reader.take(Double.self))
        case FieldPacker.Tag.string: w.string(validUTF8: reader.text())
        case FieldPacker.Tag.false: w.bool(false)
        case FieldPacker.Tag.true: w.bool(true)
        case FieldPacker.Tag.list:
            w.beginArray()
            for _ in 0..<reader.take(UInt32.self) { writeValue(&reader, to: &w) }
            w.endArray()
        default: w.null()
        }
    }

    /// A decoder id or a source: its number, after its definition the first time.
    @inline(__always)
    private mutating func writeText(_ r: inout Cursor, _ w: inout JSONWriter) {
        var number: UInt16 = r.take()
        if number & PackedReadings.definition != 0 {
            number &= ~PackedReadings.definition
            let utf8 = r.text(UInt32.self)
            if number == PackedReadings.unnumbered {
                w.string(validUTF8: utf8)
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
            w.rawJSON(quoted)
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
    }
}
