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

    /// Evaluates with registers holding the fields' numbers.
    @inline(__always)
    func evaluate(_ registers: UnsafeMutablePointer<Double>, stack: UnsafeMutablePointer<Double>) -> Double {
        var top = -1
        for token in tokens {
            switch token {
            case .number(let v):
                top += 1
                stack[top] = v
            case .register(let r):
                top += 1
                stack[top] = registers[r]
            case .name:
                top += 1
                stack[top] = .nan
            case .negate:
                stack[top] = -stack[top]
            case .add:
                top -= 1
                stack[top] = stack[top] + stack[top + 1]
            case .subtract:
                top -= 1
                stack[top] = stack[top] - stack[top + 1]
            case .multiply:
                top -= 1
                stack[top] = stack[top] * stack[top + 1]
            case .divide:
                top -= 1
                stack[top] = stack[top] / stack[top + 1]
            }
        }
        return top == 0 ? stack[0] : .nan
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
