/// A forward-only, bounds-checked cursor over borrowed bytes.
///
/// It never copies and never reads outside its bytes: every read checks first and throws a
/// located `DecodeError`. The bytes are borrowed, so a reader must not outlive the buffer it
/// reads (create it inside `withUnsafeBytes`, or over a capture record while that is current).
public struct ByteReader {
    @usableFromInline let base: UnsafeRawPointer?
    @usableFromInline let count: Int
    @usableFromInline var position: Int
    /// The offset reported for the first byte, so sub-readers report offsets in their parent.
    public let origin: Int

    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, origin: Int = 0) {
        self.base = bytes.baseAddress
        self.count = bytes.count
        self.position = 0
        self.origin = origin
    }

    /// Offset of the next byte to read, counted from the start of the outermost bytes.
    @inlinable public var offset: Int { origin + position }
    @inlinable public var remaining: Int { count - position }
    @inlinable public var isAtEnd: Bool { position >= count }

    @inlinable
    func truncated(_ needed: Int, _ field: () -> String) -> DecodeError {
        DecodeError(.truncated(needed: needed, available: remaining), at: offset, field: field())
    }

    @inlinable
    public func require(_ n: Int, _ field: @autoclosure () -> String = "") throws(DecodeError) {
        guard n >= 0, n <= count - position else { throw truncated(n, field) }
    }

    @inlinable
    func byte(at index: Int) -> UInt8 {
        base.unsafelyUnwrapped.load(fromByteOffset: index, as: UInt8.self)
    }

    // MARK: Integers

    @inlinable
    public mutating func u8(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt8 {
        guard position < count else { throw truncated(1, field) }
        defer { position += 1 }
        return byte(at: position)
    }

    @inlinable
    public mutating func i8(_ field: @autoclosure () -> String = "") throws(DecodeError) -> Int8 {
        Int8(bitPattern: try u8(field()))
    }

    /// An unsigned integer of `size` bytes (1…8) in the given byte order.
    @inlinable
    public mutating func unsigned(
        size: Int, _ endianness: Endianness, _ field: @autoclosure () -> String = ""
    ) throws(DecodeError) -> UInt64 {
        guard size >= 1, size <= 8, size <= count - position else { throw truncated(size, field) }
        var value: UInt64 = 0
        if endianness == .little {
            var i = size - 1
            while i >= 0 {
                value = value << 8 | UInt64(byte(at: position + i))
                i -= 1
            }
        } else {
            for i in 0..<size { value = value << 8 | UInt64(byte(at: position + i)) }
        }
        position += size
        return value
    }

    /// A two's-complement signed integer of `size` bytes (1…8), sign-extended.
    @inlinable
    public mutating func signed(
        size: Int, _ endianness: Endianness, _ field: @autoclosure () -> String = ""
    ) throws(DecodeError) -> Int64 {
        let raw = try unsigned(size: size, endianness, field())
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    @inlinable
    public mutating func u16le(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt16 {
        guard count - position >= 2 else { throw truncated(2, field) }
        defer { position += 2 }
        return UInt16(byte(at: position)) | UInt16(byte(at: position + 1)) << 8
    }

    @inlinable
    public mutating func u16be(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt16 {
        guard count - position >= 2 else { throw truncated(2, field) }
        defer { position += 2 }
        return UInt16(byte(at: position)) << 8 | UInt16(byte(at: position + 1))
    }

    @inlinable
    public mutating func i16le(_ field: @autoclosure () -> String = "") throws(DecodeError) -> Int16 {
        Int16(bitPattern: try u16le(field()))
    }

    @inlinable
    public mutating func u24le(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt32 {
        UInt32(try unsigned(size: 3, .little, field()))
    }

    @inlinable
    public mutating func u32le(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt32 {
        guard count - position >= 4 else { throw truncated(4, field) }
        defer { position += 4 }
        return base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
    }

    @inlinable
    public mutating func u32be(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt32 {
        guard count - position >= 4 else { throw truncated(4, field) }
        defer { position += 4 }
        return UInt32(bigEndian: base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    @inlinable
    public mutating func i32le(_ field: @autoclosure () -> String = "") throws(DecodeError) -> Int32 {
        Int32(bitPattern: try u32le(field()))
    }

    @inlinable
    public mutating func u64le(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt64 {
        try unsigned(size: 8, .little, field())
    }

    @inlinable
    public mutating func u64be(_ field: @autoclosure () -> String = "") throws(DecodeError) -> UInt64 {
        try unsigned(size: 8, .big, field())
    }

    // MARK: Byte runs

    /// The next `n` bytes, borrowed from the same buffer.
    @inlinable
    public mutating func bytes(_ n: Int, _ field: @autoclosure () -> String = "") throws(DecodeError)
        -> UnsafeRawBufferPointer
    {
        guard n >= 0, n <= count - position else { throw truncated(n, field) }
        defer { position += n }
        return UnsafeRawBufferPointer(start: base.map { $0 + position }, count: n)
    }

    /// The next `n` bytes, copied into an array the caller owns.
    @inlinable
    public mutating func array(_ n: Int, _ field: @autoclosure () -> String = "") throws(DecodeError) -> [UInt8] {
        [UInt8](try bytes(n, field()))
    }

    /// A reader over the next `n` bytes that reports offsets in this reader's terms.
    @inlinable
    public mutating func sub(_ n: Int, _ field: @autoclosure () -> String = "") throws(DecodeError) -> ByteReader {
        let start = offset
        return ByteReader(try bytes(n, field()), origin: start)
    }

    /// Everything not read yet; leaves the reader at its end.
    @inlinable
    public mutating func rest() -> UnsafeRawBufferPointer {
        defer { position = count }
        return UnsafeRawBufferPointer(start: base.map { $0 + position }, count: count - position)
    }

    /// Everything not read yet, without moving.
    @inlinable
    public var unread: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base.map { $0 + position }, count: count - position)
    }

    @inlinable
    public mutating func skip(_ n: Int, _ field: @autoclosure () -> String = "") throws(DecodeError) {
        guard n >= 0, n <= count - position else { throw truncated(n, field) }
        position += n
    }

    @inlinable
    public func peekU8() -> UInt8? {
        position < count ? byte(at: position) : nil
    }

    /// Throws when bytes are left over after a structure of fixed size.
    @inlinable
    public func expectEnd(_ field: @autoclosure () -> String = "") throws(DecodeError) {
        guard position >= count else {
            throw DecodeError(.trailingBytes(count: count - position), at: offset, field: field())
        }
    }
}

extension ByteReader {
    /// Runs `body` with a reader over `bytes`.
    @inlinable
    public static func reading<Bytes: Collection<UInt8>, Result>(
        _ bytes: Bytes, _ body: (inout ByteReader) throws(DecodeError) -> Result
    ) throws(DecodeError) -> Result {
        let outcome: Swift.Result<Result, DecodeError>? = bytes.withContiguousStorageIfAvailable { buffer in
            var reader = ByteReader(UnsafeRawBufferPointer(buffer))
            do throws(DecodeError) { return .success(try body(&reader)) } catch { return .failure(error) }
        }
        if let outcome { return try outcome.get() }
        let copy = Array(bytes)
        return try reading(copy, body)
    }
}
