import ByteReading
import CaptureModel

/// One member of a zip archive, from its central directory entry. `name` is only ever compared
/// with other names: nothing is written to disk.
struct ZipEntry: Sendable {
    var name: String
    var flags: UInt16
    var method: UInt16
    var crc: UInt32
    var compressedSize: Int64
    var size: Int64
    var localHeaderOffset: Int64

    var isDirectory: Bool { name.hasSuffix("/") }
}

/// A zip archive read from its central directory, without unpacking anything to disk: members are
/// streamed (stored, or deflate through zlib) with their sizes and CRC checked. Zip64 sizes and
/// offsets are read; archives over several disks are not.
final class ZipArchive {
    static let localMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    static let emptyMagic: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
    /// Deflate cannot expand more than 1032:1; a member declaring more is lying.
    static let deflateRatio: Int64 = 1032
    /// The central directory is read whole; a real one is a few hundred kilobytes.
    static let maximumDirectoryBytes: Int64 = 32 << 20

    let name: String
    let bytes: any RandomAccessBytes
    let entries: [ZipEntry]

    /// Whether `head` (a file's first bytes) starts a zip archive.
    static func recognise(_ head: [UInt8]) -> Bool {
        head.count >= 4 && (Array(head.prefix(4)) == localMagic || Array(head.prefix(4)) == emptyMagic)
    }

    init(_ bytes: any RandomAccessBytes, name: String, limits: ArchiveLimits) throws(CaptureError) {
        self.name = name
        self.bytes = bytes
        do {
            entries = try Self.readDirectory(bytes, limits: limits)
        } catch {
            throw error.kind == .limit
                ? .limit(path: name, reason: error.message) : .archive(path: name, reason: "damaged zip: \(error.message)")
        }
        try checkOverlaps()
    }

    // MARK: Central directory

    private struct End {
        var entries: Int64
        var directorySize: Int64
        var directoryOffset: Int64
    }

    private static func readDirectory(_ bytes: any RandomAccessBytes, limits: ArchiveLimits) throws(StreamError) -> [ZipEntry] {
        let end = try findEnd(bytes)
        guard end.entries <= Int64(limits.members) else {
            throw StreamError(.limit, "its directory lists \(end.entries) members, more than the \(limits.members) read")
        }
        guard end.directorySize <= maximumDirectoryBytes else {
            throw StreamError(.limit, "its central directory takes \(ByteCount(end.directorySize)), more than the \(ByteCount(maximumDirectoryBytes)) read")
        }
        let directory = try bytes.bytes(
            at: end.directoryOffset, count: Int(end.directorySize), what: "the central directory")
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(min(end.entries, 65_536)))
        do {
            try withBytes(directory) { raw throws(DecodeError) in
                var reader = ByteReader(raw)
                while entries.count < end.entries {
                    entries.append(try entry(&reader))
                }
            }
        } catch {
            throw StreamError(.damaged, "central directory entry \(entries.count + 1): \(error)")
        }
        return entries
    }

    /// The end of central directory record (and its zip64 form when the fields overflow).
    private static func findEnd(_ bytes: any RandomAccessBytes) throws(StreamError) -> End {
        let tailSize = Int(min(bytes.size, 22 + 65_535))
        guard tailSize >= 22 else { throw StreamError(.damaged, "too short for a zip directory") }
        let tailStart = bytes.size - Int64(tailSize)
        let tail = try bytes.bytes(at: tailStart, count: tailSize, what: "the end of the archive")
        var index = tailSize - 22
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06 { break }
            index -= 1
        }
        guard index >= 0 else { throw StreamError(.damaged, "no end of central directory record (cut short?)") }
        func u16(_ at: Int) -> Int64 { Int64(tail[index + at]) | Int64(tail[index + at + 1]) << 8 }
        func u32(_ at: Int) -> Int64 { u16(at) | u16(at + 2) << 16 }
        if u16(4) != 0 || u16(6) != 0 { throw StreamError(.damaged, "the archive spans several disks, which is not read") }
        var end = End(entries: u16(10), directorySize: u32(12), directoryOffset: u32(16))
        let endOffset = tailStart + Int64(index)
        if end.entries == 0xFFFF || end.directorySize == 0xFFFF_FFFF || end.directoryOffset == 0xFFFF_FFFF {
            end = try zip64End(bytes, before: endOffset)
        }
        guard end.directoryOffset >= 0, end.directorySize >= 0, end.directoryOffset <= bytes.size,
            end.directorySize <= bytes.size - end.directoryOffset
        else {
            throw StreamError(.damaged, "the central directory lies outside the archive (cut short?)")
        }
        return end
    }

    private static func zip64End(_ bytes: any RandomAccessBytes, before endOffset: Int64) throws(StreamError) -> End {
        guard endOffset >= 20 else { throw StreamError(.damaged, "no zip64 end of central directory locator") }
        let locator = try bytes.bytes(at: endOffset - 20, count: 20, what: "the zip64 locator")
        do {
            return try withBytes(locator) { raw throws(DecodeError) -> End in
                var reader = ByteReader(raw)
                guard try reader.u32le("locator signature") == 0x0706_4B50 else {
                    throw DecodeError(.badValue("no zip64 locator before the end record"), at: 0, field: "zip64")
                }
                _ = try reader.u32le("disk")
                let recordOffset = Int64(bitPattern: try reader.u64le("zip64 end offset"))
                guard recordOffset >= 0, recordOffset <= bytes.size - 56 else {
                    throw DecodeError(.badValue("the zip64 end record lies outside the archive"), at: 8, field: "zip64")
                }
                let record: [UInt8]
                do throws(StreamError) {
                    record = try bytes.bytes(at: recordOffset, count: 56, what: "the zip64 end record")
                } catch {
                    throw DecodeError(.badValue(error.message), at: 8, field: "zip64")
                }
                return try withBytes(record) { raw throws(DecodeError) -> End in
                    var reader = ByteReader(raw)
                    guard try reader.u32le("signature") == 0x0606_4B50 else {
                        throw DecodeError(.badValue("no zip64 end record where its locator points"), at: 0, field: "zip64")
                    }
                    try reader.skip(12, "sizes and versions")
                    guard try reader.u32le("disk") == 0, try reader.u32le("directory disk") == 0 else {
                        throw DecodeError(.badValue("the archive spans several disks, which is not read"), at: 16, field: "zip64")
                    }
                    _ = try reader.u64le("entries on this disk")
                    let entries = Int64(bitPattern: try reader.u64le("entries"))
                    let size = Int64(bitPattern: try reader.u64le("directory size"))
                    let offset = Int64(bitPattern: try reader.u64le("directory offset"))
                    guard entries >= 0 else { throw DecodeError(.badValue("negative entry count"), at: 32, field: "zip64") }
                    return End(entries: entries, directorySize: size, directoryOffset: offset)
                }
            }
        } catch {
            throw StreamError(.damaged, "\(error)")
        }
    }

    private static func entry(_ reader: inout ByteReader) throws(DecodeError) -> ZipEntry {
        guard try reader.u32le("signature") == 0x0201_4B50 else {
            throw DecodeError(.badValue("not a central directory entry"), at: reader.offset - 4, field: "signature")
        }
        try reader.skip(4, "versions")
        let flags = try reader.u16le("flags")
        let method = try reader.u16le("method")
        try reader.skip(4, "time and date")
        let crc = try reader.u32le("crc")
        var compressed = Int64(try reader.u32le("compressed size"))
        var size = Int64(try reader.u32le("size"))
        let nameLength = Int(try reader.u16le("name length"))
        let extraLength = Int(try reader.u16le("extra length"))
        let commentLength = Int(try reader.u16le("comment length"))
        let disk = try reader.u16le("disk")
        try reader.skip(6, "attributes")
        var offset = Int64(try reader.u32le("local header offset"))
        let nameBytes = try reader.bytes(nameLength, "name")
        var extra = try reader.sub(extraLength, "extra field")
        try reader.skip(commentLength, "comment")
        // Zip64: the fields that overflowed, in this order, in extra block 0x0001.
        if size == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || offset == 0xFFFF_FFFF || disk == 0xFFFF {
            while extra.remaining >= 4 {
                let id = try extra.u16le("extra id")
                var block = try extra.sub(Int(try extra.u16le("extra size")), "extra block")
                guard id == 0x0001 else { continue }
                if size == 0xFFFF_FFFF { size = Int64(bitPattern: try block.u64le("zip64 size")) }
                if compressed == 0xFFFF_FFFF { compressed = Int64(bitPattern: try block.u64le("zip64 compressed size")) }
                if offset == 0xFFFF_FFFF { offset = Int64(bitPattern: try block.u64le("zip64 offset")) }
            }
        }
        guard size >= 0, compressed >= 0, offset >= 0 else {
            throw DecodeError(.badValue("a size or offset above 2^63"), at: reader.offset, field: "zip64")
        }
        return ZipEntry(
            name: String(decoding: nameBytes, as: UTF8.self), flags: flags, method: method, crc: crc,
            compressedSize: compressed, size: size, localHeaderOffset: offset)
    }

    /// Members whose data overlap (several entries over the same compressed bytes) are how a few
    /// kilobytes of zip expand to terabytes: refused outright.
    private func checkOverlaps() throws(CaptureError) {
        let ordered = entries.filter { !$0.isDirectory || $0.compressedSize > 0 }.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (a, b) in zip(ordered, ordered.dropFirst()) {
            let extent = a.localHeaderOffset + 30 + Int64(a.name.utf8.count) + a.compressedSize
            if extent > b.localHeaderOffset {
                throw .limit(
                    path: name,
                    reason: "members \(a.name) and \(b.name) share compressed data (a zip bomb, or a damaged archive): refusing to read it")
            }
        }
    }

    // MARK: Members

    /// A stream of `entry`'s bytes, checked against its declared size and CRC.
    func stream(_ entry: ZipEntry, budget: DecompressionBudget) throws(CaptureError) -> ZipMemberStream {
        let label = "\(name): \(entry.name)"
        if entry.flags & 1 != 0 { throw .archive(path: label, reason: "the member is encrypted") }
        switch entry.method {
        case 0:
            guard entry.size == entry.compressedSize else {
                throw .archive(path: label, reason: "a stored member whose sizes differ (\(entry.compressedSize) and \(entry.size))")
            }
        case 8:
            if entry.size > entry.compressedSize * Self.deflateRatio + (1 << 20) {
                throw .limit(
                    path: label,
                    reason: "declares \(entry.size) bytes from \(entry.compressedSize) compressed, more than deflate can produce (a zip bomb, or damage): refusing it")
            }
        default:
            let known = [12: "bzip2", 14: "LZMA", 93: "Zstandard", 95: "xz", 9: "Deflate64"][Int(entry.method)]
            throw .archive(
                path: label,
                reason: "compressed with method \(entry.method)\(known.map { " (\($0))" } ?? ""), which is not read: only stored and deflate")
        }
        let data = try dataOffset(entry)
        guard data <= bytes.size, entry.compressedSize <= bytes.size - data else {
            throw .archive(path: label, reason: "the member's data lies past the end of the archive (cut short?)")
        }
        do {
            return try ZipMemberStream(
                RangeStream(bytes, offset: data, length: entry.compressedSize), entry: entry, name: label, budget: budget)
        } catch {
            throw .archive(path: label, reason: error.message)
        }
    }

    /// A stored member as random-access bytes (a zip inside the zip, read in place).
    func storedBytes(_ entry: ZipEntry) throws(CaptureError) -> (any RandomAccessBytes)? {
        guard entry.method == 0, entry.flags & 1 == 0 else { return nil }
        return SliceBytes(bytes, start: try dataOffset(entry), length: entry.compressedSize)
    }

    /// Where the member's data start: after its local header, whose own name and extra lengths count.
    private func dataOffset(_ entry: ZipEntry) throws(CaptureError) -> Int64 {
        do throws(StreamError) {
            let header = try bytes.bytes(at: entry.localHeaderOffset, count: 30, what: "the local header of \(entry.name)")
            guard Array(header.prefix(4)) == Self.localMagic else {
                throw StreamError(.damaged, "no local header where the directory puts \(entry.name)")
            }
            let nameLength = Int64(header[26]) | Int64(header[27]) << 8
            let extraLength = Int64(header[28]) | Int64(header[29]) << 8
            return entry.localHeaderOffset + 30 + nameLength + extraLength
        } catch {
            throw .archive(path: name, reason: "damaged zip: \(error.message)")
        }
    }
}

/// A zip member's bytes: stored, or inflated from raw deflate, never more than the member declares,
/// with its CRC checked at the end.
final class ZipMemberStream: ByteStream {
    private let source: RangeStream
    private let entry: ZipEntry
    private let name: String
    private let budget: DecompressionBudget
    private let inflater: Inflater?
    private let input: UnsafeMutableRawPointer
    private var inputStart = 0
    private var inputEnd = 0
    private var produced: Int64 = 0
    private var crc = CRC32()
    private var ended = false
    private var streamEnded = false
    private var pendingFailure: StreamError?

    init(_ source: RangeStream, entry: ZipEntry, name: String, budget: DecompressionBudget) throws(StreamError) {
        self.source = source
        self.entry = entry
        self.name = name
        self.budget = budget
        inflater = entry.method == 8 ? try Inflater(.raw) : nil
        input = .allocate(byteCount: GzipStream.blockSize, alignment: 16)
    }

    deinit { input.deallocate() }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard !ended, count > 0 else { return 0 }
        if let pendingFailure { throw pendingFailure }
        // Room for one byte more than declared, so that a member that expands further is caught.
        let room = Int(min(Int64(count), entry.size - produced + 1))
        var got = 0
        if let inflater {
            while got == 0, !streamEnded {
                if inputStart == inputEnd {
                    inputStart = 0
                    inputEnd = try source.read(into: input, count: GzipStream.blockSize)
                }
                let step: Inflater.Step
                do {
                    step = try inflater.inflate(
                        UnsafeRawBufferPointer(start: input + inputStart, count: inputEnd - inputStart), into: buffer,
                        capacity: room)
                } catch {
                    throw StreamError(error.kind, "\(name): \(error.message)")
                }
                inputStart += step.consumed
                got = step.produced
                if let failure = step.failure { pendingFailure = StreamError(failure.kind, "\(name): \(failure.message)") }
                if step.ended { streamEnded = true }
                if got == 0, !streamEnded, step.consumed == 0, inputStart == inputEnd {
                    throw StreamError(.truncated, "\(name): the member's compressed data end early")
                }
            }
        } else {
            got = try source.read(into: buffer, count: room)
        }
        if got == 0 {
            try finish()
            return 0
        }
        if produced + Int64(got) > entry.size {
            // The declared bytes in this read go out first; the failure comes with the next.
            let failure = StreamError(.damaged, "\(name): the member expands past the \(entry.size) bytes it declares")
            got = Int(entry.size - produced)
            guard got > 0 else { throw failure }
            pendingFailure = failure
        }
        let kept = try budget.charge(got, in: name)
        if kept < got { pendingFailure = budget.exceeded(in: name) }
        produced += Int64(kept)
        crc.update(buffer, count: kept)
        return kept
    }

    /// At the member's end: every declared byte came, and the CRC matches.
    private func finish() throws(StreamError) {
        ended = true
        if produced != entry.size {
            throw StreamError(.truncated, "\(name): the member ends after \(produced) of its \(entry.size) bytes")
        }
        if crc.value != entry.crc {
            throw StreamError(.damaged, "\(name): the member's CRC is wrong (damaged data)")
        }
    }
}
