import CaptureFiles
import CaptureModel
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Captures inside gzip, zip and tar: read where they are, with every record the plain file gives.
struct ArchiveTests {
    static func capture(_ count: Int = 24, start: Int64 = 1_710_495_001_151_075) -> [UInt8] {
        (try? CaptureFactory.capture(.btsnoop(.btsnoopUART), CaptureFactory.sampleRecords(count: count, start: start))) ?? []
    }

    func sameRecords(_ bytes: [UInt8], as plain: [UInt8], limits: ArchiveLimits = ArchiveLimits()) throws -> CaptureReader {
        let reader = try CaptureReader(bytes: bytes, formats: testFormats, limits: limits)
        let expected = try CaptureReader(bytes: plain, formats: testFormats).readAll()
        let records = reader.readAll()
        #expect(records.count == expected.count)
        #expect(zip(records, expected).allSatisfy { $0.sameContent(as: $1) && $0.frame == $1.frame })
        return reader
    }

    // MARK: gzip

    @Test func `a gzip'd btsnoop, pcap and PacketLogger file reads as the plain one`() throws {
        for plain in [Self.capture(), try CaptureFactory.capture(.pcap(.h4WithPHDR), CaptureFactory.sampleRecords(count: 24))] {
            let reader = try sameRecords(Deflate.gzip(plain), as: plain)
            #expect(reader.contents.containers == ["gzip"])
            #expect(reader.problems.count == 0)
        }
    }

    @Test func `gzip members one after another are one stream`() throws {
        let plain = Self.capture(30)
        let split = 16 + 30 * 10
        _ = try sameRecords(Deflate.gzip(Array(plain.prefix(split))) + Deflate.gzip(Array(plain.dropFirst(split))), as: plain)
    }

    @Test func `a gzip file cut short keeps every whole record before the cut and says so`() throws {
        let plain = Self.capture(200)
        let packed = Deflate.gzip(plain)
        let reader = try CaptureReader(bytes: Array(packed.prefix(packed.count * 2 / 3)))
        let records = reader.readAll()
        let expected = try CaptureReader(bytes: plain).readAll()
        #expect(!records.isEmpty && records.count < expected.count)
        #expect(zip(records, expected).allSatisfy { $0.sameContent(as: $1) })
        #expect(reader.problems.items.last?.kind == .truncatedTail)
        #expect(reader.problems.items.last?.reason.contains("the gzip data ends early") == true)
    }

    @Test func `damaged gzip data is a read error, after every record inflated before it`() throws {
        let plain = Self.capture(200)
        let expected = try CaptureReader(bytes: plain).readAll()
        // A wrong CRC in the trailer: every record inflates, then the check fails.
        var packed = Deflate.gzip(plain)
        packed[packed.count - 6] ^= 0xFF
        let reader = try CaptureReader(bytes: packed)
        let records = reader.readAll()
        #expect(records.count == expected.count)
        #expect(zip(records, expected).allSatisfy { $0.sameContent(as: $1) })
        #expect(reader.problems.items.map(\.kind) == [.readError])
        #expect(reader.problems.items.first?.reason.contains("the compressed data is damaged (incorrect data check)") == true)
        // Damage inside the deflate data is found where a code cannot be right, and reported.
        var middle = Deflate.gzip(plain)
        for i in (middle.count / 2)..<(middle.count / 2 + 8) { middle[i] ^= 0x5A }
        if let damaged = try? CaptureReader(bytes: middle) {
            _ = damaged.readAll()
            #expect(damaged.problems.count >= 1)
        }
    }

    @Test func `a decompressed size past the limit stops reading with a clear error`() throws {
        // A btsnoop header and 48 MiB of zeros compress to under 60 KB; read with a limit of 32 MiB,
        // the reader stops at the limit. (That it never holds what it inflated is measured on a
        // process of its own, in ArchiveCommandTests.)
        let header = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
        let bomb = Deflate.gzipBomb(prefix: header, zeros: 48 << 20)
        #expect(bomb.count < 60_000)
        var limits = ArchiveLimits()
        limits.decompressedBytes = 32 << 20
        let reader = try CaptureReader(bytes: bomb, limits: limits)
        var records = 0
        while reader.next() != nil { records += 1 }
        // Every whole record before the limit: (32 MiB − the 16-byte header) / 24 bytes.
        #expect(records == ((32 << 20) - 16) / 24)
        let problem = try #require(reader.problems.items.last)
        #expect(problem.kind == .readError)
        #expect(reader.problems.items.contains { $0.reason.contains("expands past 32 MiB of decompressed data, the limit") })
        // A zip member past the limit is stopped the same way.
        var small = ArchiveLimits()
        small.decompressedBytes = 1 << 20
        let archive = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", Self.capture() + [UInt8](repeating: 0, count: 2 << 20))]).bytes
        let member = try CaptureReader(bytes: archive, limits: small)
        _ = member.readAll()
        #expect(member.problems.items.contains { $0.reason.contains("expands past 1 MiB of decompressed data, the limit") })
    }

    // MARK: zip

    static let logs = "FS/data/misc/bluetooth/logs/"

    @Test(arguments: [false, true])
    func `a bug report's snoop logs are preferred and joined in rotation order`(deflated: Bool) throws {
        let older = Self.capture(20)
        let newer = Self.capture(12, start: 1_710_495_001_151_075 + 60_000_000)
        let text = SnoozBuilder.text(ring: SnoozBuilder.ring(version: 2, lastTimestamp: 1, records: []), declared: 0)
        let archive = ZipBuilder([
            .init("version.txt", Array("2.0".utf8), deflated: deflated),
            .init("bugreport-phone-build-2024-03-15.txt", text, deflated: deflated),
            .init(Self.logs + "btsnoop_hci.log", newer, deflated: deflated),
            .init(Self.logs + "btsnoop_hci.log.last", older, deflated: deflated),
        ]).bytes
        let reader = try CaptureReader(bytes: archive)
        let records = reader.readAll()
        let expected = try CaptureReader(bytes: older).readAll() + CaptureReader(bytes: newer).readAll()
        #expect(records.count == 32)
        #expect(records.map(\.frame) == Array(1...32))
        #expect(zip(records, expected).allSatisfy { $0.sameContent(as: $1) })
        #expect(reader.contents.read == [Self.logs + "btsnoop_hci.log.last", Self.logs + "btsnoop_hci.log"])
        #expect(reader.contents.found.map(\.kind) == ["snoop log", "snoop log", "bug report text"])
        #expect(reader.contents.parts.map(\.records) == [20, 12])
        let gap = try #require(reader.contents.parts.last?.gapBefore)
        #expect(gap == 60_000_000 - 19 * 1250)
    }

    @Test func `zip64 sizes and offsets are read`() throws {
        let plain = Self.capture()
        let reader = try sameRecords(ZipBuilder([.init(Self.logs + "btsnoop_hci.log", plain, zip64: true)]).bytes, as: plain)
        #expect(reader.contents.read == [Self.logs + "btsnoop_hci.log"])
    }

    @Test(arguments: [false, true])
    func `a bug report zip inside a zip is read one level down`(storedOuter: Bool) throws {
        let plain = Self.capture()
        let inner = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", plain)]).bytes
        let outer = ZipBuilder([
            .init("notes.txt", Array("from the field".utf8)), .init("dumpstate/bugreport-x.zip", inner, deflated: !storedOuter),
        ]).bytes
        let reader = try sameRecords(outer, as: plain)
        #expect(reader.contents.found.map(\.name).contains("dumpstate/bugreport-x.zip/" + Self.logs + "btsnoop_hci.log"))
        // Three levels are not followed.
        let deeper = ZipBuilder([.init("a.zip", ZipBuilder([.init("b.zip", inner)]).bytes)]).bytes
        #expect(throws: CaptureError.self) { try CaptureReader(bytes: deeper) }
    }

    @Test func `--member picks one member, and a missing one lists what there is`() throws {
        let a = Self.capture(10)
        let archive = ZipBuilder([.init("one.btsnoop", a), .init("two.btsnoop", Self.capture(5))]).bytes
        // Two captures and no bug report layout: which one is for the person to say.
        let several = #expect(throws: CaptureError.self) { try CaptureReader(bytes: archive) }
        #expect(several?.isUsageError == true)
        #expect(several?.description.contains("choose one with --member") == true)
        let path = TestPaths.temporaryDirectory() + "/two.zip"
        TestPaths.writeFile(path, archive)
        let reader = try CaptureReader(CaptureRequest(paths: [path], member: "one.btsnoop"))
        #expect(reader.readAll().count == 10)
        let missing = #expect(throws: CaptureError.self) { try CaptureReader(CaptureRequest(paths: [path], member: "three.btsnoop")) }
        #expect(missing?.description == "\(path): no member three.btsnoop (its Bluetooth logs: one.btsnoop, two.btsnoop)")
    }

    @Test func `a zip with no Bluetooth log says so in one line`() throws {
        let archive = ZipBuilder([.init("version.txt", Array("2.0".utf8)), .init("FS/proc/1/mountinfo", Array("x".utf8))]).bytes
        let error = #expect(throws: CaptureError.self) { try CaptureReader(bytes: archive) }
        #expect(error?.description.hasPrefix("<memory>: holds no Bluetooth log: no btsnoop_hci.log under FS/data/misc/bluetooth/logs/") == true)
        #expect(error?.description.contains("\n") == false)
    }

    @Test func `zip bombs are refused: shared compressed data, impossible ratios, nesting`() throws {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let shared = ZipBuilder(
            (0..<20).map { ZipBuilder.Member("FS/data/misc/bluetooth/logs/btsnoop_hci.log\($0 == 0 ? "" : ".\($0)")", zeros) },
            overlapping: true
        ).bytes
        let overlap = #expect(throws: CaptureError.self) { try CaptureReader(bytes: shared) }
        #expect(overlap?.description.contains("share compressed data (a zip bomb, or a damaged archive)") == true)
        let liar = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", Self.capture(), declaredSize: 0xF000_0000)]).bytes
        let ratio = #expect(throws: CaptureError.self) { try CaptureReader(bytes: liar) }
        #expect(ratio?.description.contains("more than deflate can produce") == true)
        var few = ArchiveLimits()
        few.members = 3
        let many = ZipBuilder((0..<5).map { .init("f\($0).txt", [0x41]) }).bytes
        let members = #expect(throws: CaptureError.self) { try CaptureReader(bytes: many, limits: few) }
        #expect(members?.description.contains("lists 5 members, more than the 3 read") == true)
    }

    @Test func `a member whose bytes or CRC are wrong is damage, with every record before it`() throws {
        let plain = Self.capture()
        let wrongCRC = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", plain, crc: 0x1234_5678)]).bytes
        let reader = try CaptureReader(bytes: wrongCRC)
        #expect(reader.readAll().count == 24)
        #expect(reader.problems.items.first?.reason.contains("CRC is wrong") == true)
        let encrypted = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", plain, flags: 0x0801)]).bytes
        #expect(throws: CaptureError.self) { try CaptureReader(bytes: encrypted) }
        let bzip2 = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", plain, deflated: false, method: 12)]).bytes
        let method = #expect(throws: CaptureError.self) { try CaptureReader(bytes: bzip2) }
        #expect(method?.description.contains("method 12 (bzip2), which is not read") == true)
        // A zip cut short has lost its directory.
        #expect(throws: CaptureError.self) { try CaptureReader(bytes: Array(wrongCRC.prefix(wrongCRC.count - 30))) }
    }

    @Test func `a deflated member longer than it declares gives every record within its declared size, then the damage`() throws {
        // (A stored member whose sizes differ is refused when it is opened.)
        let plain = Self.capture()
        let declared = Self.capture(10)
        try #require(Array(plain.prefix(declared.count)) == declared)
        let liar = ZipBuilder([.init(Self.logs + "btsnoop_hci.log", plain, declaredSize: UInt64(declared.count))]).bytes
        let reader = try CaptureReader(bytes: liar)
        let records = reader.readAll()
        let expected = try CaptureReader(bytes: declared).readAll()
        #expect(records.count == 10)
        #expect(zip(records, expected).allSatisfy { $0.sameContent(as: $1) })
        #expect(reader.problems.items.map(\.kind) == [.readError])
        #expect(reader.problems.items.first?.reason.contains("expands past the \(declared.count) bytes it declares") == true)
    }

    @Test func `names inside an archive are never used as paths`() throws {
        let directory = TestPaths.temporaryDirectory()
        let escape = "../../" + directory.split(separator: "/").last! + "-escaped/btsnoop_hci.log"
        let archive = ZipBuilder([.init(escape, Self.capture()), .init("/tmp/absolute-\(getpid())/notes.txt", [0x41])]).bytes
        let path = directory + "/evil.zip"
        TestPaths.writeFile(path, archive)
        let reader = try CaptureReader(path: path)
        #expect(reader.readAll().count == 24)
        #expect(!TestPaths.exists(directory + "-escaped"))
        #expect(!TestPaths.exists("/tmp/absolute-\(getpid())"))
        #expect(TestPaths.list(directory) == ["evil.zip"])
    }

    // MARK: tar

    @Test(arguments: TarBuilder.Naming.allCases)
    func `an iOS sysdiagnose's current PacketLogger file is read, and the others listed`(naming: TarBuilder.Naming) throws {
        let latest = PacketLoggerBytes.sample(count: 9)
        let older = PacketLoggerBytes.sample(count: 4, seconds: 1_600_000_000)
        let root = "sysdiagnose_2026.07.30_12-13-58+0200_iPhone-OS_iPhone_23F77_with_a_name_long_enough_for_prefixes"
        let tar = TarBuilder.archive(
            [
                ("\(root)/logs/Bluetooth/bluetoothd-hci-2020-09-13.pklg", older), ("\(root)/logs/other.log", [0x41]),
                ("\(root)/logs/Bluetooth/bluetoothd-hci-latest.pklg", latest),
            ], naming: naming)
        let reader = try CaptureReader(bytes: Deflate.gzip(tar))
        #expect(reader.contents.containers == ["gzip", "tar"])
        #expect(reader.readAll().count == 9)
        #expect(reader.contents.read == ["\(root)/logs/Bluetooth/bluetoothd-hci-latest.pklg"])
        #expect(reader.contents.found.map(\.name).count == 2)
    }

    @Test func `a tar archive with a bad header checksum or cut short is refused`() throws {
        var tar = TarBuilder.archive([("logs/Bluetooth/bluetoothd-hci-latest.pklg", PacketLoggerBytes.sample(count: 4))], naming: .ustar)
        let cut = Array(tar.prefix(512 + 40))
        let reader = try CaptureReader(bytes: cut)
        _ = reader.readAll()
        #expect(reader.problems.count >= 1)
        tar[0] ^= 0x01
        // The first header no longer passes its checksum: not taken for tar at all.
        #expect(throws: CaptureError.self) { try CaptureReader(bytes: tar) }
        let none = TarBuilder.archive([("etc/hostname", [0x41])], naming: .pax)
        let error = #expect(throws: CaptureError.self) { try CaptureReader(bytes: none) }
        #expect(error?.description.contains("holds no Bluetooth log: no logs/Bluetooth/*.pklg") == true)
    }
}

/// PacketLogger files byte by byte (little-endian, as PacketLogger.app writes): HCI records a
/// millisecond apart.
enum PacketLoggerBytes {
    static func sample(count: Int, seconds: UInt32 = 1_700_000_000) -> [UInt8] {
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var bytes: [UInt8] = []
        for i in 0..<count {
            // HCI LE Set Scan Enable, then its Command Complete (Core v5.4, Vol 4, Part E, §7.8.11).
            let (type, packet): (UInt8, [UInt8]) =
                i % 2 == 0 ? (0x00, [0x0C, 0x20, 0x02, 0x01, 0x00]) : (0x01, [0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00])
            bytes += le(UInt32(9 + packet.count)) + le(seconds) + le(UInt32(i * 1000)) + [type] + packet
        }
        return bytes
    }
}
