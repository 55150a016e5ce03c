import ByteReading
import PayloadDecoders

/// One broken rule: which packet (frame, device), which field, which rule, and the value.
public struct RuleViolation: Sendable, Hashable, CustomStringConvertible {
    public var frame: Int
    /// Microseconds since the Unix epoch.
    public var timestamp: Int64
    public var device: String
    public var decoder: String
    /// Nil for rules on whole packets (cadence, and decode errors without a field).
    public var field: String?
    /// min, max, enum, counter, max_jump, cadence or decode.
    public var rule: String
    /// The value that broke the rule (for cadence: the interval in milliseconds).
    public var value: FieldValue
    /// What was expected, in words.
    public var message: String

    public var description: String {
        "frame \(frame) \(device) \(decoder)\(field.map { " \($0)" } ?? ""): \(rule): \(message)"
    }
}

/// Checks readings against their layouts' rules, one reading at a time, in capture order.
///
/// Per-field rules (min, max, enum) look at one reading; counter, max_jump and cadence compare a
/// reading with the previous one from the same device and decoder. Readings that repeat the
/// previous one's dedup key (a device advertising the same packet again) are counted as
/// duplicates and not checked again.
public struct RuleChecker: Sendable {
    /// Counts for one rule of one layout.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        public var decoder: String
        public var rule: LayoutRule
        /// Readings the rule was applied to (for cross-packet rules: pairs of readings).
        public var checked: Int
        public var violations: Int
        public var firstFrame: Int?

        public var description: String {
            let status =
                violations == 0
                ? "ok" : "\(violations) violation\(violations == 1 ? "" : "s") (first at frame \(firstFrame ?? 0))"
            return "\(decoder) \(rule.name) \(rule): \(checked) checked, \(status)"
        }
    }

    /// What a run found, per rule, in the order the layouts list them.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        public var entries: [Entry]
        /// Readings given to `check` for a decoder with rules.
        public var readings: Int
        /// Readings skipped because they repeated the previous one's dedup key.
        public var duplicates: Int
        /// Readings that did not decode (each also a `decode` violation).
        public var decodeErrors: Int

        public var violations: Int { entries.reduce(0) { $0 + $1.violations } + decodeErrors }

        public var description: String {
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            var lines = [
                [
                    count(readings, "reading"), count(duplicates, "duplicate"), count(decodeErrors, "decode error"),
                    count(violations, "violation"),
                ].joined(separator: ", ")
            ]
            lines += entries.map { "  " + $0.description }
            return lines.joined(separator: "\n")
        }
    }

    private struct LayoutRules: Sendable {
        var id: String
        var dedup: [String]?
        /// Indices into `entries`.
        var rules: [(index: Int, rule: LayoutRule)]
    }

    private struct DeviceKey: Hashable, Sendable {
        var decoder: Int
        var device: String
    }

    private struct DeviceState: Sendable {
        var dedup: [FieldValue]?
        var timestamp: Int64
        var values: [String: FieldValue]
    }

    private var layouts: [String: Int] = [:]
    private var rulesByLayout: [LayoutRules] = []
    private var devices: [DeviceKey: DeviceState] = [:]
    public private(set) var summary: Summary

    public init(layouts: [Layout]) {
        var entries: [Entry] = []
        for layout in layouts where self.layouts[layout.id] == nil {
            var rules: [(Int, LayoutRule)] = []
            for rule in layout.rules {
                rules.append((entries.count, rule))
                entries.append(Entry(decoder: layout.id, rule: rule, checked: 0, violations: 0))
            }
            self.layouts[layout.id] = rulesByLayout.count
            rulesByLayout.append(LayoutRules(id: layout.id, dedup: layout.dedupKey, rules: rules))
        }
        summary = Summary(entries: entries, readings: 0, duplicates: 0, decodeErrors: 0)
    }

    /// Checks one decode outcome; a decode error is itself a violation (rule `decode`).
    public mutating func check(
        device: String, frame: Int, timestamp: Int64, decoder: String, outcome: DecodeOutcome
    )
        -> [RuleViolation]
    {
        switch outcome {
        case .fields(let fields):
            return check(device: device, frame: frame, timestamp: timestamp, decoder: decoder, fields: fields)
        case .error(let error):
            guard layouts[decoder] != nil else { return [] }
            summary.readings += 1
            summary.decodeErrors += 1
            return [
                RuleViolation(
                    frame: frame, timestamp: timestamp, device: device, decoder: decoder,
                    field: error.field.isEmpty ? nil : error.field, rule: "decode", value: .string(error.reasonText),
                    message: error.description)
            ]
        }
    }

    /// Checks one reading against its layout's rules and the previous reading from the same device.
    public mutating func check(
        device: String, frame: Int, timestamp: Int64, decoder: String, fields: Fields
    )
        -> [RuleViolation]
    {
        guard let layoutIndex = layouts[decoder] else { return [] }
        let layout = rulesByLayout[layoutIndex]
        summary.readings += 1
        let key = DeviceKey(decoder: layoutIndex, device: device)
        let previous = devices[key]
        let dedup = layout.dedup.map { names in names.map { fields[$0] ?? .null } }
        if let dedup, let previous, previous.dedup == dedup {
            summary.duplicates += 1
            return []
        }
        var violations: [RuleViolation] = []
        func violation(_ index: Int, _ rule: LayoutRule, _ value: FieldValue, _ message: String) {
            summary.entries[index].violations += 1
            if summary.entries[index].firstFrame == nil { summary.entries[index].firstFrame = frame }
            violations.append(
                RuleViolation(
                    frame: frame, timestamp: timestamp, device: device, decoder: decoder, field: rule.field,
                    rule: rule.name,
                    value: value, message: message))
        }
        var remembered: [String: FieldValue] = [:]
        for (index, rule) in layout.rules {
            if case .cadence(let low, let high) = rule.kind {
                guard let previous else { continue }
                summary.entries[index].checked += 1
                // A damaged capture's timestamps can be further apart than Int64 holds: saturate.
                let (difference, overflow) = timestamp.subtractingReportingOverflow(previous.timestamp)
                let interval = overflow ? (timestamp < previous.timestamp ? Int64.min : .max) : difference
                let shown = FieldValue.double(Double(interval) / 1000)
                if let low, interval < low {
                    violation(
                        index, rule, shown,
                        "\(milliseconds(interval)) ms since the previous packet, expected at least \(milliseconds(low)) ms"
                    )
                } else if let high, interval > high {
                    violation(
                        index, rule, shown,
                        "\(milliseconds(interval)) ms since the previous packet, expected at most \(milliseconds(high)) ms"
                    )
                }
                continue
            }
            guard let name = rule.field, let value = fields[name] else { continue }
            switch rule.kind {
            case .minimum(let low):
                guard let n = value.number else { continue }
                summary.entries[index].checked += 1
                if n < low {
                    violation(index, rule, value, "\(value.numberText) is below the minimum \(formatNumber(low))")
                }
            case .maximum(let high):
                guard let n = value.number else { continue }
                summary.entries[index].checked += 1
                if n > high {
                    violation(index, rule, value, "\(value.numberText) is above the maximum \(formatNumber(high))")
                }
            case .enumValues(let names):
                summary.entries[index].checked += 1
                if case .string = value { continue }
                violation(
                    index, rule, value, "\(value.numberText) is not a named value (\(names.joined(separator: ", ")))")
            case .counter(let step, let modulo):
                remembered[name] = value
                guard case .int(let current) = value, case .int(let before)? = previous?.values[name] else { continue }
                summary.entries[index].checked += 1
                let expected = Self.modular(before, plus: step, modulo)
                if current != expected {
                    let advance = Self.modular(current, plus: -Self.modular(before, plus: 0, modulo), modulo)
                    let message: String
                    if advance > step, advance % step == 0, advance < modulo / 2 {
                        let missing = advance / step - 1
                        message = "expected \(expected) after \(before), got \(current) (\(missing) missing)"
                    } else {
                        message = "expected \(expected) after \(before), got \(current)"
                    }
                    violation(index, rule, value, message)
                }
            case .maxJump(let limit):
                remembered[name] = value
                guard let n = value.number, let before = previous?.values[name]?.number, n.isFinite, before.isFinite
                else {
                    continue
                }
                summary.entries[index].checked += 1
                let change = n - before
                if change.magnitude > limit {
                    violation(
                        index, rule, value,
                        "changed by \(formatNumber(change)) (from \(formatNumber(before)) to \(value.numberText)), more than \(formatNumber(limit))"
                    )
                }
            case .cadence:
                break
            }
        }
        devices[key] = DeviceState(dedup: dedup, timestamp: timestamp, values: remembered)
        return violations
    }

    /// (a + b) mod m, in 0..<m, for m > 0 and b > -m. Computed without overflow: counters may be
    /// 64-bit fields with a step and modulo near Int64.max, and their values come from the capture.
    static func modular(_ a: Int64, plus b: Int64, _ m: Int64) -> Int64 {
        var x = a % m
        if x < 0 { x += m }
        var y = b % m
        if y < 0 { y += m }
        return x >= m - y ? x - (m - y) : x + y
    }
}
