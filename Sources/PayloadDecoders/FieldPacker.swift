import ByteReading

/// Fields written as bytes as a decoder gives them, for output on its way to JSON (`bluetape
/// decode`, `golden check`): no `Field`, array or string is made for them, and nothing has to be
/// freed but the one buffer, which is used again and again.
///
/// A field is its name's number (UInt16) and its value: a tag byte (`Tag`) and an Int64, a
/// Double, a string's UTF-8 length (UInt32) and bytes, a list's count (UInt32) and values, or
/// nothing for true, false and null. Names are numbered in the order they are first met
/// (`name(_:)` gives each back); a name past the numbers there are is written as `unnumbered`,
/// its UTF-8 length (UInt32) and bytes. Numbers are in the machine's byte order: the bytes live
/// within one run.
///
/// Outcomes lie one after another in the buffer, each from `beginOutcome` to `endOutcome`,
/// until the owner takes them back (`removeAll`, `removeFirst`). Used by one thread at a time.
public final class FieldPacker: FieldWriting {
    // One thread at a time, so no access is checked at run time: checking cost as much as writing.
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes in use (`count` from other modules: a stored property read from another module is
    /// checked for exclusive access at run time).
    @exclusivity(unchecked) private var used = 0
    public var count: Int { used }

    /// Where the outcome being written starts, its fields so far, and its row of names.
    @exclusivity(unchecked) private var outcomeStart = 0
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var row = -1

    /// Every name met, by number.
    @exclusivity(unchecked) @usableFromInline var names: [String] = []
    @exclusivity(unchecked) private var numbers: [String: UInt16] = [:]
    /// Per row (a decoder's place in its set), the names it gave last by position, with their
    /// numbers: a decoder gives the same names in the same order almost every time, the same
    /// string each time, recognised by its representation (kept alive here, so that no other
    /// string can come to have it).
    @exclusivity(unchecked) private var cachedBits: [StringBits] = []
    @exclusivity(unchecked) private var cachedNumbers: [UInt16] = []
    @exclusivity(unchecked) private var cachedNames: [String] = []
    static let positionsPerRow = 64
    /// Names looked up by value (`value(named:in:)`, for dedup keys and follow-ups): a handful,
    /// each looked up for every reading of its decoder, recognised by representation.
    @exclusivity(unchecked) private var lookups: [(bits: StringBits, name: String, number: UInt16)] = []

    /// Where an outcome's fields lie, and how many there are.
    public struct Span: Sendable, Equatable {
        public var start: Int
        public var end: Int
        public var fields: Int
        /// No fields: for a reading that has none (an error, undecoded bytes).
        public static let none = Span(start: 0, end: 0, fields: -1)
        public var isNone: Bool { fields < 0 }
    }

    /// What a value's first byte says it is.
    public enum Tag {
        public static let int: UInt8 = 0
        public static let double: UInt8 = 1
        public static let string: UInt8 = 2
        public static let `false`: UInt8 = 3
        public static let `true`: UInt8 = 4
        public static let null: UInt8 = 5
        public static let list: UInt8 = 6
    }

    /// The number written for a name past the numbers there are; the name follows it.
    public static let unnumbered: UInt16 = 0x7FFF

    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 256)
        base = .allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    // MARK: Outcomes

    /// Starts an outcome whose names are remembered under `row` (-1: none; each is looked up).
    public func beginOutcome(row: Int) {
        outcomeStart = used
        position = 0
        self.row = row
        if row >= 0, (row + 1) * Self.positionsPerRow > cachedBits.count {
            let more = (row + 1) * Self.positionsPerRow - cachedBits.count
            cachedBits.append(contentsOf: repeatElement(StringBits.none, count: more))
            cachedNumbers.append(contentsOf: repeatElement(0, count: more))
            cachedNames.append(contentsOf: repeatElement("", count: more))
        }
    }

    /// Ends the outcome begun last and gives where its fields lie.
    public func endOutcome() -> Span {
        Span(start: outcomeStart, end: used, fields: position)
    }

    /// Takes back what the outcome begun last has written.
    public func discardOutcome() {
        used = outcomeStart
        position = 0
    }

    /// `fields` as one outcome under `row`.
    public func pack(_ fields: borrowing Fields, row: Int) -> Span {
        beginOutcome(row: row)
        for field in fields.entries { append(field.name, field.value) }
        return endOutcome()
    }

    /// The bytes of `span`, valid until the packer changes.
    public func bytes(_ span: Span) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
    }

    /// Forgets every outcome, keeping the memory.
    public func removeAll() {
        used = 0
        outcomeStart = 0
    }

    /// Forgets the first `bytes` bytes; what follows moves to the front (spans after them move
    /// back by as much).
    public func removeFirst(_ bytes: Int) {
        precondition(bytes >= 0 && bytes <= used)
        base.copyMemory(from: base + bytes, byteCount: used - bytes)
        used -= bytes
        outcomeStart = max(0, outcomeStart - bytes)
    }

    // MARK: Names

    /// Names numbered so far; `name(n)` for each n below it.
    public var nameCount: Int { names.count }

    public func name(_ number: Int) -> String { names[number] }

    /// The fields of `span` as `Fields`.
    public func fields(_ span: Span) -> Fields {
        guard !span.isNone else { return Fields() }
        var fields = Fields(capacity: span.fields)
        var reader = FieldReader(bytes(span))
        for _ in 0..<span.fields {
            let number = reader.number()
            let name = number == Self.unnumbered ? String(decoding: reader.text(), as: UTF8.self) : names[Int(number)]
            fields.append(name, reader.value())
        }
        return fields
    }

    /// Each field of `span` in order, without making `Fields`: its position, its name, and its
    /// value when that is a number (an integer as a Double; nil for text, booleans, null and
    /// lists). A numbered name is the packer's own string, the same one every time.
    @inlinable
    public func forEachField(in span: Span, _ body: (_ position: Int, _ name: borrowing String, _ number: Double?) -> Void) {
        guard !span.isNone else { return }
        var reader = FieldReader(bytes(span))
        for position in 0..<span.fields {
            let number = reader.number()
            let unnumberedName = number == Self.unnumbered ? String(decoding: reader.text(), as: UTF8.self) : nil
            let value: Double?
            switch reader.position.load(as: UInt8.self) {
            case Tag.int:
                reader.position += 1
                value = Double(reader.take(Int64.self))
            case Tag.double:
                reader.position += 1
                value = reader.take(Double.self)
            default:
                reader.skipValue()
                value = nil
            }
            if let unnumberedName {
                body(position, unnumberedName, value)
            } else {
                body(position, names[Int(number)], value)
            }
        }
    }

    /// The value of the first field named `name` in `span`; nil when there is none.
    public func value(named name: String, in span: Span) -> FieldValue? {
        guard !span.isNone else { return nil }
        let number = numberOf(name)
        // Not numbered: never met, unless the numbers ran out and it was written in full.
        guard number != nil || names.count >= Int(Self.unnumbered) else { return nil }
        var reader = FieldReader(bytes(span))
        for _ in 0..<span.fields {
            let found = reader.number()
            if found == Self.unnumbered {
                let text = reader.text()
                if number == nil, String(decoding: text, as: UTF8.self) == name { return reader.value() }
            } else if found == number {
                return reader.value()
            }
            reader.skipValue()
        }
        return nil
    }

    /// The number of a name met before; nil for one never met.
    private func numberOf(_ name: String) -> UInt16? {
        let bits = StringBits(name)
        for lookup in lookups where lookup.bits == bits { return lookup.number }
        // A name not met yet may be met later: only a number is kept.
        guard let number = numbers[name] else { return nil }
        if lookups.count < 8 { lookups.append((bits, name, number)) }
        return number
    }

    // MARK: Writing

    // Inlined into each decoder's reading, where the kind of each value is known: the switch
    // on it goes, and a field is a check for room and a few stores.
    @inline(__always)
    public func append(_ name: String, _ value: FieldValue) {
        let number = self.number(name)
        guard number != Self.unnumbered else {
            appendUnnumbered(name, value)
            return
        }
        put(value, named: number)
        position += 1
    }

    public func appendText(_ name: String, maximumCount: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        let number = self.number(name)
        guard number != Self.unnumbered else {
            appendUnnumbered(name, .string(String(unsafeUninitializedCapacity: maximumCount) { write($0.baseAddress!) }))
            return
        }
        reserve(7 + maximumCount)
        base.storeBytes(of: number, toByteOffset: used, as: UInt16.self)
        base.storeBytes(of: Tag.string, toByteOffset: used + 2, as: UInt8.self)
        let count = write((base + used + 7).assumingMemoryBound(to: UInt8.self))
        base.storeBytes(of: UInt32(count), toByteOffset: used + 3, as: UInt32.self)
        used += 7 + count
        position += 1
    }

    public func appendList(_ name: String, count: Int, _ element: (Int) -> FieldValue) {
        let number = self.number(name)
        guard number != Self.unnumbered else {
            appendUnnumbered(name, .list((0..<count).map(element)))
            return
        }
        reserve(7)
        base.storeBytes(of: number, toByteOffset: used, as: UInt16.self)
        base.storeBytes(of: Tag.list, toByteOffset: used + 2, as: UInt8.self)
        base.storeBytes(of: UInt32(count), toByteOffset: used + 3, as: UInt32.self)
        used += 7
        for index in 0..<count { put(element(index)) }
        position += 1
    }

    /// A field whose name is past the numbers there are: written in full.
    private func appendUnnumbered(_ name: String, _ value: FieldValue) {
        reserve(2)
        base.storeBytes(of: Self.unnumbered, toByteOffset: used, as: UInt16.self)
        used += 2
        put(name)
        put(value)
        position += 1
    }

    /// The number of a name given at this position of this row, from what the row had there
    /// last time when it is the same string.
    @inline(__always)
    private func number(_ name: String) -> UInt16 {
        let bits = StringBits(name)
        let slot = row &* Self.positionsPerRow &+ position
        if row >= 0, position < Self.positionsPerRow, cachedBits[slot] == bits { return cachedNumbers[slot] }
        return numberSlowly(name, bits)
    }

    /// Looks a name up by value, numbering it when new, and keeps it for its row and position.
    private func numberSlowly(_ name: String, _ bits: StringBits) -> UInt16 {
        var number = numbers[name]
        if number == nil, names.count < Int(Self.unnumbered) {
            number = UInt16(names.count)
            numbers[name] = number
            names.append(name)
        }
        guard let number else { return Self.unnumbered }
        if row >= 0, position < Self.positionsPerRow {
            let slot = row * Self.positionsPerRow + position
            cachedBits[slot] = bits
            cachedNumbers[slot] = number
            cachedNames[slot] = name
        }
        return number
    }

    /// A value, after its name's number when one is given: its tag and what follows it, with one
    /// check for room for all of it but a string's or a list's contents.
    @inline(__always)
    private func put(_ value: FieldValue, named number: UInt16? = nil) {
        let start = number == nil ? 0 : 2
        reserve(start + 9)
        let target = base + used
        if let number { target.storeBytes(of: number, as: UInt16.self) }
        switch value {
        case .int(let i):
            target.storeBytes(of: Tag.int, toByteOffset: start, as: UInt8.self)
            target.storeBytes(of: i, toByteOffset: start + 1, as: Int64.self)
            used += start + 9
        case .double(let d):
            target.storeBytes(of: Tag.double, toByteOffset: start, as: UInt8.self)
            target.storeBytes(of: d, toByteOffset: start + 1, as: Double.self)
            used += start + 9
        case .bool(let b):
            target.storeBytes(of: b ? Tag.true : Tag.false, toByteOffset: start, as: UInt8.self)
            used += start + 1
        case .null:
            target.storeBytes(of: Tag.null, toByteOffset: start, as: UInt8.self)
            used += start + 1
        case .string(let text):
            target.storeBytes(of: Tag.string, toByteOffset: start, as: UInt8.self)
            used += start + 1
            put(text)
        case .list(let list):
            used += start
            put(list)
        }
    }

    private func put(_ list: [FieldValue]) {
        reserve(5)
        base.storeBytes(of: Tag.list, toByteOffset: used, as: UInt8.self)
        base.storeBytes(of: UInt32(list.count), toByteOffset: used + 1, as: UInt32.self)
        used += 5
        for element in list { put(element) }
    }

    /// A string's UTF-8 length (UInt32) and bytes.
    private func put(_ text: String) {
        // Contiguous for every native string (a small one copied to the stack): no copy of the string.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { put(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var text = text
            text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
        }
    }

    @inline(__always)
    private func put(_ utf8: UnsafeRawBufferPointer) {
        let n = utf8.count
        reserve(4 + n)
        base.storeBytes(of: UInt32(n), toByteOffset: used, as: UInt32.self)
        used += 4
        guard let source = utf8.baseAddress, n > 0 else { return }
        RawBytes.copy(n, from: source, to: base + used)
        used += n
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if used + extra > capacity { grow(used + extra) }
    }

    private func grow(_ needed: Int) {
        base = RawBytes.grow(base, used: used, capacity: &capacity, needed: needed)
    }
}

/// Reads packed fields (`FieldPacker`) front to back: for each field its `number()` (and, when
/// that is `FieldPacker.unnumbered`, its name's `text()`), then its value.
public struct FieldReader {
    @usableFromInline var position: UnsafeRawPointer

    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) {
        // An empty span has no address; nothing is read from it then.
        position = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!
    }

    @inlinable @inline(__always)
    public mutating func take<T: BitwiseCopyable>(_: T.Type = T.self) -> T {
        let value = position.loadUnaligned(as: T.self)
        position += MemoryLayout<T>.size
        return value
    }

    @inlinable @inline(__always)
    public mutating func number() -> UInt16 { take(UInt16.self) }

    /// A UTF-8 length (UInt32) and the bytes: an unnumbered name, or a string value after its tag.
    @inlinable @inline(__always)
    public mutating func text() -> UnsafeBufferPointer<UInt8> {
        let n = Int(take(UInt32.self))
        defer { position += n }
        return UnsafeBufferPointer(start: position.assumingMemoryBound(to: UInt8.self), count: n)
    }

    public mutating func value() -> FieldValue {
        switch take(UInt8.self) {
        case FieldPacker.Tag.int: return .int(take())
        case FieldPacker.Tag.double: return .double(take())
        case FieldPacker.Tag.string: return .string(String(decoding: text(), as: UTF8.self))
        case FieldPacker.Tag.false: return .bool(false)
        case FieldPacker.Tag.true: return .bool(true)
        case FieldPacker.Tag.list:
            let n = Int(take(UInt32.self))
            var list: [FieldValue] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(value()) }
            return .list(list)
        default: return .null
        }
    }

    public mutating func skipValue() {
        switch take(UInt8.self) {
        case FieldPacker.Tag.int, FieldPacker.Tag.double: position += 8
        case FieldPacker.Tag.string: position += Int(take(UInt32.self))
        case FieldPacker.Tag.list: for _ in 0..<take(UInt32.self) { skipValue() }
        default: break
        }
    }
}
