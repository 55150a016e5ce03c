#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import JSON

/// One value that differs between the expected and the actual reading.
public struct FieldChange: Sendable, Equatable {
    /// A field name (`temperature_c`), a top-level key (`ts`) or a dotted path (`error.reason`).
    public var field: String
    /// nil when the value is absent on that side.
    public var expected: JSONValue?
    public var actual: JSONValue?
    /// The tolerance the numbers were held to, when one applied.
    public var tolerance: Double?

    public init(field: String, expected: JSONValue?, actual: JSONValue?, tolerance: Double? = nil) {
        self.field = field
        self.expected = expected
        self.actual = actual
        self.tolerance = tolerance
    }
}

/// Compares two readings value by value, under the ignores and tolerances of `settings`.
struct FieldComparison {
    let settings: DiffSettings
    let keyMembers: Set<String>

    init(_ settings: DiffSettings) {
        self.settings = settings
        keyMembers = settings.keyMembers
    }

    /// The values that differ, and whether some numbers differed only within tolerance.
    func compare(_ expected: JSONObject, _ actual: JSONObject) -> (changes: [FieldChange], withinTolerance: Bool) {
        var result = Result()
        compare(expected, actual, parent: nil, into: &result)
        return (result.changes, result.withinTolerance)
    }

    private struct Result {
        var changes: [FieldChange] = []
        var withinTolerance = false
    }

    /// Fields are named alone (`temperature_c`), other nested values by their path (`error.reason`).
    private func path(_ key: String, in parent: String?) -> String {
        switch parent {
        case nil: key
        case "fields": key
        case let parent?: parent + "." + key
        }
    }

    private func compare(_ expected: JSONObject, _ actual: JSONObject, parent: String?, into result: inout Result) {
        for (key, value) in expected.entries {
            if parent == nil, keyMembers.contains(key) { continue }
            let path = path(key, in: parent)
            if settings.isIgnored(path) { continue }
            guard let other = actual[key] else {
                result.changes.append(FieldChange(field: path, expected: pruned(value, path), actual: nil))
                continue
            }
            if case .object(let left) = value, case .object(let right) = other {
                compare(left, right, parent: path, into: &result)
                continue
            }
            let tolerance = settings.tolerance(for: path)
            switch Self.closeness(value, other, tolerance: tolerance) {
            case .same: break
            case .withinTolerance: result.withinTolerance = true
            case .different:
                let numeric = value.isNumeric && other.isNumeric && tolerance > 0
                result.changes.append(
                    FieldChange(field: path, expected: value, actual: other, tolerance: numeric ? tolerance : nil))
            }
        }
        for (key, value) in actual.entries where expected[key] == nil {
            if parent == nil, keyMembers.contains(key) { continue }
            let path = path(key, in: parent)
            if settings.isIgnored(path) { continue }
            result.changes.append(FieldChange(field: path, expected: nil, actual: pruned(value, path)))
        }
    }

    /// A value shown whole (present on one side only), without the parts that are ignored.
    private func pruned(_ value: JSONValue, _ path: String) -> JSONValue {
        guard case .object(let object) = value, !settings.ignored.isEmpty else { return value }
        let kept = object.entries.compactMap { entry -> (key: String, value: JSONValue)? in
            let inner = self.path(entry.key, in: path)
            return settings.isIgnored(inner) ? nil : (entry.key, pruned(entry.value, inner))
        }
        return .object(JSONObject(kept))
    }

    enum Closeness: Comparable { case same, withinTolerance, different }

    /// How close two values are. Objects are compared key by key in any order, strings scalar by
    /// scalar (`é` and `e` + combining accent differ, as they do in the bytes of a golden).
    static func closeness(_ a: JSONValue, _ b: JSONValue, tolerance: Double) -> Closeness {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return numbers(x, y, tolerance: tolerance)
        case (.array(let xs), .array(let ys)):
            guard xs.count == ys.count else { return .different }
            var worst = Closeness.same
            for (x, y) in zip(xs, ys) {
                worst = max(worst, closeness(x, y, tolerance: tolerance))
                if worst == .different { break }
            }
            return worst
        case (.object(let xs), .object(let ys)):
            guard xs.count == ys.count else { return .different }
            var worst = Closeness.same
            for (key, x) in xs.entries {
                guard let y = ys[key] else { return .different }
                worst = max(worst, closeness(x, y, tolerance: tolerance))
                if worst == .different { break }
            }
            return worst
        case (.string(let x), .string(let y)):
            return sameScalars(x, y) ? .same : .different
        default:
            return a == b ? .same : .different
        }
    }

    /// Byte for byte in UTF-8, which is scalar by scalar (String's == also takes canonically
    /// equivalent spellings as equal).
    static func sameScalars(_ x: String, _ y: String) -> Bool {
        var x = x
        var y = y
        return x.withUTF8 { a in
            y.withUTF8 { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
    }

    /// Numbers are the same when they are the same decimal value, however written (`25`, `25.0`,
    /// `2.5e1`), exactly: never through a Double, which would make 9007199254740993 equal to
    /// 9007199254740992. Within a tolerance, integers are compared exactly and others as doubles
    /// with a few units in the last place of slack, so that a tolerance of 0.01 accepts
    /// 23.45 → 23.46 (which differ by 0.010000000000001563 as doubles).
    static func numbers(_ x: String, _ y: String, tolerance: Double) -> Closeness {
        if x == y { return .same }
        let a = Double(x)
        let b = Double(y)
        // Equal values round to equal doubles: only equal doubles need the exact decimals.
        if a == nil || b == nil || a == b {
            guard let exactX = ExactNumber(x), let exactY = ExactNumber(y) else { return .different }
            if exactX == exactY { return .same }
        }
        guard tolerance > 0 else { return .different }
        if let i = Int64(x) ?? ExactNumber(x)?.int64, let j = Int64(y) ?? ExactNumber(y)?.int64 {
            let (difference, overflow) = i.subtractingReportingOverflow(j)
            if !overflow { return Double(difference.magnitude) <= tolerance ? .withinTolerance : .different }
        }
        guard let a, let b, a.isFinite, b.isFinite else { return .different }
        let slack = 4 * max(abs(a), abs(b)).ulp
        return abs(a - b) <= tolerance + slack ? .withinTolerance : .different
    }
}

extension JSONValue {
    var isNumeric: Bool {
        switch self {
        case .number: true
        case .array(let elements): !elements.isEmpty && elements.allSatisfy(\.isNumeric)
        default: false
        }
    }
}
