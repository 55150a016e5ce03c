/// One problem found in a layout file, located by file, line and JSON path.
///
/// `description` reads like a compiler message, so editors can jump to it:
/// `layouts/x.json:12: $.fields[3].name: "Temp" is not snake_case`.
public struct LintIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        /// The layout cannot be loaded.
        case error
        /// The layout loads, but something is probably not what its author meant.
        case warning
    }

    /// The file name as given to the linter or loader.
    public var file: String
    /// 1-based line where the value at `path` starts.
    public var line: Int
    /// JSON path of the value the issue is about: `$`, `$.match.company`, `$.fields[3].name`.
    public var path: String
    public var message: String
    public var severity: Severity

    public init(file: String, line: Int, path: String, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
        self.severity = severity
    }

    public var isError: Bool { severity == .error }

    public var description: String {
        let location = "\(file):\(line): \(path): "
        return severity == .error ? location + message : location + "warning: " + message
    }
}

/// Collects issues while a layout file is read, locating each one by its JSON path.
struct Diagnostics {
    let file: String
    let locations: [String: Int]
    private(set) var issues: [LintIssue] = []

    init(file: String, locations: [String: Int]) {
        self.file = file
        self.locations = locations
    }

    var hasErrors: Bool { issues.contains(where: \.isError) }

    /// The line of `path`, or of its nearest parent that has one.
    func line(_ path: String) -> Int {
        var path = Substring(path)
        while true {
            if let line = locations[String(path)] { return line }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return 1 }
            path = path[..<cut]
        }
    }

    mutating func error(_ path: String, _ message: String) {
        issues.append(LintIssue(file: file, line: line(path), path: path, message: message, severity: .error))
    }

    mutating func warning(_ path: String, _ message: String) {
        issues.append(LintIssue(file: file, line: line(path), path: path, message: message, severity: .warning))
    }

    mutating func sort() {
        // Stable: by line, then in the order found.
        issues = issues.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(
            \.element)
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// "; did you mean 'x'?" when one of `candidates` is close to `word`.
func suggestion(for word: String, in candidates: some Sequence<String>) -> String {
    let best = candidates.map { ($0, editDistance($0, word)) }.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
    guard let best, best.1 <= max(1, min(3, word.count / 3 + 1)) else { return "" }
    return "; did you mean '\(best.0)'?"
}
