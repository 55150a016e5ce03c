/// The captures and golden files under some paths, paired by name: the golden of
/// `sensor.btsnoop` is `sensor.btsnoop.golden.jsonl` beside it.
public struct GoldenSuite: Sendable {
    /// What a capture file is called: btsnoop (Android's .log and .log.last, .cfa, .snoop), pcap,
    /// pcapng, PacketLogger, and what phones hand over (bug report zips, gzip'd logs, sysdiagnose).
    public static let captureExtensions: Set<String> = [
        "btsnoop", "log", "last", "cfa", "snoop", "pcap", "pcapng", "pklg", "zip", "gz", "tgz",
    ]
    public static let goldenSuffix = ".golden.jsonl"

    /// A capture, where its golden is (or belongs), and the rules that apply to it.
    public struct Member: Sendable, Equatable {
        public var capture: String
        public var golden: String
        public var hasGolden: Bool
        /// The golden.json files from the searched directory down to the capture's, layered.
        public var config: GoldenConfig
        /// The golden.json of the capture's own directory says it may decode to no readings.
        public var allowEmpty = false
    }

    public var members: [Member]
    /// Goldens whose capture is gone.
    public var obsoleteGoldens: [String]

    public static func isCapture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return captureExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    public static func goldenPath(for capture: String) -> String { capture + goldenSuffix }

    /// Finds the suite under `paths`: directories are searched (with their subdirectories, not
    /// hidden ones); a file is a capture, or a golden that stands for its capture.
    public static func find(_ paths: [String]) throws(GoldenError) -> GoldenSuite {
        var suite = GoldenSuite(members: [], obsoleteGoldens: [])
        var visited: Set<Files.DirectoryID> = []
        for path in paths {
            if Files.isDirectory(path) {
                try suite.search(
                    directory: path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path,
                    inherited: GoldenConfig(), visited: &visited)
            } else {
                try suite.add(file: path)
            }
        }
        // A capture named twice (as a file and inside a directory) is checked once.
        var seen: Set<String> = []
        suite.members = suite.members.sorted { $0.capture < $1.capture }.filter { seen.insert($0.capture).inserted }
        suite.obsoleteGoldens = Set(suite.obsoleteGoldens).sorted()
        return suite
    }

    private mutating func search(
        directory: String, inherited: GoldenConfig, visited: inout Set<Files.DirectoryID>
    ) throws(GoldenError) {
        // Each directory once: symbolic links that loop back (a link to "." or to a parent) would
        // otherwise be followed, branching, until the path grew too long.
        guard let id = Files.directoryID(directory), visited.insert(id).inserted else { return }
        var config = inherited
        config.captures = [:]  // rules for single captures belong to their own directory's golden.json
        if let own = try GoldenConfig.load(directory: directory) {
            config = config.overridden(by: own)
            config.captures = own.captures
        }
        let names = try Files.list(directory)
        let present = Set(names)
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            if Files.isDirectory(path) {
                try search(directory: path, inherited: config, visited: &visited)
            } else if Self.isCapture(name) {
                let golden = name + Self.goldenSuffix
                members.append(
                    Member(
                        capture: path, golden: directory + "/" + golden, hasGolden: present.contains(golden),
                        config: config, allowEmpty: config.captures[name]?.allowEmpty ?? false))
            } else if name.hasSuffix(Self.goldenSuffix) {
                let capture = String(name.dropLast(Self.goldenSuffix.count))
                if !present.contains(capture) || !Self.isCapture(capture) { obsoleteGoldens.append(path) }
            }
        }
    }

    private mutating func add(file path: String) throws(GoldenError) {
        let capture = path.hasSuffix(Self.goldenSuffix) ? String(path.dropLast(Self.goldenSuffix.count)) : path
        guard Files.exists(path) || Files.exists(capture) else {
            throw GoldenError("\(path): no such file or directory (looked for \(Files.absolute(path)))")
        }
        let name = capture.split(separator: "/").last.map(String.init) ?? capture
        guard Self.isCapture(name) else {
            throw GoldenError(
                "\(path): not a capture (captures end in .\(Self.captureExtensions.sorted().joined(separator: ", ."))) or a golden file"
            )
        }
        guard Files.exists(capture) else {
            obsoleteGoldens.append(path)
            return
        }
        let directory = capture.lastIndex(of: "/").map { String(capture[..<$0]) } ?? "."
        let golden = Self.goldenPath(for: capture)
        let config = try GoldenConfig.load(directory: directory.isEmpty ? "/" : directory) ?? GoldenConfig()
        members.append(
            Member(
                capture: capture, golden: golden, hasGolden: Files.exists(golden), config: config,
                allowEmpty: config.captures[name]?.allowEmpty ?? false))
    }
}
