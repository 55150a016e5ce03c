import JSON
import PayloadDecoders

/// A value that changes from packet to packet: constant, ramp, sine, list, counter or random.
///
///     23.45                                         constant
///     {"ramp": [20, 30]}                            from 20 at the start to 30 at the end
///     {"sine": {"mean": 22, "amplitude": 3, "period_s": 60}}
///     {"list": [1, 2, 3]}                           cycled
///     {"counter": 100, "step": 1, "wrap": 65536}     100, 101, … (wraps when given)
///     {"random": {"min": 40, "max": 60}}            uniform, from the scenario's seed
///     {"round": 2, …}                               any numeric series, rounded to 2 decimals
indirect enum ValueSeries: Sendable {
    case constant(FieldValue)
    case ramp(Double, Double)
    case sine(mean: Double, amplitude: Double, period: Double)
    case list([FieldValue])
    case counter(start: Int64, step: Int64, wrap: Int64?)
    case random(min: Double, max: Double, integer: Bool)
    case rounded(ValueSeries, decimals: Int)

    /// `index`: the packet's number in its stream; `progress`: 0 at the stream's start, 1 at its end;
    /// `seconds`: time since the scenario started.
    func value(index: Int, progress: Double, seconds: Double, random: inout SeededRandom) -> FieldValue {
        switch self {
        case .constant(let value): return value
        case .ramp(let from, let to): return .double(from + (to - from) * min(max(progress, 0), 1))
        case .sine(let mean, let amplitude, let period):
            return .double(mean + amplitude * Self.sin(2 * Double.pi * seconds / period))
        case .list(let values): return values.isEmpty ? .null : values[index % values.count]
        case .counter(let start, let step, let wrap):
            let raw = start &+ step &* Int64(index)
            // The remainder is in (-wrap, wrap); adding wrap only to a negative one cannot overflow.
            return .int(wrap.map { raw % $0 < 0 ? raw % $0 + $0 : raw % $0 } ?? raw)
        case .random(let low, let high, let integer):
            let x = low + (high - low) * random.unit()
            return integer ? .int(Self.clampedInteger(x.rounded(.down))) : .double(x)
        case .rounded(let inner, let decimals):
            let value = inner.value(index: index, progress: progress, seconds: seconds, random: &random)
            guard case .double(let x) = value else { return value }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return .double((x * scale).rounded() / scale)
        }
    }

    /// The Int64 nearest a whole-number `x`: bounds such as ±1e300 (or their infinite difference)
    /// saturate instead of trapping; NaN is 0.
    static func clampedInteger(_ x: Double) -> Int64 {
        if x.isNaN { return 0 }
        if x >= 0x1p63 { return .max }
        if x < -0x1p63 { return .min }
        return Int64(x)
    }

    /// sin without Foundation: range-reduced Taylor series, exact enough for test data.
    static func sin(_ x: Double) -> Double {
        var y = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if y > Double.pi { y -= 2 * Double.pi }
        if y < -Double.pi { y += 2 * Double.pi }
        var term = y
        var sum = y
        for n in 1..<12 {
            term *= -y * y / Double((2 * n) * (2 * n + 1))
            sum += term
        }
        return sum
    }

    static func parse(_ json: JSONValue, at path: String, _ reader: ScenarioReader) throws(ScenarioError) -> ValueSeries {
        guard case .object(let object) = json else { return .constant(try fieldValue(json, at: path, reader)) }
        func number(_ value: JSONValue?, _ name: String) throws(ScenarioError) -> Double {
            guard let x = value?.double else { throw reader.error("\(path).\(name)", "expected a number") }
            return x
        }
        if let decimals = object["round"] {
            guard let d = decimals.int64, (0...9).contains(d) else { throw reader.error("\(path).round", "expected 0…9") }
            var rest = object
            rest.entries.removeAll { $0.key == "round" }
            return .rounded(try parse(.object(rest), at: path, reader), decimals: Int(d))
        }
        if let ramp = object["ramp"] {
            guard let ends = ramp.array, ends.count == 2 else { throw reader.error("\(path).ramp", "expected [from, to]") }
            return .ramp(try number(ends[0], "ramp[0]"), try number(ends[1], "ramp[1]"))
        }
        if let sine = object["sine"] {
            let period = try number(sine["period_s"], "sine.period_s")
            guard period > 0 else { throw reader.error("\(path).sine.period_s", "must be positive") }
            return .sine(
                mean: try number(sine["mean"], "sine.mean"), amplitude: try number(sine["amplitude"], "sine.amplitude"),
                period: period)
        }
        if let list = object["list"] {
            guard let values = list.array, !values.isEmpty else { throw reader.error("\(path).list", "expected a non-empty list") }
            var parsed: [FieldValue] = []
            for (i, v) in values.enumerated() { parsed.append(try fieldValue(v, at: "\(path).list[\(i)]", reader)) }
            return .list(parsed)
        }
        if let start = object["counter"] {
            guard let s = start.int64 else { throw reader.error("\(path).counter", "expected an integer") }
            let step = object["step"]?.int64 ?? 1
            let wrap = object["wrap"]?.int64
            if let wrap, wrap <= 0 { throw reader.error("\(path).wrap", "must be positive") }
            return .counter(start: s, step: step, wrap: wrap)
        }
        if let random = object["random"] {
            let low = try number(random["min"], "random.min")
            let high = try number(random["max"], "random.max")
            guard high >= low else { throw reader.error("\(path).random", "max is below min") }
            return .random(min: low, max: high, integer: random["integer"]?.bool ?? false)
        }
        throw reader.error(path, "expected a value or a series: ramp, sine, list, counter or random")
    }

    static func fieldValue(_ json: JSONValue, at path: String, _ reader: ScenarioReader) throws(ScenarioError) -> FieldValue {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let text):
            if let i = Int64(text) { return .int(i) }
            if let d = Double(text) { return .double(d) }
            throw reader.error(path, "not a number")
        case .array(let values):
            var parsed: [FieldValue] = []
            for (i, v) in values.enumerated() { parsed.append(try fieldValue(v, at: "\(path)[\(i)]", reader)) }
            return .list(parsed)
        case .object: throw reader.error(path, "a series is not allowed here")
        }
    }
}

/// A set of fields, each a series, evaluated together for one packet.
struct FieldSeries: Sendable {
    var entries: [(name: String, series: ValueSeries)]

    func evaluate(index: Int, progress: Double, seconds: Double, random: inout SeededRandom) -> Fields {
        var fields = Fields()
        for entry in entries {
            fields.append(entry.name, entry.series.value(index: index, progress: progress, seconds: seconds, random: &random))
        }
        return fields
    }
}
