import CaptureModel

/// One file in a tar archive. `name` is only compared with other names: nothing is written to disk.
struct TarEntry: Sendable {
    var name: String
    var size: Int64
    /// Offset of the entry's header in the (decompressed) archive.
    var offset: Int64
}

/// Reads a tar archive front to back, as it streams out of gzip: POSIX ustar (with its name
/// prefix), GNU long names (`L`), and pax extended headers (`x`: `path` and `size`). Only regular
/// files are handed out; directories, links and devices are passed over.
final class TarReader {
    static let blockSize = 512
    /// A GNU long name or a pax header larger than this is damage, not a name.
    static let maximumHeaderData = 1 << 20

    let name: String
    private let input: InputBuffer
    private let limits: ArchiveLimits
    /// Bytes of the current entry (data and padding) not read yet.
    private var pending: Int64 = 0
    private(set) var entriesSeen = 0
    /// Regular files among them (what a listing counts as members).
    private(set) var filesSeen = 0
    private var ended = false

    init(_ input: InputBuffer, name: String, limits: ArchiveLimits) {
        self.input = input
        self.name = name
        self.limits = limits
    }

    /// Whether `head` (the first 512 bytes) is a tar header: ustar or GNU magic and a right checksum.
    static func recognise(_ head: [UInt8]) -> Bool {
        guard head.count >= blockSize else { return false }
        let magic = Array(head[257..<262])
        return magic == Array("ustar".utf8) && checksumMatches(head)
    }

    static func checksumMatches(_ header: [UInt8]) -> Bool {
        guard let stored = octal(header[148..<156]) else { return false }
        var sum: Int64 = 0
        for (index, byte) in header.prefix(blockSize).enumerated() {
            sum += (148..<156).contains(index) ? 0x20 : Int64(byte)
        }
        return stored == sum
    }

    /// An octal field (NUL or space terminated), or GNU's base-256 form (top bit set).
    static func octal(_ field: ArraySlice<UInt8>) -> Int64? {
        if let first = field.first, first & 0x80 != 0 {
            var value: Int64 = Int64(first & 0x7F)
            for byte in field.dropFirst() {
                guard value < 1 << 54 else { return nil }
                value = value << 8 | Int64(byte)
            }
            return value
        }
        var value: Int64 = 0
        var digits = 0
        for byte in field {
            if byte == 0 || byte == 0x20 {
                if digits > 0 { break }
                continue
            }
            guard byte >= 0x30, byte <= 0x37, value < 1 << 60 else { return nil }
            value = value << 3 | Int64(byte - 0x30)
            digits += 1
        }
        return value
    }

    /// The next regular file, positioned at its data; nil at the end of the archive.
    func nextEntry() throws(CaptureError) -> TarEntry? {
        var longName: String?
        var paxName: String?
        var paxSize: Int64?
        while !ended {
            try skip(pending)
            pending = 0
            let offset = input.offset
            guard input.fill(Self.blockSize) else {
                if let failure = input.failure { throw .archive(path: name, reason: failure.message) }
                if input.available == 0 {
                    // No end-of-archive blocks: accepted, as GNU tar accepts it.
                    ended = true
                    return nil
                }
                throw .archive(path: name, reason: "damaged tar: the archive ends inside a header at offset \(offset)")
            }
            let header = [UInt8](input.bytes(at: 0, count: Self.blockSize))
            input.consume(Self.blockSize)
            if header.allSatisfy({ $0 == 0 }) {
                ended = true
                return nil
            }
            guard Self.checksumMatches(header) else {
                throw .archive(path: name, reason: "damaged tar: the header at offset \(offset) fails its checksum")
            }
            entriesSeen += 1
            if entriesSeen > limits.members {
                throw .limit(path: name, reason: "more than \(limits.members) members in the archive, the limit")
            }
            guard let headerSize = Self.octal(header[124..<136]) else {
                throw .archive(path: name, reason: "damaged tar: the header at offset \(offset) has no readable size")
            }
            let type = header[156]
            // A pax size applies to the file after the pax header, never to another header.
            let isMetadata = [UInt8(ascii: "L"), UInt8(ascii: "K"), UInt8(ascii: "x"), UInt8(ascii: "g")].contains(type)
            let size = isMetadata ? headerSize : paxSize ?? headerSize
            pending = size + (Int64(Self.blockSize) - size % Int64(Self.blockSize)) % Int64(Self.blockSize)
            switch type {
            case UInt8(ascii: "L"):
                longName = try smallData(size, what: "a GNU long name", at: offset).map(Self.text)
                continue
            case UInt8(ascii: "x"):
                if let data = try smallData(size, what: "a pax header", at: offset) {
                    let fields = Self.paxFields(data)
                    paxName = fields["path"]
                    paxSize = fields["size"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
                }
                continue
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                filesSeen += 1
                let entryName = paxName ?? longName ?? Self.headerName(header)
                return TarEntry(name: entryName, size: size, offset: offset)
            default:
                // Directories, links, devices, global pax headers, GNU long link names: passed over.
                longName = nil
                paxName = nil
                paxSize = nil
            }
        }
        return nil
    }

    /// The current entry's data as a stream (at most its size); the rest is skipped by `nextEntry`.
    func data(of entry: TarEntry) -> TarMemberStream {
        let stream = TarMemberStream(input, size: entry.size) { [unowned self] read in self.pending -= read }
        return stream
    }

    static func headerName(_ header: [UInt8]) -> String {
        let name = text(Array(header[0..<100]))
        // POSIX ustar ("ustar\0" + "00") splits long names into a prefix; GNU uses those bytes otherwise.
        if Array(header[257..<263]) == Array("ustar\0".utf8) {
            let prefix = text(Array(header[345..<500]))
            if !prefix.isEmpty { return prefix + "/" + name }
        }
        return name
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// "LEN key=value\n" records; LEN counts the whole record.
    static func paxFields(_ data: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        var index = 0
        while index < data.count {
            var length = 0
            var cursor = index
            while cursor < data.count, data[cursor] >= 0x30, data[cursor] <= 0x39, length < 1 << 20 {
                length = length * 10 + Int(data[cursor] - 0x30)
                cursor += 1
            }
            guard length > 0, cursor < data.count, data[cursor] == 0x20, index + length <= data.count,
                cursor + 1 < index + length
            else { break }
            let record = data[(cursor + 1)..<(index + length - 1)]
            if let equals = record.firstIndex(of: UInt8(ascii: "=")) {
                fields[String(decoding: record[..<equals], as: UTF8.self)] =
                    String(decoding: record[(equals + 1)...], as: UTF8.self)
            }
            index += length
        }
        return fields
    }

    /// The data of a name or pax header entry: read when small, skipped (nil) when absurd.
    private func smallData(_ size: Int64, what: String, at offset: Int64) throws(CaptureError) -> [UInt8]? {
        guard size <= Int64(Self.maximumHeaderData) else {
            throw .archive(path: name, reason: "damaged tar: \(what) of \(size) bytes at offset \(offset)")
        }
        var data: [UInt8] = []
        let count = Int(size)
        while data.count < count {
            guard input.fill(1) else { throw endedEarly(offset) }
            let n = min(input.available, count - data.count)
            data += input.bytes(at: 0, count: n)
            input.consume(n)
        }
        pending -= size
        return data
    }

    /// Reads past `count` bytes of data and padding.
    private func skip(_ count: Int64) throws(CaptureError) {
        var left = count
        while left > 0 {
            guard input.fill(1) else { throw endedEarly(input.offset) }
            let n = Int(min(Int64(input.available), left))
            input.consume(n)
            left -= Int64(n)
        }
    }

    private func endedEarly(_ offset: Int64) -> CaptureError {
        if let failure = input.failure { return .archive(path: name, reason: failure.message) }
        return .archive(path: name, reason: "damaged tar: the archive ends inside an entry (after offset \(offset); cut short?)")
    }
}

/// One tar entry's data, read from the archive stream up to the entry's size.
final class TarMemberStream: ByteStream {
    private let input: InputBuffer
    private var remaining: Int64
    private let consumed: (Int64) -> Void

    init(_ input: InputBuffer, size: Int64, consumed: @escaping (Int64) -> Void) {
        self.input = input
        remaining = size
        self.consumed = consumed
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard remaining > 0 else { return 0 }
        let got = try input.read(into: buffer, count: Int(min(Int64(count), remaining)))
        if got == 0 { throw StreamError(.truncated, "the tar archive ends inside a member (cut short?)") }
        remaining -= Int64(got)
        consumed(Int64(got))
        return got
    }
}
