import Handoff

/// `golden update`: writes each capture's golden from what the decoders give now, exactly as they
/// give it, and says what that changed.
public struct GoldenUpdate: Sendable, Equatable {
    public struct Result: Sendable, Equatable {
        public var capture: String
        public var golden: String
        public var outcome: Outcome
        /// golden.json allows this capture to decode to no readings.
        public var allowEmpty = false

        /// Readings in the golden as it now is; nil when the update failed.
        public var readings: Int? {
            switch outcome {
            case .created(let count), .unchanged(let count), .updated(_, _, let count): count
            case .failed, .badSetting: nil
            }
        }

        /// The capture gave no readings and golden.json does not say that is meant: its golden is
        /// empty, and `golden check --strict` fails it.
        public var isUnexpectedlyEmpty: Bool { readings == 0 && !allowEmpty }
    }

    public enum Outcome: Sendable, Equatable {
        case created(readings: Int)
        /// The golden was rewritten; `counts` compares old and new exactly (no ignores or
        /// tolerances), and `brokenLines` old lines were not readings.
        case updated(counts: DiffCounts, brokenLines: Int, readings: Int)
        case unchanged(readings: Int)
        /// Nothing was written.
        case failed(String)
        /// Nothing was written: a setting for the capture is wrong.
        case badSetting(String)
    }

    public var results: [Result]
    /// Goldens whose capture is gone; they are reported, not deleted.
    public var obsoleteGoldens: [String]

    public static func run(
        _ suite: GoldenSuite, overrides: GoldenConfig = GoldenConfig(), jobs: Int = Parallel.processorCount,
        decode: @escaping CaptureDecoder
    ) -> GoldenUpdate {
        let results = Parallel.map(suite.members, width: jobs, cost: { Files.size($0.capture) ?? 0 }) { member in
            Result(
                capture: member.capture, golden: member.golden, outcome: update(member, overrides, decode),
                allowEmpty: member.allowEmpty)
        }
        return GoldenUpdate(results: results, obsoleteGoldens: suite.obsoleteGoldens)
    }

    private static func update(
        _ member: GoldenSuite.Member, _ overrides: GoldenConfig, _ decode: CaptureDecoder
    ) -> Outcome {
        let config = member.config.overridden(by: overrides)
        do {
            let new = try ReadingsSource.decodeCapture(member.capture, options: config.decodeOptions, decode: decode)
            guard Files.exists(member.golden) else {
                try Files.writeAtomically(new, to: member.golden)
                return .created(readings: ReadingLines(new).count)
            }
            let old = try Files.read(member.golden)
            if ReadingLines.sameBytes(old, new) { return .unchanged(readings: ReadingLines(new).count) }
            let report = ReadingsDiff.compare(
                expected: ReadingLines(old), actual: ReadingLines(new),
                settings: DiffSettings(alignment: config.alignment ?? .frame))
            try Files.writeAtomically(new, to: member.golden)
            return .updated(
                counts: report.counts, brokenLines: report.problems.count { $0.side == .expected },
                readings: ReadingLines(new).count)
        } catch {
            return error.kind == .setting ? .badSetting(error.message) : .failed(error.message)
        }
    }

    /// 2 when a setting is wrong, 3 when a capture could not be decoded or its golden not written, else 0.
    public var exitStatus: Int32 {
        if results.contains(where: { if case .badSetting = $0.outcome { true } else { false } }) { return 2 }
        return results.contains { if case .failed = $0.outcome { true } else { false } } ? 3 : 0
    }
}
