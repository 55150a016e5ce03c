/// A scenario that cannot be synthesized: file, line, JSON path and what is wrong.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var path: String
    public var message: String
    /// The file could not be read or is not JSON; otherwise a field of it is wrong.
    public var isUnreadable = false

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(path): \(message)"
    }
}

/// Reads typed values out of a scenario document and names the JSON path of anything wrong.
struct ScenarioReader {
    let file: String
    let lines: [String: Int]

    func error(_ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: lines[path] ?? lines[parent(path)], path: path, message: message)
    }

    private func parent(_ path: String) -> String {
        if let dot = path.lastIndex(where: { $0 == "." || $0 == "[" }) { return String(path[..<dot]) }
        return "$"
    }
}
