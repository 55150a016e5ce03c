import CaptureModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which Bluetooth log of a zip, a tar archive or a directory is read, and how.
extension OpenSession {
    // MARK: Zip

    /// A bug report (the full snoop logs under FS/data/misc/bluetooth/logs/, joined in rotation
    /// order, else the summary section of its main text), a zip holding a bug report one level
    /// down, or a zip holding captures.
    func openZip(_ archive: ZipArchive, depth: Depth, label: String = "") throws(CaptureError) -> Opened {
        let files = archive.entries.filter { !$0.isDirectory }
        if depth.zip == 0 {
            contents.value.containers.append("zip")
            contents.value.memberCount = files.count
        }
        var inner = depth
        inner.zip += 1
        inner.inArchive = true
        let snoopLogs = files.filter { BluetoothLogNames.androidRank($0.name) != nil }
        let texts = files.filter { BluetoothLogNames.isBugReportText($0.name) }
        let nested = files.filter { $0.name.lowercased().hasSuffix(".zip") }
        let captures = files.filter {
            BluetoothLogNames.isCaptureName($0.name) && BluetoothLogNames.androidRank($0.name) == nil
        }
        func note(_ entries: [ZipEntry], _ kind: String) {
            contents.value.found += entries.map { FoundLog(name: label + $0.name, size: $0.size, kind: kind) }
        }
        note(snoopLogs, "snoop log")
        note(texts, "bug report text")
        note(captures, "capture")
        if depth.zip == 0 { note(nested, "nested zip") }

        if let wanted = request.member {
            if let entry = files.first(where: { $0.name == wanted }) ?? files.first(where: { BluetoothLogNames.matches($0.name, wanted) }) {
                contents.value.read.append(label + entry.name)
                return try openMember(entry, of: archive, depth: inner)
            }
            if depth.zip == 0, let zip = nested.first(where: { wanted.hasPrefix($0.name + "/") }) {
                return try openNested(zip, of: archive, depth: inner, member: String(wanted.dropFirst(zip.name.count + 1)))
            }
            throw .memberNotFound(path: archive.name, member: wanted, available: contents.value.found.map(\.name))
        }

        let rotation = BluetoothLogNames.rotation(snoopLogs.map(\.name)).compactMap { name in snoopLogs.first { $0.name == name } }
        if !rotation.isEmpty { return try openMembers(rotation, of: archive, depth: inner, label: label, order: .rotation) }

        // The summary section of the main text: main_entry.txt names it when there are several.
        if let text = mainText(texts, in: archive) {
            contents.value.read.append(label + text.name)
            do {
                return try openMember(text, of: archive, depth: inner)
            } catch {
                guard case .noBluetoothLog = error, depth.zip == 0, !nested.isEmpty else { throw error }
                contents.value.read.removeLast()
            }
        }
        if depth.zip == 0 {
            for zip in nested {
                do {
                    return try openNested(zip, of: archive, depth: inner, member: nil)
                } catch {
                    guard case .noBluetoothLog = error else { throw error }
                }
            }
        }
        if captures.count == 1 || (request.join && !captures.isEmpty) {
            return try openMembers(captures, of: archive, depth: inner, label: label, order: .byTime)
        }
        if captures.count > 1 {
            throw .refused(
                "\(archive.name) holds several captures (\(captures.map(\.name).joined(separator: ", "))): choose one with --member, or read them as one session with --join")
        }
        let what = texts.isEmpty ? "" : ", and \(texts.map(\.name).joined(separator: ", ")) has no BTSNOOP_LOG_SUMMARY section"
        throw .noBluetoothLog(
            path: archive.name,
            reason: "holds no Bluetooth log: no btsnoop_hci.log under \(BluetoothLogNames.androidLogDirectory), no bug report text with a BTSNOOP_LOG_SUMMARY section\(what), no capture file")
    }

    private func mainText(_ texts: [ZipEntry], in archive: ZipArchive) -> ZipEntry? {
        guard texts.count > 1 else { return texts.first }
        // main_entry.txt holds the main text's name; a small member, read whole.
        if let pointer = archive.entries.first(where: { BluetoothLogNames.basename($0.name) == "main_entry.txt" }),
            pointer.size < 4096, let stream = try? archive.stream(pointer, budget: budget)
        {
            let input = InputBuffer(stream: stream)
            let name = String(decoding: input.peek(4096), as: UTF8.self).trimmingWhitespace
            if let named = texts.first(where: { BluetoothLogNames.matches($0.name, name) }) { return named }
        }
        return texts.max { $0.size < $1.size }
    }

    /// One member read as a capture of its own (which may be gzip'd, or a zip itself).
    func openMember(_ entry: ZipEntry, of archive: ZipArchive, depth: Depth) throws(CaptureError) -> Opened {
        let stream = try archive.stream(entry, budget: budget)
        return try openStream(InputBuffer(stream: stream), name: "\(archive.name): \(entry.name)", reopen: nil, depth: depth)
    }

    private func openMembers(
        _ entries: [ZipEntry], of archive: ZipArchive, depth: Depth, label: String, order: JoinOrder
    ) throws(CaptureError) -> Opened {
        if entries.count == 1 {
            contents.value.read.append(label + entries[0].name)
            return try openMember(entries[0], of: archive, depth: depth)
        }
        let parts = entries.map { entry in
            JoinPart(name: label + entry.name) { session throws(CaptureError) in try session.openMember(entry, of: archive, depth: depth) }
        }
        return try join(parts, order: order)
    }

    /// A zip inside the zip: a stored one is read in place, a compressed one held in memory
    /// (within the limit) to reach its directory.
    private func openNested(_ entry: ZipEntry, of archive: ZipArchive, depth: Depth, member: String?) throws(CaptureError) -> Opened {
        let name = "\(archive.name): \(entry.name)"
        let bytes: any RandomAccessBytes
        if let stored = try archive.storedBytes(entry) {
            bytes = stored
        } else {
            guard entry.size <= Int64(request.limits.spooledBytes) else {
                throw .limit(
                    path: name,
                    reason: "a compressed zip inside the zip is held in memory to reach its directory, and this one's \(ByteCount(entry.size)) pass the \(ByteCount(request.limits.spooledBytes)) limit")
            }
            let input = InputBuffer(stream: try archive.stream(entry, budget: budget))
            var held: [UInt8] = []
            held.reserveCapacity(Int(entry.size))
            while input.fill(1) {
                held += input.bytes(at: 0, count: input.available)
                input.consume(input.available)
            }
            if let failure = input.failure { throw .archive(path: name, reason: failure.message) }
            bytes = MemoryBytes(held)
        }
        let nested = try ZipArchive(bytes, name: name, limits: request.limits)
        if let member {
            guard let found = nested.entries.first(where: { BluetoothLogNames.matches($0.name, member) }) else {
                throw .memberNotFound(path: name, member: member, available: nested.entries.map(\.name).filter {
                    BluetoothLogNames.androidRank($0) != nil || BluetoothLogNames.isBugReportText($0)
                })
            }
            contents.value.read.append(entry.name + "/" + found.name)
            return try openMember(found, of: nested, depth: depth)
        }
        return try openZip(nested, depth: depth, label: entry.name + "/")
    }

    // MARK: Tar

    /// An iOS sysdiagnose (or any tar): `logs/Bluetooth/bluetoothd-hci-latest.pklg`, the member
    /// `--member` names, or with `--join` every PacketLogger file under `logs/Bluetooth/` in time order.
    func openTar(_ input: InputBuffer, name: String, reopen: Reopen?, depth: Depth) throws(CaptureError) -> Opened {
        contents.value.containers.append("tar")
        var inner = depth
        inner.inArchive = true
        let tar = TarReader(input, name: name, limits: request.limits)
        if request.join, request.member == nil {
            guard let reopen else {
                throw .refused(
                    "--join reads a tar archive once for each member, and \(name) can be read only once: save it to a file and give its path")
            }
            var logs: [TarEntry] = []
            while let entry = try tar.nextEntry() {
                guard BluetoothLogNames.isAppleLog(entry.name) else { continue }
                logs.append(entry)
                contents.value.found.append(FoundLog(name: entry.name, size: entry.size, kind: "PacketLogger log"))
            }
            contents.value.memberCount = tar.filesSeen
            guard !logs.isEmpty else { throw noAppleLog(name) }
            let parts = logs.map { log in
                JoinPart(name: log.name) { session throws(CaptureError) in
                    try session.openTarMember(log.name, in: TarReader(try reopen(), name: name, limits: session.request.limits), depth: inner)
                }
            }
            return try join(parts, order: .byTime)
        }
        let wanted = request.member ?? BluetoothLogNames.appleLatest
        while let entry = try tar.nextEntry() {
            let isLog = BluetoothLogNames.isAppleLog(entry.name) || BluetoothLogNames.androidRank(entry.name) != nil
            if isLog {
                let kind = BluetoothLogNames.isAppleLog(entry.name) ? "PacketLogger log" : "snoop log"
                contents.value.found.append(FoundLog(name: entry.name, size: entry.size, kind: kind))
            }
            guard BluetoothLogNames.matches(entry.name, wanted) else { continue }
            contents.value.read.append(entry.name)
            let member = try openStream(
                InputBuffer(stream: tar.data(of: entry)), name: "\(name): \(entry.name)", reopen: nil, depth: inner)
            let reader = CaptureReader(path: entry.name, opened: member, contents: ContentsBox())
            let source = TarMemberSource(reader, tar: tar, listing: request.listsWholeArchive, contents: contents)
            return Opened(source: .other(source), format: member.format)
        }
        contents.value.memberCount = tar.filesSeen
        if contents.value.found.isEmpty { throw noAppleLog(name) }
        throw .memberNotFound(path: name, member: wanted, available: contents.value.found.map(\.name))
    }

    /// Reads the archive up to the member named `name` and opens it.
    func openTarMember(_ name: String, in tar: TarReader, depth: Depth) throws(CaptureError) -> Opened {
        while let entry = try tar.nextEntry() {
            guard entry.name == name else { continue }
            let member = try openStream(
                InputBuffer(stream: tar.data(of: entry)), name: "\(tar.name): \(entry.name)", reopen: nil, depth: depth)
            let reader = CaptureReader(path: entry.name, opened: member, contents: ContentsBox())
            return Opened(source: .other(TarMemberSource(reader, tar: tar, listing: false, contents: contents)), format: member.format)
        }
        throw .memberNotFound(path: tar.name, member: name, available: [])
    }

    private func noAppleLog(_ name: String) -> CaptureError {
        .noBluetoothLog(path: name, reason: "holds no Bluetooth log: no logs/Bluetooth/*.pklg (where an iOS sysdiagnose keeps them)")
    }

    // MARK: Directories

    /// A directory holding Android snoop logs: the rotated pair, joined, or the one there is.
    func openDirectory(_ path: String, refusal: CaptureError) throws(CaptureError) -> Opened {
        let names = Self.list(path)
        let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let wanted = request.member {
            contents.value.containers.append("directory")
            contents.value.read.append(wanted)
            return try openPath(directory + "/" + wanted)
        }
        let rotation = BluetoothLogNames.rotation(names)
        guard !rotation.isEmpty else { throw refusal }
        contents.value.containers.append("directory")
        contents.value.memberCount = names.count
        contents.value.found = names.filter { BluetoothLogNames.androidRank($0) != nil }.map {
            FoundLog(name: $0, size: Self.size(of: directory + "/" + $0), kind: "snoop log")
        }
        if rotation.count == 1 {
            contents.value.read.append(rotation[0])
            return try openPath(directory + "/" + rotation[0])
        }
        let parts = rotation.map { name in
            JoinPart(name: name) { session throws(CaptureError) in try session.openPath(directory + "/" + name) }
        }
        return try join(parts, order: .rotation)
    }

    static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir), names.count < 100_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

/// The member of a tar archive being read; at its end, the rest of the archive is listed when
/// `info` asked for the whole listing.
final class TarMemberSource: FormatReader {
    private let reader: CaptureReader
    private let tar: TarReader
    private var listing: Bool
    private let contents: ContentsBox

    init(_ reader: CaptureReader, tar: TarReader, listing: Bool, contents: ContentsBox) {
        self.reader = reader
        self.tar = tar
        self.listing = listing
        self.contents = contents
    }

    var linkType: LinkType { reader.linkType }
    var problems: ProblemLog { reader.problems }

    func next() -> CaptureRecord? {
        if let record = reader.next() { return record }
        if listing {
            listing = false
            do {
                while let entry = try tar.nextEntry() {
                    if BluetoothLogNames.isAppleLog(entry.name) {
                        contents.value.found.append(FoundLog(name: entry.name, size: entry.size, kind: "PacketLogger log"))
                    }
                }
            } catch {
                contents.value.notes.append("the archive could not be listed to its end: \(error)")
            }
            contents.value.memberCount = tar.filesSeen
        }
        return nil
    }
}
