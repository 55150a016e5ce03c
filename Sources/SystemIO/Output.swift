#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: a file descriptor with a buffer, or memory (for in-process tests).
public final class Output: @unchecked Sendable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var captured: [UInt8] = []
    public let isTerminal: Bool
    @exclusivity(unchecked) private var ownFailure: String?
    @exclusivity(unchecked) private var ownReaderClosed = false
    @exclusivity(unchecked) private var route = Route.own

    /// Where the bytes go: this output's descriptor (or memory); a held output's file until
    /// `isReleased` says `destination` is free (`init(holdingIn:for:until:)`); then that output.
    private enum Route {
        case own
        case held(until: @Sendable () -> Bool, then: Output)
        case passed(to: Output)
    }

    /// The output a held one passed through to.
    private var passedTo: Output? {
        if case .passed(let destination) = route { destination } else { nil }
    }

    /// Set when a write failed (a closed pipe, a full disk); later writes are dropped.
    public var failure: String? {
        guard let destination = passedTo else { return ownFailure }
        return destination.failure
    }
    /// The reader went away (`bluetape events … | head`): not an error worth reporting.
    public var readerClosed: Bool {
        guard let destination = passedTo else { return ownReaderClosed }
        return destination.readerClosed
    }

    public static let standardOutput = Output(fd: 1)
    public static let standardError = Output(fd: 2)

    public init(fd: Int32, ownsDescriptor: Bool = false) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        isTerminal = isatty(fd) == 1
        pending.reserveCapacity(1 << 16)
    }

    /// An output for work that may not write to `destination` yet (a capture whose predecessors'
    /// output is not all out): its bytes wait in the file `fd` until `isReleased()` (asked when
    /// a buffer's worth is ready) says `destination` is free, then that file is copied there and
    /// every later write goes straight to `destination`. Less waits on disk than if the file were
    /// copied out only at the end. `passedThrough` says whether that happened.
    public init(holdingIn fd: Int32, for destination: Output, until isReleased: @escaping @Sendable () -> Bool) {
        self.fd = fd
        ownsDescriptor = false
        isTerminal = false
        route = .held(until: isReleased, then: destination)
        pending.reserveCapacity(1 << 16)
    }

    /// A held output released to its destination: what its file holds was already copied there.
    public var passedThrough: Bool { passedTo != nil }

    /// An output that keeps what is written; read it back with `text`.
    public init() {
        fd = -1
        ownsDescriptor = false
        isTerminal = false
    }

    deinit {
        flush()
        if ownsDescriptor { close(fd) }
    }

    public func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    public func write(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 16 { flush() }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        if fd >= 0, pending.isEmpty, bytes.count >= 1 << 16 {
            emit(bytes)
            return
        }
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 16 { flush() }
    }

    public func line(_ text: String) { write(text + "\n") }

    public func flush() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        if fd < 0 {
            captured.append(contentsOf: pending)
            return
        }
        pending.withUnsafeBytes { emit($0) }
    }

    /// Writes to the descriptor or, once a held output is released, to its destination. One
    /// whose file failed (a full disk) stays failed: passing through would leave a hole.
    private func emit(_ raw: UnsafeRawBufferPointer) {
        if ownFailure == nil, case .held(let isReleased, let destination) = route, isReleased() {
            destination.appendContents(ofFile: fd)
            route = .passed(to: destination)
        }
        if let destination = passedTo {
            destination.write(raw)
        } else {
            writeOut(raw)
        }
    }

    /// Appends everything the file `source` holds from its start (a spooled output), after what
    /// is pending here. Between descriptors the kernel moves the bytes (`sendfile`); otherwise
    /// they are read and written.
    public func appendContents(ofFile source: Int32) {
        flush()
        if let destination = passedTo { return destination.appendContents(ofFile: source) }
        guard lseek(source, 0, SEEK_SET) == 0 else { return }
        #if os(Linux)
        if fd >= 0 {
            while ownFailure == nil {
                let sent = sendfile(fd, source, nil, 1 << 30)
                if sent > 0 { continue }
                if sent == 0 { return }
                if errno == EINTR || errno == EAGAIN { continue }
                // A descriptor sendfile does not take: fall back to reading, from where it stopped.
                if errno == EINVAL || errno == ENOSYS { break }
                ownReaderClosed = errno == EPIPE
                ownFailure = SystemIO.reason(errno)
                return
            }
        }
        #endif
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while ownFailure == nil {
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? SystemIO.read(source, into: raw.baseAddress!, count: raw.count)) ?? 0
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
        flush()
    }

    /// Writes straight to the descriptor; the first failure stops all later writes.
    private func writeOut(_ raw: UnsafeRawBufferPointer) {
        guard ownFailure == nil else { return }
        do {
            try SystemIO.writeAll(fd, raw)
        } catch {
            ownReaderClosed = error.code == EPIPE
            ownFailure = error.reason
        }
    }

    /// Everything written, for outputs created with `init()`.
    public var text: String {
        flush()
        return String(decoding: captured, as: UTF8.self)
    }
}
