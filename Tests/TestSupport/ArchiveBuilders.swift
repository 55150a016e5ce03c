import CZlib

/// Compression through zlib itself (the library the readers inflate with), to build test inputs.
public enum Deflate {
    public enum Framing: Int32 {
        case raw = -15
        case zlib = 15
        case gzip = 31
    }

    public static func compress(_ bytes: [UInt8], _ framing: Framing, level: Int32 = 6) -> [UInt8] {
        // zlib keeps a pointer back to its stream structure: it must not move.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        precondition(
            deflateInit2_(stream, level, Z_DEFLATED, framing.rawValue, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer {
            deflateEnd(stream)
            stream.deallocate()
        }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))) + 64)
        let produced = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = uInt(out.count)
                precondition(deflate(stream, Z_FINISH) == Z_STREAM_END)
                return out.count - Int(stream.pointee.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }

    public static func gzip(_ bytes: [UInt8]) -> [UInt8] { compress(bytes, .gzip) }

    /// `prefix` and then `zeros` zero bytes, gzip'd a megabyte at a time: a compression bomb made
    /// without ever holding what it expands to.
    public static func gzipBomb(prefix: [UInt8], zeros: Int) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        precondition(
            deflateInit2_(stream, 9, Z_DEFLATED, Framing.gzip.rawValue, 9, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer {
            deflateEnd(stream)
            stream.deallocate()
        }
        var result: [UInt8] = []
        var out = [UInt8](repeating: 0, count: 1 << 16)
        func run(_ input: [UInt8], _ flush: Int32) {
            input.withUnsafeBufferPointer { source in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                repeat {
                    let produced = out.withUnsafeMutableBufferPointer { target in
                        stream.pointee.next_out = target.baseAddress
                        stream.pointee.avail_out = uInt(target.count)
                        _ = deflate(stream, flush)
                        return target.count - Int(stream.pointee.avail_out)
                    }
                    result += out.prefix(produced)
                } while stream.pointee.avail_out == 0
            }
        }
        run(prefix, Z_NO_FLUSH)
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        var left = zeros
        while left > 0 {
            let n = min(left, chunk.count)
            run(n == chunk.count ? chunk : Array(chunk.prefix(n)), Z_NO_FLUSH)
            left -= n
        }
        run([], Z_FINISH)
        return result
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}

func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }

/// Zip archives written byte by byte (APPNOTE 6.3.10): stored or deflated members, zip64 fields,
/// and the wrong values a damaged or hostile archive has.
public struct ZipBuilder {
    public struct Member {
        public var name: String
        public var data: [UInt8]
        public var deflated: Bool
        public var zip64: Bool
        /// The CRC written, when it should be wrong.
        public var crc: UInt32?
        /// The uncompressed size written, when it should be a lie.
        public var declaredSize: UInt64?
        public var flags: UInt16
        public var method: UInt16?

        public init(
            _ name: String, _ data: [UInt8], deflated: Bool = true, zip64: Bool = false, crc: UInt32? = nil,
            declaredSize: UInt64? = nil, flags: UInt16 = 0x0800, method: UInt16? = nil
        ) {
            self.name = name
            self.data = data
            self.deflated = deflated
            self.zip64 = zip64
            self.crc = crc
            self.declaredSize = declaredSize
            self.flags = flags
            self.method = method
        }
    }

    public var members: [Member]
    /// Every central directory entry points at the first member's local header (a zip bomb whose
    /// members share one compressed body).
    public var overlapping = false

    public init(_ members: [Member], overlapping: Bool = false) {
        self.members = members
        self.overlapping = overlapping
    }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        var anyZip64 = false
        var firstOffset: UInt64 = 0
        for (index, member) in members.enumerated() {
            let body = member.deflated ? Deflate.compress(member.data, .raw) : member.data
            let method = member.method ?? (member.deflated ? 8 : 0)
            let crc = member.crc ?? Deflate.crc32(member.data)
            let size = member.declaredSize ?? UInt64(member.data.count)
            let offset = UInt64(out.count)
            if index == 0 { firstOffset = offset }
            let name = Array(member.name.utf8)
            anyZip64 = anyZip64 || member.zip64
            let small: (UInt64) -> UInt32 = { member.zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: $0) }
            let localExtra = member.zip64 ? le16(1) + le16(16) + le64(size) + le64(UInt64(body.count)) : []
            out += le32(0x0403_4B50) + le16(member.zip64 ? 45 : 20) + le16(Int(member.flags)) + le16(Int(method))
            out += le16(0) + le16(0x21) + le32(crc) + le32(small(UInt64(body.count))) + le32(small(size))
            out += le16(name.count) + le16(localExtra.count) + name + localExtra + body
            let pointed = overlapping ? firstOffset : offset
            let centralExtra =
                member.zip64 ? le16(1) + le16(24) + le64(size) + le64(UInt64(body.count)) + le64(pointed) : []
            directory += le32(0x0201_4B50) + le16(0x031E) + le16(member.zip64 ? 45 : 20) + le16(Int(member.flags))
            directory += le16(Int(method)) + le16(0) + le16(0x21) + le32(crc) + le32(small(UInt64(body.count)))
            directory += le32(small(size)) + le16(name.count) + le16(centralExtra.count) + le16(0) + le16(0) + le16(0)
            directory += le32(0o100644 << 16) + le32(small(pointed)) + name + centralExtra
        }
        let directoryOffset = UInt64(out.count)
        out += directory
        if anyZip64 {
            let record = UInt64(out.count)
            out += le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
            out += le64(UInt64(members.count)) + le64(UInt64(members.count)) + le64(UInt64(directory.count))
            out += le64(directoryOffset)
            out += le32(0x0706_4B50) + le32(0) + le64(record) + le32(1)
            out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF) + le32(0xFFFF_FFFF)
            out += le32(0xFFFF_FFFF) + le16(0)
        } else {
            out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(members.count) + le16(members.count)
            out += le32(UInt32(directory.count)) + le32(UInt32(directoryOffset)) + le16(0)
        }
        return out
    }
}

/// Tar archives written block by block (POSIX ustar, with GNU long names or pax headers for long paths).
public enum TarBuilder {
    public enum Naming: Sendable, CaseIterable {
        /// ustar, a long path split into prefix and name.
        case ustar
        /// GNU: an `L` entry holding the long name first.
        case gnu
        /// POSIX pax: an `x` entry with a `path` record first.
        case pax
    }

    public static func archive(_ files: [(name: String, data: [UInt8])], naming: Naming) -> [UInt8] {
        var out: [UInt8] = []
        for file in files {
            let name = Array(file.name.utf8)
            switch naming {
            case .ustar:
                var prefix: [UInt8] = []
                var short = name
                if name.count > 100, let slash = name.prefix(155).lastIndex(of: UInt8(ascii: "/")) {
                    prefix = Array(name[..<slash])
                    short = Array(name[(slash + 1)...])
                }
                out += header(name: short, prefix: prefix, size: file.data.count, type: "0", gnu: false)
            case .gnu:
                if name.count > 100 {
                    out += header(name: Array("././@LongLink".utf8), size: name.count + 1, type: "L", gnu: true)
                    out += padded(name + [0])
                }
                out += header(name: Array(name.prefix(100)), size: file.data.count, type: "0", gnu: true)
            case .pax:
                let record = paxRecord("path", file.name)
                out += header(name: Array("PaxHeaders/x".utf8), size: record.count, type: "x", gnu: false)
                out += padded(record)
                out += header(name: Array(name.prefix(100)), size: file.data.count, type: "0", gnu: false)
            }
            out += padded(file.data)
        }
        return out + [UInt8](repeating: 0, count: 1024)
    }

    static func paxRecord(_ key: String, _ value: String) -> [UInt8] {
        let body = " \(key)=\(value)\n"
        var length = body.utf8.count + 1
        while String(length).count + body.utf8.count != length { length += 1 }
        return Array("\(length)\(body)".utf8)
    }

    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (512 - bytes.count % 512) % 512)
    }

    static func octal(_ value: Int, width: Int) -> [UInt8] {
        let digits = Array(String(value, radix: 8).utf8)
        return [UInt8](repeating: UInt8(ascii: "0"), count: max(0, width - 1 - digits.count)) + digits + [0]
    }

    public static func header(name: [UInt8], prefix: [UInt8] = [], size: Int, type: Character, gnu: Bool) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        block.replaceSubrange(0..<min(name.count, 100), with: name.prefix(100))
        block.replaceSubrange(100..<108, with: octal(0o644, width: 8))
        block.replaceSubrange(108..<116, with: octal(0, width: 8))
        block.replaceSubrange(116..<124, with: octal(0, width: 8))
        block.replaceSubrange(124..<136, with: octal(size, width: 12))
        block.replaceSubrange(136..<148, with: octal(1_690_000_000, width: 12))
        block[156] = type.asciiValue!
        let magic: [UInt8] = gnu ? Array("ustar  \0".utf8) : Array("ustar\u{0}00".utf8)
        block.replaceSubrange(257..<265, with: magic)
        block.replaceSubrange(345..<(345 + prefix.count), with: prefix)
        block.replaceSubrange(148..<156, with: [UInt8](repeating: 0x20, count: 8))
        let sum = block.reduce(0) { $0 + Int($1) }
        block.replaceSubrange(148..<156, with: octal(sum, width: 7) + [0x20])
        return block
    }
}

/// Android's btsnooz bytes (`../shared/specs/android-logs.md`, section 3): records, the preamble,
/// and the bug report section that carries them as base64.
public enum SnoozBuilder {
    public struct Record: Sendable {
        public var type: UInt8
        public var kept: [UInt8]
        /// The packet's length before the writer cut it (nil: whole).
        public var original: Int?
        public var delta: UInt32

        public init(type: UInt8, _ kept: [UInt8], original: Int? = nil, delta: UInt32) {
            self.type = type
            self.kept = kept
            self.original = original
            self.delta = delta
        }
    }

    /// `lengthBias`: 1 writes `packet_length = length + 1` for whole records, as the btsnoop-header
    /// files seen in the wild do.
    public static func records(_ records: [Record], version: Int, lengthBias: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        for record in records {
            let length = record.kept.count + 1
            out += le16(length)
            if version == 2 { out += le16((record.original ?? record.kept.count) + 1 + lengthBias) }
            out += le32(record.delta) + [record.type] + record.kept
        }
        return out
    }

    /// Version, last timestamp (little-endian, or big-endian as one document shows), zlib records.
    public static func ring(version: UInt8, lastTimestamp: UInt64, records: [UInt8], bigEndian: Bool = false) -> [UInt8] {
        let stamp = le64(lastTimestamp)
        return [version] + (bigEndian ? stamp.reversed() : stamp) + Deflate.compress(records, .zlib)
    }

    /// A bug report's (or `dumpsys`') text with the ring as its BTSNOOP_LOG_SUMMARY section.
    public static func text(ring: [UInt8], declared: Int, word: String = "in", before: String = "", after: String = "") -> [UInt8] {
        Array(
            (before + "--- BEGIN:BTSNOOP_LOG_SUMMARY (\(declared) bytes \(word)) ---\n" + base64(ring)
                + "--- END:BTSNOOP_LOG_SUMMARY ---\n" + after).utf8)
    }

    /// RFC 4648 base64 in lines of 128 characters, as Android writes it.
    public static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        var line = 0
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            var value: UInt32 = 0
            for (i, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(i)) }
            for i in 0..<4 {
                text.append(i <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(i)) & 0x3F)] : "=")
            }
            index += 3
            line += 4
            if line == 128 {
                text += "\n"
                line = 0
            }
        }
        return line == 0 ? text : text + "\n"
    }
}
