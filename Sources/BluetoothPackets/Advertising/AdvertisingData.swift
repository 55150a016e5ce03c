import ByteReading

/// AD types Bluetape lifts out of advertising data (Assigned Numbers §2.3).
public enum ADType {
    public static let flags: UInt8 = 0x01
    public static let incomplete16: UInt8 = 0x02
    public static let complete16: UInt8 = 0x03
    public static let incomplete32: UInt8 = 0x04
    public static let complete32: UInt8 = 0x05
    public static let incomplete128: UInt8 = 0x06
    public static let complete128: UInt8 = 0x07
    public static let shortenedName: UInt8 = 0x08
    public static let completeName: UInt8 = 0x09
    public static let txPower: UInt8 = 0x0A
    public static let serviceData16: UInt8 = 0x16
    public static let appearance: UInt8 = 0x19
    public static let serviceData32: UInt8 = 0x20
    public static let serviceData128: UInt8 = 0x21
    public static let manufacturerData: UInt8 = 0xFF

    /// Size of the UUIDs a list or service-data type carries, else nil.
    @inlinable
    public static func uuidSize(_ type: UInt8) -> Int? {
        switch type {
        case incomplete16, complete16, serviceData16: 2
        case incomplete32, complete32, serviceData32: 4
        case incomplete128, complete128, serviceData128: 16
        default: nil
        }
    }
}

/// Advertising data: a run of AD structures `[length][type][data…]` (Core v6.0, Vol 3, Part C, §11).
///
/// Parsing follows BlueZ's rules: a zero length ends the significant part; a length that runs past
/// the end stops parsing there, and that is reported as an error located at its length byte.
public struct AdvertisingData: Sendable, Hashable {
    /// Up to 31 bytes (all of legacy advertising data) are kept in the value itself, so that an
    /// advertisement costs no allocation; longer extended data goes to the heap.
    @usableFromInline var short: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var shortCount: UInt8 = 0
    @usableFromInline var long: [UInt8]?

    /// The most bytes held without an allocation.
    public static let inlineCapacity = 31

    public init(_ bytes: [UInt8]) {
        if bytes.count <= Self.inlineCapacity {
            bytes.withUnsafeBytes { store($0) }
        } else {
            long = bytes
        }
    }

    /// A copy of `bytes`, allocating only when there are more than 31.
    public init(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count <= Self.inlineCapacity { store(bytes) } else { long = [UInt8](bytes) }
    }

    private mutating func store(_ bytes: UnsafeRawBufferPointer) {
        shortCount = UInt8(bytes.count)
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        Swift.withUnsafeMutableBytes(of: &short) { $0.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
    }

    /// The raw bytes (a copy; `withUnsafeBytes` reads them where they are).
    public var bytes: [UInt8] { withUnsafeBytes { [UInt8]($0) } }

    public var count: Int { long?.count ?? Int(shortCount) }

    /// The bytes are held in the value itself: it holds nothing on the heap.
    @inlinable public var isInline: Bool { long == nil }

    /// Calls `body` with the bytes where they are held.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let long { return try long.withUnsafeBytes(body) }
        var short = short
        let count = Int(shortCount)
        return try Swift.withUnsafeBytes(of: &short) { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    public static func == (a: AdvertisingData, b: AdvertisingData) -> Bool {
        // Held inline, the bytes past the count are zero (`store` writes only the count into
        // zeros), so four words and the count compare them all: every advert's data is compared
        // with its device's last, and byte by byte that was a fifth of the event statistics.
        if a.long == nil, b.long == nil {
            return a.shortCount == b.shortCount && a.short.0 == b.short.0 && a.short.1 == b.short.1
                && a.short.2 == b.short.2 && a.short.3 == b.short.3
        }
        return a.withUnsafeBytes { left in b.withUnsafeBytes { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// One AD structure as it was sent; `kind` is what it means.
    public struct Structure {
        public var type: UInt8
        public var data: UnsafeRawBufferPointer
        /// Offset of the structure's length byte within the advertising data.
        public var offset: Int

        @inlinable
        public init(type: UInt8, data: UnsafeRawBufferPointer, offset: Int) {
            self.type = type
            self.data = data
            self.offset = offset
        }

        /// The structure read by its type: the one interpretation every output and the readings share.
        @inlinable public var kind: ADStructure { ADStructure(type: type, data: data) }
    }

    /// The structures of `bytes`, in order, and after them the error that stopped parsing, if any.
    @inlinable
    public static func structures(in bytes: UnsafeRawBufferPointer) -> ADStructures { ADStructures(bytes) }

    /// Calls `body` for each well-formed structure; returns the error that stopped parsing, if any.
    @discardableResult
    public static func forEach(
        in bytes: UnsafeRawBufferPointer, _ body: (Structure) -> Void
    ) -> DecodeError? {
        var iterator = ADStructures(bytes).makeIterator()
        while let structure = iterator.next() { body(structure) }
        return iterator.error
    }

    public func forEach(_ body: (Structure) -> Void) -> DecodeError? {
        withUnsafeBytes { Self.forEach(in: $0, body) }
    }

    /// The local name (complete, else shortened), decoded as UTF-8.
    public var localName: String? {
        var complete: String?
        var shortened: String?
        _ = forEach { s in
            guard case .localName(let name, let isComplete) = s.kind else { return }
            if isComplete { complete = String(decoding: name, as: UTF8.self) } else {
                shortened = String(decoding: name, as: UTF8.self)
            }
        }
        return complete ?? shortened
    }

    /// Service UUIDs from the 16-, 32- and 128-bit lists.
    public var serviceUUIDs: [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        _ = forEach { s in
            if case .uuids(let list, _) = s.kind { uuids.append(contentsOf: list) }
        }
        return uuids
    }
}

/// The AD structures of some advertising data, read one by one without copying. Inlinable: the
/// outputs walk every advertisement through it.
public struct ADStructures: Sequence {
    @usableFromInline let bytes: UnsafeRawBufferPointer

    @inlinable init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    @inlinable public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

    /// The error that stopped parsing (a length past the end), or nil when the data is whole.
    public var error: DecodeError? {
        var iterator = makeIterator()
        while iterator.next() != nil {}
        return iterator.error
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline let bytes: UnsafeRawBufferPointer
        @usableFromInline var position: Int
        @usableFromInline var stopped: Bool
        /// The offset of a length byte that ran past the data, once parsing stopped there. (Kept as a
        /// number, not a DecodeError: the iterator stays a plain value, free to copy.)
        @usableFromInline var overrunAt: Int?

        /// Set once parsing stopped at a broken structure.
        public var error: DecodeError? {
            overrunAt.map { offset in
                let length = Int(bytes[offset])
                return DecodeError(
                    .badLength(declared: length, available: bytes.count - offset - 1), at: offset, field: "ad.length")
            }
        }

        @inlinable
        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            position = 0
            stopped = false
            overrunAt = nil
        }

        @inlinable
        public mutating func next() -> AdvertisingData.Structure? {
            // Bounds are checked before every read: a length byte, then its structure.
            guard !stopped, position < bytes.count else { return nil }
            let offset = position
            let length = Int(bytes[offset])
            guard length != 0 else {
                stopped = true  // the rest is the non-significant part
                return nil
            }
            guard length <= bytes.count - offset - 1 else {
                stopped = true
                overrunAt = offset
                return nil
            }
            position = offset + 1 + length
            return AdvertisingData.Structure(
                type: bytes[offset + 1], data: UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<position]),
                offset: offset)
        }
    }
}

/// What one AD structure says (Core Specification Supplement, Part A, §1). A structure too short for
/// its type, or of a type Bluetape does not interpret, is `other`: its bytes are still listed.
public enum ADStructure {
    case flags(UInt8)
    /// A 16-, 32- or 128-bit service UUID list; `complete` for the complete-list types.
    case uuids(ADUUIDList, complete: Bool)
    /// The name's UTF-8 bytes, without trailing NULs.
    case localName(UnsafeRawBufferPointer, complete: Bool)
    case txPower(Int8)
    case serviceData(BluetoothUUID, UnsafeRawBufferPointer)
    case manufacturerData(company: UInt16, UnsafeRawBufferPointer)
    case appearance(UInt16)
    case other

    @inlinable
    init(type: UInt8, data: UnsafeRawBufferPointer) {
        switch type {
        case ADType.flags where data.count >= 1:
            self = .flags(data[0])
        case ADType.incomplete16...ADType.complete128:
            let size = ADType.uuidSize(type) ?? 2
            self = data.count >= size ? .uuids(ADUUIDList(bytes: data, size: size), complete: type & 1 == 1) : .other
        case ADType.shortenedName, ADType.completeName:
            // Some devices pad the name with NULs: they are not part of it (the raw bytes keep them).
            var end = data.count
            while end > 0, data[end - 1] == 0 { end -= 1 }
            self = .localName(UnsafeRawBufferPointer(rebasing: data[0..<end]), complete: type == ADType.completeName)
        case ADType.txPower where data.count == 1:
            self = .txPower(Int8(bitPattern: data[0]))
        case ADType.appearance where data.count == 2:
            self = .appearance(UInt16(data[0]) | UInt16(data[1]) << 8)
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            let size = ADType.uuidSize(type) ?? 2
            guard data.count >= size else {
                self = .other
                return
            }
            self = .serviceData(BluetoothUUID(littleEndian: data, size: size), Self.tail(of: data, from: size))
        case ADType.manufacturerData where data.count >= 2:
            self = .manufacturerData(company: UInt16(data[0]) | UInt16(data[1]) << 8, Self.tail(of: data, from: 2))
        default:
            self = .other
        }
    }

    /// The bytes of `data` from `start` on (a slice's `dropFirst` cost as much as the rest of
    /// reading the structure).
    @inlinable
    static func tail(of data: UnsafeRawBufferPointer, from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: data.baseAddress.map { $0 + start }, count: data.count - start)
    }
}

/// The UUIDs of a service UUID list; trailing bytes too few for a whole UUID are left out.
public struct ADUUIDList: Sequence {
    public let bytes: UnsafeRawBufferPointer
    /// 2, 4 or 16.
    public let size: Int

    @inlinable
    init(bytes: UnsafeRawBufferPointer, size: Int) {
        self.bytes = bytes
        self.size = size
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(reader: ByteReader(bytes), size: size) }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var reader: ByteReader
        @usableFromInline let size: Int

        @inlinable
        init(reader: ByteReader, size: Int) {
            self.reader = reader
            self.size = size
        }

        @inlinable
        public mutating func next() -> BluetoothUUID? {
            guard reader.remaining >= size else { return nil }
            return try? BluetoothUUID(reading: &reader, size: size)
        }
    }
}

/// The Flags AD type's bits (Core Specification Supplement, Part A, §1.3).
public enum ADFlags {
    /// Bit, text name (btmon's words) and JSON word.
    public static let bits: [(bit: UInt8, name: StaticString, word: StaticString)] = [
        (0, "LE Limited Discoverable Mode", "le_limited_discoverable"),
        (1, "LE General Discoverable Mode", "le_general_discoverable"),
        (2, "BR/EDR Not Supported", "br_edr_not_supported"),
        (3, "Simultaneous LE and BR/EDR (Controller)", "le_br_edr_controller"),
        (4, "Simultaneous LE and BR/EDR (Host)", "le_br_edr_host"),
    ]
}
