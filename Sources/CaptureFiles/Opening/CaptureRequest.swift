import CaptureModel

/// What to open: one capture — a file, `-` for standard input, a directory or an archive holding
/// Bluetooth logs — or several files joined into one session.
public struct CaptureRequest: Sendable {
    /// The paths as given; `-` is standard input.
    public var paths: [String]
    /// The archive member to read (a zip's or a tar's), instead of the one chosen by its layout.
    public var member: String?
    /// Read the paths (or every Bluetooth log of one archive or directory) as one session: frames
    /// numbered across them, state carried from one to the next.
    public var join = false
    /// Join even files that look like different adapters or come out of time order.
    public var force = false
    /// List an archive's members to its end even past the one read (for `info`): a tar archive
    /// streams, so its listing is complete only once it has been read through.
    public var listsWholeArchive = false
    public var limits = ArchiveLimits()
    /// The descriptor `-` reads (standard input; tests hand over a pipe).
    public var standardInput: Int32 = 0

    public init(path: String) {
        paths = [path]
    }

    public init(paths: [String], member: String? = nil, join: Bool = false, force: Bool = false) {
        self.paths = paths
        self.member = member
        self.join = join
        self.force = force
    }

    /// How a path is named in messages: standard input is "standard input".
    static func displayName(_ path: String) -> String { path == "-" ? "standard input" : path }
}

/// What `info` lists about where the records came from: the archive layers, the Bluetooth logs
/// found in them, which were read, the parts of a joined session, and notes that are not damage.
public struct CaptureContents: Sendable {
    /// Layers around the capture, outermost first: "gzip", "zip", "tar", "directory".
    public var containers: [String] = []
    /// Members in the outermost archive, or files in the directory.
    public var memberCount: Int?
    /// The Bluetooth logs found, whether read or not.
    public var found: [FoundLog] = []
    /// What was read, in order (members, files, or the text holding the section).
    public var read: [String] = []
    /// The files or members of a joined session, in the order read.
    public var parts: [JoinedPart] = []
    /// The format holds no clock: times count from the first record.
    public var relativeTimes = false
    /// Things a person should know that are not damage: a guessed byte order, trailing bytes.
    public var notes: [String] = []

    public init() {}
}

/// A Bluetooth log found in an archive or directory.
public struct FoundLog: Sendable, Hashable {
    public var name: String
    /// Its size in bytes (uncompressed), when the archive says.
    public var size: Int64?
    /// "snoop log", "bug report text", "PacketLogger log", "nested zip", "capture".
    public var kind: String
}

/// One file of a joined session.
public struct JoinedPart: Sendable, Hashable {
    public var name: String
    public var records: Int
    public var firstTimestamp: Int64?
    public var lastTimestamp: Int64?
    /// Time from the end of the part before to the start of this one (negative: they overlap).
    public var gapBefore: Int64?
    /// The controller's address, when the part holds its Read BD_ADDR answer.
    public var controller: String?
}

/// The contents of one open capture, filled in while it is opened and (for a tar archive's
/// listing) while it is read.
final class ContentsBox: @unchecked Sendable {
    var value = CaptureContents()
}
