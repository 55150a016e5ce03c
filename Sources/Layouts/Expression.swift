import PayloadDecoders

/// A computed field's formula: + − × ÷, parentheses, numbers and names of earlier fields,
/// compiled to postfix so that evaluating it is a loop over a small array.
///
/// Evaluation is Double arithmetic on the fields' decoded (scaled) values, in the order written:
/// `voltage_v * current_ma` is exactly `Double(rawV) / 100 * (Double(rawI) / 100)`.
struct Expression: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case number(Double)
        /// A field's value, by name; the compiler turns it into a register.
        case name(String)
        case register(Int)
        case add, subtract, multiply, divide, negate
    }

    var tokens: [Token]
    /// The deepest the evaluation stack gets.
    var depth: Int

    /// The names the formula uses, in order of first use.
    var names: [String] {
        var seen: [String] = []
        for case .name(let n) in tokens where !seen.contains(n) { seen.append(n) }
        return seen
    }

    struct ParseError: Error {
        var column: Int
        var message: String
    }

    /// Parses `text`; errors give a 1-based column.
    static func parse(_ text: String) throws(ParseError) -> Expression {
        var parser = Parser(chars: Array(text.unicodeScalars))
        try parser.parseSum()
        parser.skipSpace()
        if parser.index < parser.chars.count {
            throw ParseError(column: parser.index + 1, message: "unexpected '\(parser.chars[parser.index])'")
        }
        var depth = 0
        var maximum = 0
        for token in parser.output {
            switch token {
            case .number, .name, .register: depth += 1
            case .negate: break
            default: depth -= 1
            }
            maximum = max(maximum, depth)
        }
        return Expression(tokens: parser.output, depth: maximum)
    }

    private struct Parser {
        let chars: [Unicode.Scalar]
        var index = 0
        var output: [Token] = []

        mutating func skipSpace() {
            while index < chars.count, chars[index] == " " || chars[index] == "\t" { index += 1 }
        }

        mutating func parseSum() throws(ParseError) {
            try parseProduct()
            while true {
                skipSpace()
                guard index < chars.count else { return }
                let c = chars[index]
                guard c == "+" || c == "-" || c == "−" else { return }
                index += 1
                try parseProduct()
                output.append(c == "+" ? .add : .subtract)
            }
        }

        mutating func parseProduct() throws(ParseError) {
            try parseUnary()
            while true {
                skipSpace()
                guard index < chars.count else { return }
                let c = chars[index]
                guard c == "*" || c == "/" || c == "×" || c == "÷" else { return }
                index += 1
                try parseUnary()
                output.append(c == "*" || c == "×" ? .multiply : .divide)
            }
        }

        mutating func parseUnary() throws(ParseError) {
            skipSpace()
            if index < chars.count, chars[index] == "-" || chars[index] == "−" {
                index += 1
                try parseUnary()
                output.append(.negate)
                return
            }
            if index < chars.count, chars[index] == "+" {
                index += 1
                try parseUnary()
                return
            }
            try parseAtom()
        }

        mutating func parseAtom() throws(ParseError) {
            skipSpace()
            guard index < chars.count else {
                throw ParseError(column: index + 1, message: "expected a field name, a number or '(' at the end")
            }
            let c = chars[index]
            if c == "(" {
                let open = index
                index += 1
                try parseSum()
                skipSpace()
                guard index < chars.count, chars[index] == ")" else {
                    throw ParseError(column: open + 1, message: "'(' is not closed")
                }
                index += 1
                return
            }
            if c.properties.numericType != nil && c.isASCII || c == "." {
                let start = index
                while index < chars.count, chars[index].isASCII,
                    chars[index].properties.numericType != nil || chars[index] == "."
                {
                    index += 1
                }
                if index < chars.count, chars[index] == "e" || chars[index] == "E" {
                    index += 1
                    if index < chars.count, chars[index] == "-" || chars[index] == "+" { index += 1 }
                    while index < chars.count, chars[index].isASCII, chars[index].properties.numericType != nil {
                        index += 1
                    }
                }
                let text = String(String.UnicodeScalarView(chars[start..<index]))
                guard let value = Double(text) else {
                    throw ParseError(column: start + 1, message: "'\(text)' is not a number")
                }
                output.append(.number(value))
                return
            }
            if c.isASCII, c.properties.isAlphabetic || c == "_" {
                let start = index
                while index < chars.count, chars[index].isASCII,
                    chars[index].properties.isAlphabetic || chars[index].properties.numericType != nil
                        || chars[index] == "_"
                {
                    index += 1
                }
                output.append(.name(String(String.UnicodeScalarView(chars[start..<index]))))
                return
            }
            throw ParseError(column: index + 1, message: "unexpected '\(c)', expected a field name, a number or '('")
        }
    }

    /// Evaluates with registers holding the fields' numbers. A register or a stack slot outside
    /// the buffers (a formula the compiler would not make) gives NaN, never an access outside them.
    @inline(__always)
    func evaluate(_ registers: UnsafeMutableBufferPointer<Double>, stack: UnsafeMutableBufferPointer<Double>) -> Double {
        var top = -1
        let limit = stack.count
        for token in tokens {
            switch token {
            case .number(let v):
                top += 1
                guard top < limit else { return .nan }
                stack[top] = v
            case .register(let r):
                top += 1
                guard top < limit, r >= 0, r < registers.count else { return .nan }
                stack[top] = registers[r]
            case .name:
                top += 1
                guard top < limit else { return .nan }
                stack[top] = .nan
            case .negate:
                guard top >= 0 else { return .nan }
                stack[top] = -stack[top]
            case .add, .subtract, .multiply, .divide:
                guard top >= 1 else { return .nan }
                top -= 1
                let (a, b) = (stack[top], stack[top + 1])
                switch token {
                case .add: stack[top] = a + b
                case .subtract: stack[top] = a - b
                case .multiply: stack[top] = a * b
                default: stack[top] = a / b
                }
            }
        }
        return top == 0 ? stack[0] : .nan
    }

    /// The decimals the result carries (DecimalRounding), from those of the fields it uses:
    /// the larger for + and −, the sum for ×, and for ÷ only by a constant of 2s and 5s.
    /// Nil when no finite resolution follows (an input without one, ÷ 3, ÷ a field).
    func resolution(_ decimals: (String) -> Int?) -> Int? {
        var stack: [(decimals: Int?, constant: Double?)] = []
        for token in tokens {
            switch token {
            case .number(let v): stack.append((DecimalRounding.decimals(of: v), v))
            case .name(let n): stack.append((decimals(n), nil))
            case .register: stack.append((nil, nil))
            case .negate:
                guard let top = stack.popLast() else { return nil }
                stack.append((top.decimals, top.constant.map { -$0 }))
            case .add, .subtract, .multiply, .divide:
                guard let b = stack.popLast(), let a = stack.popLast() else { return nil }
                let d: Int?
                switch token {
                case .add, .subtract: d = DecimalRounding.sum(a.decimals, b.decimals)
                case .multiply: d = DecimalRounding.product(a.decimals, b.decimals)
                default: d = b.constant.flatMap { DecimalRounding.quotient(a.decimals, byConstant: $0) }
                }
                var constant: Double?
                if let x = a.constant, let y = b.constant {
                    switch token {
                    case .add: constant = x + y
                    case .subtract: constant = x - y
                    case .multiply: constant = x * y
                    default: constant = x / y
                    }
                }
                stack.append((d, constant))
            }
        }
        guard stack.count == 1, let d = stack[0].decimals, d <= DecimalRounding.maximumDecimals else { return nil }
        return d
    }

    /// Evaluates with a lookup by name (encoder and generators; not the decode path).
    func evaluate(_ value: (String) -> Double?) -> Double {
        var stack: [Double] = []
        for token in tokens {
            switch token {
            case .number(let v): stack.append(v)
            case .name(let n): stack.append(value(n) ?? .nan)
            case .register: stack.append(.nan)
            case .negate: stack[stack.count - 1] = -stack[stack.count - 1]
            default:
                let b = stack.removeLast()
                let a = stack.removeLast()
                switch token {
                case .add: stack.append(a + b)
                case .subtract: stack.append(a - b)
                case .multiply: stack.append(a * b)
                default: stack.append(a / b)
                }
            }
        }
        return stack.count == 1 ? stack[0] : .nan
    }
}
