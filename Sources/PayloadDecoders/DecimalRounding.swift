// Numbers as the device meant them. A value computed from scaled fields carries no more decimals
// than its inputs do: EnvSensor's power is V × I with both in 0.01 steps, so it has at most four
// decimals, and binary floating point must not add more (-46.199999999999996 is -46.2).

/// `value` rounded half away from zero to `decimals` places, as the Double nearest that decimal
/// (which prints in its shortest form: -46.2). Values too large for the places to matter, and
/// non-finite ones, are returned unchanged.
public func rounded(_ value: Double, decimals: Int) -> Double {
    guard value.isFinite, decimals >= 0, decimals <= 15 else { return value }
    var power = 1.0
    for _ in 0..<decimals { power *= 10 }
    let scaled = value * power
    // Beyond 2^52 a Double holds no fraction: nothing to round, and the product would lose digits.
    guard scaled.magnitude < 0x1p52 else { return value }
    // An integer divided by a power of ten is correctly rounded: the nearest Double to the decimal.
    return scaled.rounded(.toNearestOrAwayFromZero) / power
}

/// The decimal places a step such as a scale factor carries: 0.01 → 2, 0.35 → 2, 0.05 → 2, 2 → 0,
/// 1e-5 → 5. From the shortest text that reads back as the same Double.
public func decimalPlaces(of step: Double) -> Int {
    guard step.isFinite, step != 0 else { return 0 }
    let text = String(step.magnitude)
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
        mantissa = text[..<e]
        exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    var fraction = 0
    if let dot = mantissa.firstIndex(of: ".") {
        fraction = mantissa[mantissa.index(after: dot)...].reversed().drop(while: { $0 == "0" }).count
    }
    return max(0, fraction - exponent)
}
