import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens what a `CaptureRequest` names, layer by layer: a path or standard input, gzip around
/// anything, a zip or tar archive or a directory holding Bluetooth logs, and at the core one of the
/// record readers. Every layer is found from the bytes, never from a name.
final class OpenSession {
    let request: CaptureRequest
    let formats: [any ExternalCaptureFormat]
    let contents = ContentsBox()
    let budget: DecompressionBudget

    /// How deep the layers go: gzip at most twice (a .tar.gz of .gz files), a zip inside a zip once.
    struct Depth {
        var gzip = 0
        var zip = 0
        /// Inside an archive: a text without a summary section is then "no Bluetooth log".
        var inArchive = false
    }

    /// Gets a stream again from its start: a tar archive joined member by member is read once per
    /// member. Nil for standard input, which is read once.
    typealias Reopen = () throws(CaptureError) -> InputBuffer

    init(request: CaptureRequest, formats: [any ExternalCaptureFormat]) {
        self.request = request
        self.formats = formats
        budget = DecompressionBudget(limit: request.limits.decompressedBytes)
    }

    /// A session for one part of a joined session: the same limits and budget, its own contents.
    init(partOf parent: OpenSession) {
        var request = parent.request
        request.member = nil
        request.join = false
        request.listsWholeArchive = false
        self.request = request
        formats = parent.formats
        budget = parent.budget
    }

    var displayPath: String { request.paths.map(CaptureRequest.displayName).joined(separator: " + ") }

    func open() throws(CaptureError) -> Opened {
        if request.paths.count > 1 {
            guard request.join else { throw .refused("give one capture file, or several with --join to read them as one session") }
            if request.member != nil { throw .refused("--member picks a member of one archive: give one file with it") }
            let parts = request.paths.map { path in
                JoinPart(name: CaptureRequest.displayName(path)) { session throws(CaptureError) in try session.openPath(path) }
            }
            return try join(parts, order: .asGiven)
        }
        guard let path = request.paths.first else { throw .refused("no capture file given") }
        return try openPath(path)
    }

    /// A capture held in memory: the same layers, with a zip read in place and pcap through
    /// `ExternalCaptureFormat.open(bytes:)`.
    func open(bytes: [UInt8], name: String) throws(CaptureError) -> Opened {
        if bytes.isEmpty { throw .empty(path: name) }
        if ZipArchive.recognise(Array(bytes.prefix(4))) {
            return try openZip(ZipArchive(MemoryBytes(bytes), name: name, limits: request.limits), depth: Depth())
        }
        return try openStream(InputBuffer(bytes: bytes), name: name, reopen: { InputBuffer(bytes: bytes) }, depth: Depth(), memory: bytes)
    }

    // MARK: Paths

    func openPath(_ path: String) throws(CaptureError) -> Opened {
        if path == "-" { return try openStandardInput() }
        let fd: Int32
        let size: Int64
        do {
            (fd, size) = try openCaptureFile(path)
        } catch {
            if case .notARegularFile(_, "a directory") = error { return try openDirectory(path, refusal: error) }
            throw error
        }
        var head = [UInt8](repeating: 0, count: TarReader.blockSize)
        let got = pread(fd, &head, head.count, 0)
        head = Array(head.prefix(max(got, 0)))
        let reopen: Reopen = { () throws(CaptureError) -> InputBuffer in InputBuffer(fd: try openCaptureFile(path).fd) }
        if ZipArchive.recognise(head) {
            return try openZip(ZipArchive(FileBytes(fd: fd, size: size), name: path, limits: request.limits), depth: Depth())
        }
        if !head.starts(with: GzipStream.magic), let (external, format) = try external(head, name: path, closing: fd) {
            return Opened(source: .other(try external.open(fd: fd, path: path)), format: format)
        }
        return try openStream(InputBuffer(fd: fd), name: path, reopen: reopen, depth: Depth())
    }

    private func openStandardInput() throws(CaptureError) -> Opened {
        let fd = request.standardInput
        if isatty(fd) != 0 {
            throw .refused("standard input is a terminal: pipe a capture into it (adb exec-out cat …/btsnoop_hci.log | bluetape events -)")
        }
        let input = InputBuffer(stream: FileStream(fd: fd, owned: false))
        return try openStream(input, name: "standard input", reopen: nil, depth: Depth())
    }

    // MARK: Streams

    /// Finds what `input` holds from its first bytes and opens it.
    func openStream(
        _ input: InputBuffer, name: String, reopen: Reopen?, depth: Depth, memory: [UInt8]? = nil
    ) throws(CaptureError) -> Opened {
        let head = input.peek(TarReader.blockSize)
        if head.isEmpty {
            if let failure = input.failure { throw .notReadable(path: name, reason: failure.message) }
            throw .empty(path: name)
        }
        if head.starts(with: GzipStream.magic) {
            return try openGzip(input, name: name, reopen: reopen, depth: depth)
        }
        if ZipArchive.recognise(head) {
            guard depth.zip < 2 else { throw .archive(path: name, reason: "a zip inside a zip inside a zip: only one level of nesting is read") }
            let bytes: [UInt8]
            if let memory { bytes = memory } else { bytes = try spool(input, name: name) }
            var inner = depth
            inner.inArchive = true
            return try openZip(ZipArchive(MemoryBytes(bytes), name: name, limits: request.limits), depth: inner)
        }
        if TarReader.recognise(head) {
            return try openTar(input, name: name, reopen: reopen, depth: depth)
        }
        if head.starts(with: BTSnoopReader.magic) {
            return try openBTSnoop(input, name: name)
        }
        if let (external, format) = try external(head, name: name, closing: nil) {
            if let memory { return Opened(source: .other(try external.open(bytes: memory, name: name)), format: format) }
            return Opened(source: .other(try external.open(stream: input, name: name)), format: format)
        }
        if let bigEndian = PacketLoggerReader.recognise(input) {
            return Opened(source: .packetLogger(PacketLoggerReader(input: input, bigEndian: bigEndian)), format: .packetLogger)
        }
        if Self.looksLikeText(head) {
            return try openSummary(input, name: name, head: head, depth: depth)
        }
        throw .notACapture(path: name, firstBytes: Array(head.prefix(16)))
    }

    private func openGzip(_ input: InputBuffer, name: String, reopen: Reopen?, depth: Depth) throws(CaptureError) -> Opened {
        guard depth.gzip < 2 else { throw .archive(path: name, reason: "gzip inside gzip inside gzip: not read") }
        contents.value.containers.append("gzip")
        let inner = try Self.inflating(input, name: name, budget: budget)
        var deeper = depth
        deeper.gzip += 1
        var innerReopen: Reopen?
        if let reopen {
            let budget = budget
            innerReopen = { () throws(CaptureError) -> InputBuffer in
                let outer = try reopen()
                return try OpenSession.inflating(outer, name: name, budget: budget)
            }
        }
        return try openStream(inner, name: name, reopen: innerReopen, depth: deeper)
    }

    private static func inflating(_ input: InputBuffer, name: String, budget: DecompressionBudget) throws(CaptureError) -> InputBuffer {
        do {
            return InputBuffer(stream: try GzipStream(source: input, name: name, budget: budget))
        } catch {
            throw .archive(path: name, reason: error.message)
        }
    }

    /// btsnoop, or a btsnoop header followed by btsnooz version-2 records: a btsnoop reader would
    /// see absurd lengths at offset 16, a btsnooz one two records that make sense.
    private func openBTSnoop(_ input: InputBuffer, name: String) throws(CaptureError) -> Opened {
        let header = BTSnoopReader.headerSize
        if input.fill(header + BTSnoopReader.recordHeaderSize), input.u32be(at: 8) == 1, input.u32be(at: 12) == 1002,
            !BTSnoopReader.plausibleFirstRecord(in: input, at: header), SnoozReader.plausibleRecord(in: input, at: header)
        {
            let length = Int(input.u16le(at: header))
            let second = header + SnoozReader.Version.v2.headerSize + length - 1
            let confirmed = input.fill(second + 1) ? SnoozReader.plausibleRecord(in: input, at: second) : input.available == second
            if confirmed {
                input.consume(header)
                contents.value.relativeTimes = true
                return Opened(source: .other(SnoozReader(afterBTSnoopHeader: input)), format: .btsnoopSnooz)
            }
        }
        return Opened(source: .btsnoop(try BTSnoopReader(input: input, path: name)), format: .btsnoop)
    }

    /// The BTSNOOP_LOG_SUMMARY section of a bug report's text or a saved `dumpsys` output.
    private func openSummary(_ input: InputBuffer, name: String, head: [UInt8], depth: Depth) throws(CaptureError) -> Opened {
        guard let section = try SnoozSection.find(in: input, name: name, limits: request.limits) else {
            let text = String(decoding: head, as: UTF8.self)
            if depth.inArchive || text.contains("dumpstate") || text.contains("Bluetooth") {
                throw .noBluetoothLog(
                    path: name,
                    reason: "holds no Bluetooth log: no BTSNOOP_LOG_SUMMARY section (Android writes it when Bluetooth was on)")
            }
            throw .notACapture(path: name, firstBytes: Array(head.prefix(16)))
        }
        var found = FoundLog(
            name: "BTSNOOP_LOG_SUMMARY section at text offset \(section.textOffset)", size: Int64(section.records.count),
            kind: "btsnooz v\(section.version.rawValue)")
        if let declared = section.declaredSize, declared != section.records.count {
            found.kind += " (declares \(declared) bytes)"
        }
        contents.value.found.append(found)
        if let warning = section.timeWarning { contents.value.notes.append(warning) }
        let reader = SnoozReader(
            records: InputBuffer(bytes: section.records), version: section.version, firstTime: section.firstTime)
        return Opened(source: .other(reader), format: .btsnooz)
    }

    /// Reads a stream into memory, up to the limit: a zip's directory is at its end.
    private func spool(_ input: InputBuffer, name: String) throws(CaptureError) -> [UInt8] {
        let limit = request.limits.spooledBytes
        var bytes: [UInt8] = []
        while input.fill(1) {
            if bytes.count + input.available > limit {
                throw .limit(
                    path: name,
                    reason: "a zip read from a stream (\(name)) is held in memory to reach its directory, at its end, and this one passes the \(ByteCount(limit)) limit: save it to a file and give its path")
            }
            bytes += input.bytes(at: 0, count: input.available)
            input.consume(input.available)
        }
        if let failure = input.failure { throw .archive(path: name, reason: failure.message) }
        return bytes
    }

    /// The external format that reads a capture starting with `head`; nil when it is none of
    /// theirs; an error when it is pcap or pcapng and no format given reads it.
    private func external(_ head: [UInt8], name: String, closing fd: Int32?) throws(CaptureError)
        -> (any ExternalCaptureFormat, CaptureFormat)?
    {
        let head = Array(head.prefix(8))
        for external in formats {
            if let format = external.recognise(head) { return (external, format) }
        }
        guard let format = CaptureReader.pcapMagic(head) else { return nil }
        if let fd { close(fd) }
        throw .formatNotAvailable(path: name, format: format)
    }

    /// Printable ASCII, white space or UTF-8 throughout: a bug report, a `dumpsys` output.
    static func looksLikeText(_ head: [UInt8]) -> Bool {
        head.count >= 4
            && head.allSatisfy { byte in (0x20...0x7E).contains(byte) || byte >= 0x80 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    }
}
