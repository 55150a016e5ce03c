/// A gzip file (RFC 1952) inflated as it is read: any capture starting `1f 8b`. Several gzip members
/// one after the other (`cat a.gz b.gz`) are one stream, as `gzip -dc` reads them.
final class GzipStream: ByteStream {
    static let magic: [UInt8] = [0x1F, 0x8B]
    static let blockSize = 1 << 16

    private let source: any ByteStream
    private let name: String
    private let inflater: Inflater
    private let budget: DecompressionBudget
    private let input: UnsafeMutableRawPointer
    private var inputStart = 0
    private var inputEnd = 0
    private var sourceEnded = false
    /// Between members: the last one ended and the next has not started.
    private var betweenMembers = false
    private var finished = false
    private var outputPending = false
    private var pendingFailure: StreamError?
    private var compressedRead: Int64 = 0
    /// Set once: bytes after the last member that are not another member.
    private(set) var trailingBytes = false

    init(source: any ByteStream, name: String, budget: DecompressionBudget) throws(StreamError) {
        self.source = source
        self.name = name
        self.budget = budget
        inflater = try Inflater(.gzip)
        input = .allocate(byteCount: Self.blockSize, alignment: 16)
    }

    deinit { input.deallocate() }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(StreamError) -> Int {
        guard count > 0 else { return 0 }
        if let pendingFailure { throw pendingFailure }
        while !finished {
            if betweenMembers {
                guard try startsAnotherMember() else {
                    finished = true
                    break
                }
                inflater.reset()
                betweenMembers = false
            }
            // zlib may still hold output from the last call, which filled the caller's buffer.
            if inputStart == inputEnd, !sourceEnded, !outputPending { try refill() }
            let step: Inflater.Step
            do {
                step = try inflater.inflate(
                    UnsafeRawBufferPointer(start: input + inputStart, count: inputEnd - inputStart), into: buffer,
                    capacity: count)
            } catch {
                throw StreamError(error.kind, "\(name): \(error.message) near compressed byte \(position)")
            }
            inputStart += step.consumed
            if let failure = step.failure {
                // The good bytes before the damage go out first; the damage comes with the next read.
                pendingFailure = StreamError(failure.kind, "\(name): \(failure.message) near compressed byte \(position)")
            }
            outputPending = step.produced == count
            if step.ended { betweenMembers = true }
            if step.produced > 0 {
                let kept = try budget.charge(step.produced, in: name)
                if kept < step.produced { pendingFailure = budget.exceeded(in: name) }
                return kept
            }
            if step.ended { continue }
            if inputStart == inputEnd {
                if sourceEnded {
                    throw StreamError(
                        .truncated, "\(name): the gzip data ends early, after \(compressedRead) compressed bytes (the file is cut short)")
                }
                try refill()
            } else if step.consumed == 0 {
                throw StreamError(.damaged, "\(name): the gzip data makes no progress near compressed byte \(position)")
            }
        }
        return 0
    }

    /// Offset in the compressed file of the next byte zlib reads.
    private var position: Int64 { compressedRead - Int64(inputEnd - inputStart) }

    private func refill() throws(StreamError) {
        if inputStart > 0 {
            let live = inputEnd - inputStart
            if live > 0 { input.copyMemory(from: input + inputStart, byteCount: live) }
            inputStart = 0
            inputEnd = live
        }
        let got = try source.read(into: input + inputEnd, count: Self.blockSize - inputEnd)
        if got == 0 { sourceEnded = true }
        inputEnd += got
        compressedRead += Int64(got)
    }

    /// After a member: another follows when the next bytes are a gzip magic. Anything else (often
    /// zero padding from a tape or a block device) ends the stream, and is noted.
    private func startsAnotherMember() throws(StreamError) -> Bool {
        while inputEnd - inputStart < 2, !sourceEnded { try refill() }
        let left = inputEnd - inputStart
        if left == 0 { return false }
        if left >= 2, input.load(fromByteOffset: inputStart, as: UInt8.self) == Self.magic[0],
            input.load(fromByteOffset: inputStart + 1, as: UInt8.self) == Self.magic[1]
        {
            return true
        }
        trailingBytes = true
        return false
    }
}
