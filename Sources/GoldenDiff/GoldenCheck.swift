import Handoff

/// `golden check`: every capture of a suite decoded and compared with its golden, in parallel.
public struct GoldenCheck: Sendable, Equatable {
    /// One capture's result.
    public struct Result: Sendable, Equatable {
        public var capture: String
        public var golden: String
        public var outcome: Outcome
        /// golden.json allows this capture to decode to no readings.
        public var allowEmpty = false

        /// The golden holds no readings, the capture gives none, and golden.json does not say that
        /// is meant: a check that passes on nothing (it fails under `--strict`).
        public var isUnexpectedlyEmpty: Bool {
            guard case .compared(let report) = outcome, !allowEmpty else { return false }
            return report.expectedCount == 0 && report.actualCount == 0 && report.problems.isEmpty
        }
    }

    public enum Outcome: Sendable, Equatable {
        case compared(DiffReport)
        case noGolden
        /// The capture could not be decoded, or its golden not read.
        case unreadable(String)
        /// A setting for it is wrong (a golden.json decode option the decoder refuses).
        case badSetting(String)
    }

    public var results: [Result]
    public var obsoleteGoldens: [String]
    /// Whether captures without a golden, goldens without a capture and empty goldens (unless
    /// allowed) fail the check.
    public var strict: Bool

    /// Checks every member of `suite`. Settings come from each capture's golden.json with
    /// `overrides` (the command line) on top; `jobs` captures are checked at a time.
    public static func run(
        _ suite: GoldenSuite, overrides: GoldenConfig = GoldenConfig(), strict: Bool,
        jobs: Int = Parallel.processorCount,
        decode: @escaping CaptureDecoder
    ) -> GoldenCheck {
        let results = Parallel.map(suite.members, width: jobs, cost: { Files.size($0.capture) ?? 0 }) { member in
            Result(
                capture: member.capture, golden: member.golden, outcome: check(member, overrides, decode),
                allowEmpty: member.allowEmpty)
        }
        return GoldenCheck(results: results, obsoleteGoldens: suite.obsoleteGoldens, strict: strict)
    }

    private static func check(
        _ member: GoldenSuite.Member, _ overrides: GoldenConfig, _ decode: CaptureDecoder
    ) -> Outcome {
        guard member.hasGolden else { return .noGolden }
        let config = member.config.overridden(by: overrides)
        do {
            var golden = try GoldenStream(golden: member.golden, settings: config.settings)
            try ReadingsSource.stream(member.capture, options: config.decodeOptions, decode: decode) { golden.add($0) }
            switch try golden.finish() {
            case .same(let report):
                return .compared(report)
            case .different(let expected, let actual):
                return .compared(
                    ReadingsDiff.compare(
                        expected: ReadingLines(expected), actual: ReadingLines(actual), settings: config.settings))
            }
        } catch {
            return error.kind == .setting ? .badSetting(error.message) : .unreadable(error.message)
        }
    }

    /// How the captures came out.
    public struct Summary: Sendable, Equatable {
        public var captures = 0
        public var passed = 0
        public var differing = 0
        public var unreadable = 0
        /// Captures whose golden holds lines that are not readings.
        public var brokenGoldens = 0
        public var withoutGolden = 0
        public var obsoleteGoldens = 0
        /// Captures that give no readings against an empty golden, without golden.json allowing it.
        public var emptyGoldens = 0
        public var badSettings = 0
    }

    public var summary: Summary {
        var summary = Summary(captures: results.count, obsoleteGoldens: obsoleteGoldens.count)
        for result in results {
            switch result.outcome {
            case .compared(let report):
                if report.hasDifferences { summary.differing += 1 }
                if !report.problems.isEmpty { summary.brokenGoldens += 1 }
                if result.isUnexpectedlyEmpty {
                    summary.emptyGoldens += 1
                } else if !report.hasDifferences, report.problems.isEmpty {
                    summary.passed += 1
                }
            case .noGolden: summary.withoutGolden += 1
            case .unreadable: summary.unreadable += 1
            case .badSetting: summary.badSettings += 1
            }
        }
        return summary
    }

    /// Exit status: 2 when a setting is wrong, 3 when an input could not be read, 1 for differences
    /// (and, when strict, for missing, obsolete or empty goldens, or no capture at all), else 0.
    public var exitStatus: Int32 {
        let summary = summary
        if summary.badSettings > 0 { return 2 }
        if summary.unreadable > 0 || summary.brokenGoldens > 0 { return 3 }
        if summary.differing > 0 { return 1 }
        if strict, summary.withoutGolden + summary.obsoleteGoldens + summary.emptyGoldens > 0 { return 1 }
        if strict, summary.captures == 0 { return 1 }
        return 0
    }
}
