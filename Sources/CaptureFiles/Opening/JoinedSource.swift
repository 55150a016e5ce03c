import ByteReading
import CaptureModel

/// How the parts of a joined session are put in order.
enum JoinOrder {
    /// As the command line gives them: refused when they are not in time order.
    case asGiven
    /// An Android rotation, `.last` first: refused when not in time order.
    case rotation
    /// By their first record's time (a sysdiagnose's PacketLogger files).
    case byTime
}

/// One part of a joined session, opened when needed: once to survey it, once to read it.
struct JoinPart {
    var name: String
    var open: (OpenSession) throws(CaptureError) -> Opened
}

/// What the survey of one part found, before anything is read for real.
struct PartSurvey {
    var part: JoinPart
    var format: CaptureFormat
    var linkType: LinkType
    var records = 0
    var first: Int64?
    var last: Int64?
    var controller: String?
}

extension OpenSession {
    /// Several captures as one session: each part is surveyed first (span, datalink, controller),
    /// so that files from different adapters or out of time order are refused before any output.
    func join(_ parts: [JoinPart], order: JoinOrder) throws(CaptureError) -> Opened {
        var surveys: [PartSurvey] = []
        for part in parts {
            let session = OpenSession(partOf: self)
            let opened = try part.open(session)
            let reader = CaptureReader(path: part.name, opened: opened, contents: session.contents)
            var survey = PartSurvey(part: part, format: opened.format, linkType: reader.linkType)
            reader.forEach { record in
                survey.records += 1
                let ts = record.timestamp
                if survey.first.map({ ts < $0 }) ?? true { survey.first = ts }
                if survey.last.map({ ts > $0 }) ?? true { survey.last = ts }
                if survey.controller == nil { survey.controller = ControllerAddress.find(in: record) }
                return true
            }
            surveys.append(survey)
        }
        if order == .byTime {
            surveys.sort { ($0.first ?? .max) < ($1.first ?? .max) }
        }
        if !request.force { try check(surveys) }
        var previousEnd: Int64?
        contents.value.parts = surveys.map { survey in
            defer { if let last = survey.last { previousEnd = last } }
            let gap: Int64? = previousEnd.flatMap { end in survey.first.map { $0 &- end } }
            return JoinedPart(
                name: survey.part.name, records: survey.records, firstTimestamp: survey.first, lastTimestamp: survey.last,
                gapBefore: gap, controller: survey.controller)
        }
        contents.value.read += surveys.map(\.part.name)
        let source = JoinedSource(parts: surveys.map(\.part), session: self, linkType: surveys.first?.linkType ?? .btsnoopUART)
        return Opened(source: .other(source), format: surveys.first?.format ?? .btsnoop)
    }

    private func check(_ surveys: [PartSurvey]) throws(CaptureError) {
        for (a, b) in zip(surveys, surveys.dropFirst()) {
            let pair = "cannot join \(a.part.name) and \(b.part.name)"
            let force = "; give --force to join them anyway"
            if a.linkType != b.linkType {
                throw .refused("\(pair): one is \(a.linkType.name), the other \(b.linkType.name), so they are not one session\(force)")
            }
            if let x = a.controller, let y = b.controller, x != y {
                throw .refused("\(pair): they come from different adapters (controller \(x), then \(y))\(force)")
            }
            if let end = a.last, let start = b.first, start < end {
                let seconds = Double(end &- start) / 1e6
                throw .refused(
                    "\(pair): they are out of time order (\(b.part.name) starts \(seconds) s before \(a.part.name) ends); give the older first, or --force to join them anyway")
            }
        }
    }
}

/// Reads the parts of a joined session one after the other, as one capture: frames numbered on
/// across them, damage reported with the part it is in. The tracker reading this one source carries
/// connections, GATT discovery and request/response pairs from one part into the next.
final class JoinedSource: FormatReader {
    let linkType: LinkType
    private let parts: [JoinPart]
    private let session: OpenSession
    private var index = 0
    private var current: CaptureReader?
    /// Frames of the parts before the current one.
    private var frameBase = 0
    /// The highest frame seen in the current part (records and damaged records).
    private var lastFrame = 0
    /// The current part's problems already copied into `problems`.
    private var merged = 0
    private(set) var problems = ProblemLog()

    init(parts: [JoinPart], session: OpenSession, linkType: LinkType) {
        self.parts = parts
        self.session = session
        self.linkType = linkType
    }

    func next() -> CaptureRecord? {
        while true {
            guard let reader = current ?? openNext() else { return nil }
            if let record = reader.next() {
                if reader.problems.count > merged { merge(reader) }
                lastFrame = max(lastFrame, record.frame)
                var joined = record
                joined.frame += frameBase
                return joined
            }
            merge(reader)
            frameBase += lastFrame
            current = nil
            index += 1
        }
    }

    private func openNext() -> CaptureReader? {
        while index < parts.count {
            let part = parts[index]
            let partSession = OpenSession(partOf: session)
            do {
                let reader = CaptureReader(path: part.name, opened: try part.open(partSession), contents: partSession.contents)
                current = reader
                merged = 0
                lastFrame = 0
                return reader
            } catch {
                // It was read a moment ago, in the survey; gone now (deleted, changed).
                problems.add(CaptureProblem(kind: .readError, frame: frameBase + 1, offset: 0, reason: "\(part.name): \(error)"))
                index += 1
            }
        }
        return nil
    }

    private func merge(_ reader: CaptureReader) {
        let log = reader.problems
        for problem in log.items.dropFirst(merged) {
            var joined = problem
            if problem.kind == .badRecord { lastFrame = max(lastFrame, problem.frame) }
            joined.frame += frameBase
            joined.reason = "\(parts[index].name): \(problem.reason)"
            problems.add(joined)
        }
        merged = log.items.count
    }
}

/// The controller's own address, from its answer to HCI Read BD_ADDR (Core v5.4, Vol 4, Part E,
/// §7.4.6) or a Linux monitor New Index record: how the parts of a join are told to be one adapter.
enum ControllerAddress {
    static func find(in record: CaptureRecord) -> String? {
        var reader = ByteReader(record.payload)
        do {
            switch record.kind {
            case .event:
                // Command Complete (0x0E) for Read BD_ADDR (opcode 0x1009), status 0.
                guard try reader.u8() == 0x0E else { return nil }
                try reader.skip(2)
                guard try reader.u16le() == 0x1009, try reader.u8() == 0 else { return nil }
            case .other where record.linkType.isMonitor && record.sourceType == 0:
                try reader.skip(2)  // New Index: type, bus, address, name
            default:
                return nil
            }
            let bytes = try reader.array(6)
            return bytes.reversed().map { b in String(b >> 4, radix: 16, uppercase: true) + String(b & 0xF, radix: 16, uppercase: true) }
                .joined(separator: ":")
        } catch {
            return nil
        }
    }
}
