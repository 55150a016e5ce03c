import CaptureFiles
import CaptureModel
import PcapFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The formats tests read: everything the command line reads, pcap and pcapng included.
public let testFormats: [any ExternalCaptureFormat] = [PcapFormat()]

/// Where test inputs live, found from this file's path (not from the working directory).
public enum TestPaths {
    /// The package root: two levels above Tests/TestSupport.
    public static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    public static let fixtures = packageRoot + "/Tests/Fixtures"
    public static let captures = packageRoot + "/captures"

    /// `../shared/captures` beside the project, when it exists (development and CI only).
    public static let sharedCaptures: String? = {
        let path = packageRoot + "/../shared/captures"
        return isDirectory(path) ? path : nil
    }()

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Names of the files in a directory, sorted.
    public static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The real third-party captures (everything in ../shared/captures but its MANIFEST).
    public static var sharedCaptureFiles: [String] {
        guard let dir = sharedCaptures else { return [] }
        return list(dir).filter { !$0.hasSuffix(".md") }.map { dir + "/" + $0 }
    }

    public static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    public static func readText(_ path: String) -> String? {
        readFile(path).map { String(decoding: $0, as: UTF8.self) }
    }

    @discardableResult
    public static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return fwrite(bytes, 1, bytes.count, file) == bytes.count
    }

    /// A fresh directory for one test, inside this process's own directory under /tmp.
    public static func temporaryDirectory() -> String {
        madeDirectory(processDirectory + "/test-XXXXXX")
    }

    /// Where this test process keeps its temporary directories; removed with everything in it
    /// when the process exits, so that runs of the suite (some 400 directories each) do not fill
    /// /tmp.
    static let processDirectory: String = {
        let path = madeDirectory("/tmp/bluetape-test-XXXXXX")
        atexit { TestPaths.removeProcessDirectory() }
        return path
    }()

    static func removeProcessDirectory() { removeTree(processDirectory) }

    /// Removes `path` and, when it is a directory, everything in it. A link is unlinked, never
    /// followed: a test's links may point anywhere, up the tree included.
    static func removeTree(_ path: String) {
        guard unlink(path) != 0 else { return }
        guard let directory = opendir(path) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != ".", name != ".." { removeTree(path + "/" + name) }
        }
        closedir(directory)
        rmdir(path)
    }

    /// A new directory from a mkdtemp template.
    static func madeDirectory(_ template: String) -> String {
        var bytes = Array(template.utf8CString)
        return bytes.withUnsafeMutableBufferPointer { buffer in String(cString: mkdtemp(buffer.baseAddress!)) }
    }
}

/// Wireshark's own figures for the shared captures: the MANIFEST table and capinfos' times.
public enum WiresharkReference {
    public struct Capture: Sendable {
        public var file: String
        public var packets: Int
        public var earliest: String
        public var latest: String
    }

    /// From Tests/Fixtures/reference/capinfos.tsv (capinfos run on each shared capture).
    public static let capinfos: [String: Capture] = {
        guard let text = TestPaths.readText(TestPaths.fixtures + "/reference/capinfos.tsv") else { return [:] }
        var result: [String: Capture] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4, let packets = Int(columns[1]) else { continue }
            result[columns[0]] = Capture(file: columns[0], packets: packets, earliest: columns[2], latest: columns[3])
        }
        return result
    }()

    /// The "Packets" column of ../shared/captures/MANIFEST.md, by file name.
    public static let manifestPackets: [String: Int] = {
        guard let dir = TestPaths.sharedCaptures, let text = TestPaths.readText(dir + "/MANIFEST.md") else { return [:] }
        var result: [String: Int] = [:]
        var fileColumn: Int?
        var packetsColumn: Int?
        for line in text.split(separator: "\n") {
            guard line.hasPrefix("|") else {
                fileColumn = nil
                packetsColumn = nil
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            if let f = cells.firstIndex(of: "File"), let p = cells.firstIndex(where: { $0.hasPrefix("Packets") }) {
                fileColumn = f
                packetsColumn = p
                continue
            }
            guard let f = fileColumn, let p = packetsColumn, cells.count > max(f, p) else { continue }
            let name = cells[f].replacingBackticks
            if let packets = Int(cells[p].filter { $0 != "," }) { result[name] = packets }
        }
        for entry in round2 { result[entry.file] = entry.packets }
        return result
    }()

    /// The MANIFEST's round-2 additions, whose counts are in its prose (reference/round2-packets.tsv).
    public static let round2: [(file: String, packets: Int, wiresharkReads: Bool)] = {
        guard let text = TestPaths.readText(TestPaths.fixtures + "/reference/round2-packets.tsv") else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t").map(String.init)
            guard !line.hasPrefix("#"), columns.count >= 3, let packets = Int(columns[1]) else { return nil }
            return (columns[0], packets, columns[2] == "yes")
        }
    }()

    /// Shared captures Wireshark cannot open (an Android bug report): no capinfos figures exist.
    public static var unreadableByWireshark: Set<String> { Set(round2.filter { !$0.wiresharkReads }.map(\.file)) }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
    var replacingBackticks: String { String(filter { $0 != "`" }) }
}

/// Builds small captures for tests through the project's own writer.
public enum CaptureFactory {
    /// A few HCI records of every kind, with made-up but well-formed bytes.
    public static func sampleRecords(count: Int = 12, start: Int64 = 1_710_495_001_151_075) -> [StoredRecord] {
        var records: [StoredRecord] = []
        for i in 0..<count {
            let ts = start + Int64(i) * 1250
            switch i % 4 {
            case 0:
                records.append(
                    StoredRecord(timestamp: ts, direction: .sent, kind: .command, payload: [0x0C, 0x20, 0x02, 0x01, 0x00]))
            case 1:
                records.append(
                    StoredRecord(
                        timestamp: ts, direction: .received, kind: .event,
                        payload: [0x0E, 0x04, 0x01, 0x0C, 0x20, UInt8(i)]))
            case 2:
                records.append(
                    StoredRecord(
                        timestamp: ts, direction: .received, kind: .acl,
                        payload: [0x40, 0x20, 0x09, 0x00, 0x05, 0x00, 0x04, 0x00, 0x1B, 0x0E, 0x00, 0x06, UInt8(i)]))
            default:
                records.append(
                    StoredRecord(
                        timestamp: ts, direction: .sent, kind: .acl,
                        payload: [0x40, 0x00, 0x09, 0x00, 0x05, 0x00, 0x04, 0x00, 0x12, 0x0B, 0x00, 0x01, 0x00]))
            }
        }
        return records
    }

    public static func capture(_ format: CaptureWriter.Format, _ records: [StoredRecord]) throws -> [UInt8] {
        let writer = try CaptureWriter(format: format)
        for record in records { try writer.write(record) }
        return writer.bytes
    }
}

/// SplitMix64: small, fast and the same on every platform, so a seed printed by a failing test
/// reproduces its inputs exactly.
public struct TestRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
