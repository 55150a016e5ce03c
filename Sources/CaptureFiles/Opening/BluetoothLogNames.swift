/// Where phones put their Bluetooth logs, by name: how an archive or a directory's logs are found
/// and in which order a rotated pair is read (`../shared/specs/android-logs.md`).
enum BluetoothLogNames {
    /// Where a bug report keeps the full snoop logs.
    static let androidLogDirectory = "FS/data/misc/bluetooth/logs/"
    /// iOS sysdiagnose: PacketLogger files under `logs/Bluetooth/`, the current one named so.
    static let appleLatest = "bluetoothd-hci-latest.pklg"

    static func basename(_ name: String) -> Substring {
        name.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(name)
    }

    /// An Android snoop log: its family (0: the full `btsnoop_hci.log`, 1: the filtered or summary
    /// `btsnooz_hci.log`) and its place in a rotation (0: the older `.last`, 1: the current file).
    static func androidRank(_ name: String) -> (family: Int, rotation: Int)? {
        switch basename(name) {
        case "btsnoop_hci.log": (0, 1)
        case "btsnoop_hci.log.last": (0, 0)
        case "btsnooz_hci.log": (1, 1)
        case "btsnooz_hci.log.last": (1, 0)
        default: nil
        }
    }

    /// The main text of a bug report: `bugreport-<device>-<build>-<date>.txt`.
    static func isBugReportText(_ name: String) -> Bool {
        let base = basename(name)
        return base.hasPrefix("bugreport") && base.hasSuffix(".txt")
    }

    /// A PacketLogger file of an iOS sysdiagnose.
    static func isAppleLog(_ name: String) -> Bool {
        name.hasSuffix(".pklg") && (name.hasPrefix("logs/Bluetooth/") || name.contains("/logs/Bluetooth/"))
    }

    /// A file named as captures are: read from an archive that is not a bug report or sysdiagnose.
    static func isCaptureName(_ name: String) -> Bool {
        let base = basename(name).lowercased()
        return [".btsnoop", ".cfa", ".snoop", ".pcap", ".pcapng", ".pklg", ".btsnoop.gz", ".pcap.gz", ".pcapng.gz"]
            .contains { base.hasSuffix($0) }
    }

    /// Whether `name` is the member `wanted` names: the same path, or `wanted` ends it after a "/".
    static func matches(_ name: String, _ wanted: String) -> Bool {
        name == wanted || name.hasSuffix("/" + wanted)
    }

    /// The snoop logs to read, oldest first: the full family when present, else the summary one;
    /// those under the bug report's log directory before any elsewhere.
    static func rotation(_ names: [String]) -> [String] {
        let ranked = names.compactMap { name in androidRank(name).map { (name, $0) } }
        guard !ranked.isEmpty else { return [] }
        let preferred = ranked.filter { $0.0.contains(androidLogDirectory) }
        let pool = preferred.isEmpty ? ranked : preferred
        let family = pool.map(\.1.family).min()!
        // One directory: the first holding a log of that family.
        let directory = pool.first { $0.1.family == family }.map { String($0.0.dropLast(basename($0.0).count)) } ?? ""
        return pool.filter { $0.1.family == family && String($0.0.dropLast(basename($0.0).count)) == directory }
            .sorted { $0.1.rotation < $1.1.rotation }.map(\.0)
    }
}
