import BluetoothPackets
import CaptureModel
import GoldenDiff
import JSON
import Scrub

/// `bluetape scrub IN -o OUT`: a capture that can be shared.
enum ScrubCommand: Command {
    static let spec = CommandSpec(
        name: "scrub",
        abstract: "Rewrite a capture so it can be shared: addresses pseudonymised, pairing keys zeroed.",
        arguments: "IN -o OUT [--names] [--values UUID…] [--keep-oui] [--seed N] [--map MAP.json]",
        discussion: """
            OUT is written in IN's format (btsnoop with its datalink, PacketLogger in its byte order,
            pcap with its link type; pcapng as pcap with the same link type). Every length stays as it
            was, so every tool still reads OUT, and 'bluetape events OUT' is 'bluetape events IN'
            with the pseudonyms in it.

            Addresses: every device address (HCI commands and events, advertising reports, SMP
            identity addresses, AD types that hold addresses, link-layer headers of sniffer captures,
            Linux monitor and management records, and any other copy of a known address in either
            byte order or as text) is replaced by a pseudonym, the same one everywhere. A pseudonym
            keeps the address's type bits: random static stays random static, resolvable private
            stays resolvable-looking, non-resolvable stays non-resolvable. --keep-oui keeps the top
            24 bits (a public address's manufacturer) as well.

            Pairing material is zeroed: SMP confirm and random values, LTK, EDIV and Rand, IRK,
            CSRK, public keys and DHKey checks; the keys, random numbers and encrypted blocks of
            LE Long Term Key Request Reply, LE Enable Encryption, LE Encrypt and LE Rand; classic
            link keys, PIN codes, passkeys and out-of-band values; LL_ENC_REQ and LL_ENC_RSP on air.

            --names replaces device names (Complete and Shortened Local Name, Broadcast Name, Device
            Name reads and writes, Remote Name Request Complete, Read and Write Local Name) by
            device-1, device-2… in the order first seen. A name keeps its length where the format
            fixes it: a longer name becomes device-N padded with spaces, a shorter one d-N, dN or
            N's last digits; in a 248-byte name field device-N stands in full. Copies of a name (4
            bytes or more) elsewhere are replaced too.

            --values UUID… zeroes the values of those characteristics (comma-separated or repeated),
            wherever the tracker resolves a handle to them in the capture.

            Without --seed the pseudonyms are new each run. With it, the same seed and input give
            the same output byte for byte. The seed is a key: whoever knows it can check whether an
            address they guess is in the capture, so keep it private unless reproducibility matters
            more (golden files). --map writes the original-to-pseudonym table (addresses and names)
            as JSON for the capture's owner; it never goes into OUT.

            Sniffer captures: the link-layer CRC of a rewritten PDU is brought in line with its new
            bytes, so a PDU whose CRC was good stays good and a bad one stays bad. Encrypted PDUs
            cannot be rewritten and are written as they were (counted in the summary).

            IN is read twice, so it must be a file. A damaged IN is scrubbed as far as it is read,
            the damage named on stderr (exit code 3).
            """,
        options: [
            .value("output", "OUT", short: "o", "Where to write the scrubbed capture."),
            .flag("names", "Replace device names by device-1, device-2, …"),
            .value("values", "UUID…", "Zero the values of these characteristics (repeatable, comma-separated)."),
            .flag("keep-oui", "Keep the top 24 bits of every address."),
            .value("seed", "N", "Make the pseudonyms reproducible (a whole number)."),
            .value("map", "MAP.json", "Write the original-to-pseudonym table here."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: Context) throws -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "no capture file given" : "give one capture file")
        }
        let input = arguments.positionals[0]
        guard input != "-" else { throw UsageError("scrub reads its input twice: give a file, not stdin") }
        guard let output = arguments.value("output") else { throw UsageError("say where to write with -o OUT") }
        let options = try scrubOptions(arguments)
        if FileIdentity(input) != nil, FileIdentity(input) == FileIdentity(output) {
            throw UsageError("OUT is IN: write the scrubbed capture to another file")
        }
        let mapPath = arguments.value("map")
        if let mapPath, mapPath == output || (FileIdentity(mapPath) != nil && FileIdentity(mapPath) == FileIdentity(output)) {
            throw UsageError("the map must not go into OUT: give it a file of its own")
        }
        let capture = try ScrubbedCapture(path: input)
        if let note = capture.note { context.stderr.line("note: \(note)") }
        let scrubber = Scrubber(options: options)
        let result = try capture.write(to: output, with: scrubber, progress: context.stderr)
        if let mapPath {
            do {
                try Files.writeAtomically(mapJSON(scrubber), to: mapPath)
            } catch {
                throw InputError(error.message)
            }
        }
        context.stderr.line("\(output): \(summary(scrubber.statistics, addresses: scrubber.addressMap.count))")
        if result.unwritable > 0 {
            context.warn("\(input): \(result.unwritable) records could not be written back in this format; left out")
        }
        let problems = result.problems
        guard problems.count > 0 || result.unwritable > 0 else { return .success }
        for problem in problems.items.prefix(5) { context.warn("\(input): \(problem)") }
        if problems.count > 5 { context.warn("\(input): \(problems.count - 5) more damaged records") }
        return .badInput
    }

    static func scrubOptions(_ arguments: ParsedArguments) throws(UsageError) -> ScrubOptions {
        var options = ScrubOptions()
        options.names = arguments.has("names")
        options.keepOUI = arguments.has("keep-oui")
        if let text = arguments.value("seed") {
            guard let seed = UInt64(text) else { throw UsageError("--seed takes a whole number, not '\(text)'") }
            options.seed = seed
        }
        for text in arguments.list("values") {
            guard let uuid = BluetoothUUID(text) else { throw UsageError("--values: '\(text)' is not a UUID") }
            options.values.insert(uuid)
        }
        return options
    }

    /// golden.json's "scrub" options (`scrub.seed`, `scrub.names`, `scrub.keep_oui`, `scrub.values`).
    /// A seed is required: without one the pseudonyms, and so the goldens, would change every run.
    static func scrubOptions(golden: [String: String]) throws(InputError) -> ScrubOptions {
        guard let text = golden["scrub.seed"] else {
            throw InputError("golden.json: \"scrub\" needs a \"seed\", so that the pseudonyms in the goldens stay the same")
        }
        guard let seed = UInt64(text) else { throw InputError("golden.json: scrub seed '\(text)' is not a whole number") }
        var options = ScrubOptions(seed: seed)
        options.names = golden["scrub.names"] == "true"
        options.keepOUI = golden["scrub.keep_oui"] == "true"
        for text in (golden["scrub.values"] ?? "").split(separator: ",") {
            guard let uuid = BluetoothUUID(String(text).trimmed) else {
                throw InputError("golden.json: scrub values: '\(text)' is not a UUID")
            }
            options.values.insert(uuid)
        }
        return options
    }

    static func summary(_ s: ScrubStatistics, addresses: Int) -> String {
        var parts = [
            "\(s.records) records, \(s.recordsRewritten) rewritten", "\(addresses) addresses mapped (\(s.addressesReplaced) replaced)",
            "\(s.keysZeroed) keys zeroed",
        ]
        if s.namesReplaced > 0 { parts.append("\(s.namesReplaced) names replaced") }
        if s.valuesBlanked > 0 { parts.append("\(s.valuesBlanked) values blanked") }
        if s.crcsUpdated > 0 { parts.append("\(s.crcsUpdated) CRCs updated") }
        if s.encryptedPDUsLeft > 0 { parts.append("\(s.encryptedPDUsLeft) encrypted PDUs left as they were") }
        if s.incompleteUnits > 0 { parts.append("\(s.incompleteUnits) incomplete frames rewritten as far as they went") }
        return parts.joined(separator: ", ")
    }

    /// {"addresses": {"original": "pseudonym", …}, "names": {"original": "device-N", …}}
    static func mapJSON(_ scrubber: Scrubber) -> [UInt8] {
        var w = JSONWriter(capacity: 1 << 12)
        w.beginObject()
        w.key("addresses")
        w.beginObject()
        for pair in scrubber.addressMap {
            w.key(escaping: pair.original.description)
            w.string(pair.pseudonym.description)
        }
        w.endObject()
        w.key("names")
        w.beginObject()
        for pair in scrubber.nameMap {
            w.key(escaping: String(decoding: pair.original, as: UTF8.self))
            w.string(pair.pseudonym)
        }
        w.endObject()
        w.endObject()
        w.newline()
        return w.bytes
    }
}

/// A file's device and inode, to tell whether two paths name the same file.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
