import CZlib

/// zlib's inflate, the one decompressor every layer uses: gzip files, zip members (raw deflate)
/// and the zlib stream inside a btsnooz ring.
final class Inflater {
    enum Framing {
        /// RFC 1952 gzip members (header and CRC checked by zlib).
        case gzip
        /// RFC 1950: the zlib stream of btsnooz.
        case zlib
        /// RFC 1951 raw deflate: zip's method 8.
        case raw

        var windowBits: Int32 {
            switch self {
            case .gzip: 15 + 16
            case .zlib: 15
            case .raw: -15
            }
        }
    }

    /// zlib keeps a pointer back to its stream structure: it must not move.
    private let stream: UnsafeMutablePointer<z_stream>

    init(_ framing: Framing) throws(StreamError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, framing.windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw StreamError(.io, "zlib could not start (status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Starts a new stream of the same framing (the next member of a multi-member gzip file).
    func reset() {
        inflateReset(stream)
    }

    struct Step {
        var consumed: Int
        var produced: Int
        /// The compressed stream ended (its checksum was right).
        var ended: Bool
        /// Damage found after `produced` good bytes: the caller hands those out first.
        var failure: StreamError?
    }

    /// Inflates from `input` into `output` (at most `capacity` bytes), as far as either goes.
    /// Throws when damage stops it before any byte came out; damage after some did is in the step.
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, capacity: Int)
        throws(StreamError) -> Step
    {
        var step = try inflateOnce(input, into: output, capacity: capacity)
        if let failure = step.failure, step.produced == 0 { throw failure }
        if step.failure != nil { step.ended = false }
        return step
    }

    private func inflateOnce(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, capacity: Int)
        throws(StreamError) -> Step
    {
        // zlib counts in UInt32: hand it at most 1 GiB at a time.
        let inputCount = min(input.count, 1 << 30)
        let outputCount = min(capacity, 1 << 30)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(inputCount)
        stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(outputCount)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        var step = Step(
            consumed: inputCount - Int(stream.pointee.avail_in), produced: outputCount - Int(stream.pointee.avail_out),
            ended: status == Z_STREAM_END)
        switch status {
        case Z_OK, Z_STREAM_END:
            break
        case Z_BUF_ERROR:
            // No progress possible with what was given: the caller supplies more input or room.
            break
        case Z_NEED_DICT:
            step.failure = StreamError(.damaged, "the compressed data asks for a preset dictionary, which no capture uses")
        case Z_MEM_ERROR:
            step.failure = StreamError(.io, "zlib ran out of memory")
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
            step.failure = StreamError(.damaged, "the compressed data is damaged (\(reason))")
        }
        return step
    }
}

/// CRC-32 as zip and gzip compute it (zlib's).
struct CRC32 {
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawPointer, count: Int) {
        var offset = 0
        while offset < count {
            let n = min(count - offset, 1 << 30)
            value = UInt32(
                crc32(uLong(value), (bytes + offset).assumingMemoryBound(to: Bytef.self), uInt(n)))
            offset += n
        }
    }
}
